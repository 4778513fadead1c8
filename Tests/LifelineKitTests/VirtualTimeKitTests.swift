// LifelineKit's Timer, RunLoop, Dispatch and OperationQueue in virtual time, and every path of
// the old "stays real" list either virtual or reported as escaped-simulation.
import Dispatch
import Engines
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import Testing
import VirtualConcurrency
import World

#if canImport(Glibc)
    import Glibc
#endif

/// What the test's blocks record, in the order they ran.
final class TimeJournal: @unchecked Sendable {
    var lines: [String] = []
    func note(_ line: String) { lines.append(line) }
}

/// The clocks at `t` nanoseconds into a run (wall clock from 2026-01-01, uptime 100 s at 0).
func clocks(_ t: Int64) -> VirtualClockReading {
    VirtualClockReading(
        realtime: VirtualClockReading.realtimeAtStartSeconds * 1_000_000_000 + t,
        monotonic: 100_000_000_000 + t, boottime: 100_000_000_000 + t)
}

/// Runs `start` in `process` at 0, then its work as it comes due, up to `horizon`; returns the
/// escapes reported.
@discardableResult
func run(
    _ process: VirtualProcess, horizon: Int64 = 3_600_000_000_000, _ start: () -> Void
) -> [SimulationEscape] {
    SimulationEscapes.collecting {
        process.withCurrent(at: 0, clock: clocks(0)) {
            start()
            process.runDueJobs()
        }
        while let deadline = process.nextDeadline, deadline <= horizon {
            _ = process.withCurrent(at: deadline, clock: clocks(deadline)) {
                process.runDueJobs()
            }
        }
    }.escapes
}

/// Seconds since the run's start, from `Date()`.
func secondsNow() -> Int {
    Int(Date().timeIntervalSince1970) - Int(VirtualClockReading.realtimeAtStartSeconds)
}

@Suite("LifelineKit: Timer, RunLoop and Dispatch in virtual time")
struct VirtualTimeKitTests {
    @Test("a repeating Timer fires every interval in virtual time until invalidated")
    func repeatingTimer() {
        let journal = TimeJournal()
        let escapes = run(VirtualProcess()) {
            LifelineKit.Timer.scheduledTimer(withTimeInterval: 30, repeats: true) { timer in
                let fires = journal.lines.count + 1
                journal.note("fire \(fires) at \(secondsNow()) valid \(timer.isValid)")
                if fires == 3 { timer.invalidate() }
            }
        }
        #expect(escapes.isEmpty)
        #expect(
            journal.lines == [
                "fire 1 at 30 valid true", "fire 2 at 60 valid true",
                "fire 3 at 90 valid true",
            ])
    }

    @Test("Timer: fire() runs a one-shot at once and invalidates it; tolerance is kept")
    func fireAndTolerance() {
        let journal = TimeJournal()
        run(VirtualProcess()) {
            let timer = LifelineKit.Timer(timeInterval: 10, repeats: false) { _ in
                journal.note("fired at \(secondsNow())")
            }
            timer.tolerance = 2
            LifelineKit.RunLoop.main.add(timer, forMode: .common)
            timer.fire()
            journal.note("valid \(timer.isValid), tolerance \(timer.tolerance)")
        }
        #expect(journal.lines == ["fired at 0", "valid false, tolerance 2.0"])
    }

    @Test("main queue, serial and global queues, asyncAfter with DispatchTime and DispatchWallTime")
    func queues() {
        let journal = TimeJournal()
        let escapes = run(VirtualProcess()) {
            let serial = LifelineKit.DispatchQueue(label: "serial")
            LifelineKit.DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                journal.note("main after at \(secondsNow())")
            }
            LifelineKit.DispatchQueue.global(qos: .utility).asyncAfter(
                wallDeadline: .now() + 7
            ) { journal.note("wall after at \(secondsNow())") }
            serial.async { journal.note("serial 1") }
            serial.async { journal.note("serial 2") }
            LifelineKit.DispatchQueue.main.async { journal.note("main now") }
            let value = serial.sync { 42 }
            journal.note("sync \(value)")
        }
        #expect(escapes.isEmpty)
        #expect(
            journal.lines == [
                "serial 1", "serial 2", "sync 42", "main now", "main after at 5",
                "wall after at 7",
            ])
    }

    @Test("a cancelled DispatchWorkItem never runs; DispatchGroup notifies; a semaphore waits")
    func workItemsGroupsSemaphores() {
        let journal = TimeJournal()
        let escapes = run(VirtualProcess()) {
            let item = LifelineKit.DispatchWorkItem { journal.note("item ran") }
            LifelineKit.DispatchQueue.main.asyncAfter(deadline: .now() + 2, execute: item)
            item.cancel()
            journal.note("cancelled \(item.isCancelled)")
            let group = LifelineKit.DispatchGroup()
            let semaphore = LifelineKit.DispatchSemaphore(value: 0)
            LifelineKit.DispatchQueue.global().async(group: group) {
                journal.note("group work")
                semaphore.signal()
            }
            group.notify(queue: .main) { journal.note("group done at \(secondsNow())") }
            journal.note("semaphore \(semaphore.wait(timeout: .now() + 1))")
            journal.note("group wait \(group.wait(timeout: .now()))")
        }
        #expect(escapes.isEmpty)
        #expect(
            journal.lines == [
                "cancelled true", "group work", "semaphore success",
                "group wait success", "group done at 0",
            ])
    }

    @Test("a DispatchSource timer repeats in virtual time; OperationQueue runs its operations")
    func sourcesAndOperations() {
        let journal = TimeJournal()
        let escapes = run(VirtualProcess(), horizon: 20_000_000_000) {
            let source = LifelineKit.DispatchSource.makeTimerSource(queue: .main)
            source.schedule(deadline: .now() + 3, repeating: .seconds(4))
            source.setEventHandler { journal.note("tick at \(secondsNow())") }
            source.resume()
            LifelineKit.OperationQueue.main.addOperation { journal.note("main operation") }
            let queue = LifelineKit.OperationQueue()
            queue.maxConcurrentOperationCount = 1
            queue.addOperation { journal.note("operation") }
            LifelineKit.DispatchQueue.main.asyncAfter(deadline: .now() + 12) { source.cancel() }
        }
        #expect(escapes.isEmpty)
        #expect(
            journal.lines == [
                "main operation", "operation", "tick at 3", "tick at 7",
                "tick at 11",
            ])
    }

    @Test(
        "work of a process that ended never runs, and a timer or work item carried into another process is refused"
    )
    func workBelongsToItsProcess() {
        let journal = TimeJournal()
        let first = VirtualProcess()
        var kept: (LifelineKit.Timer, LifelineKit.DispatchWorkItem)?
        run(first, horizon: 0) {
            LifelineKit.DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                journal.note("first process's block")
            }
            kept = (
                LifelineKit.Timer(timeInterval: 1, repeats: false) { _ in
                    journal.note("first's timer")
                },
                LifelineKit.DispatchWorkItem { journal.note("first's item") }
            )
        }
        first.end()
        let escapes = run(VirtualProcess()) {
            LifelineKit.RunLoop.main.add(kept!.0, forMode: .default)
            LifelineKit.DispatchQueue.main.async(execute: kept!.1)
        }
        #expect(journal.lines.isEmpty)
        #expect(escapes.count == 2)
        #expect(escapes.allSatisfy { $0.call.contains("made in a process that has ended") })
    }

    @Test("RunLoop.run(until:) and a wait only time could end are refused loudly")
    func blockingIsRefused() {
        let escapes = run(VirtualProcess()) {
            LifelineKit.RunLoop.current.run(until: Date(timeIntervalSinceNow: 5))
            let semaphore = LifelineKit.DispatchSemaphore(value: 0)
            _ = semaphore.wait(timeout: .now() + 3)
            LifelineKit.RunLoop.current.run(until: Date(timeIntervalSinceNow: -1))  // passed: fine
        }
        #expect(escapes.map(\.call).count == 2)
        #expect(escapes.first?.call.contains("RunLoop.run(until:)") == true)
        #expect(escapes.first?.supportedForm.contains("Timer") == true)
    }

    /// Each of the old Limits list's real paths, made on a simulation thread: reported.
    @Test(
        "every real path of the old Limits list is reported as an escape, naming the call",
        arguments: [
            "DispatchQueue.main.async", "DispatchQueue.asyncAfter", "Thread", "Thread.sleep",
            "usleep", "OperationQueue", "socket",
        ])
    func realPathsEscape(path: String) {
        let escapes = run(VirtualProcess(), horizon: 0) {
            switch path {
            case "DispatchQueue.main.async":
                Dispatch.DispatchQueue.main.async {}
            case "DispatchQueue.asyncAfter":
                Dispatch.DispatchQueue.global().asyncAfter(deadline: .now() + 1) {}
            case "Thread":
                Foundation.Thread {}.start()
            case "Thread.sleep":
                Foundation.Thread.sleep(forTimeInterval: 0.001)
            case "usleep":
                usleep(1_000)
            case "OperationQueue":
                Foundation.OperationQueue().addOperation {}
            default:
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(80).bigEndian
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                close(socket)
            }
        }
        #expect(!escapes.isEmpty, "\(path): nothing reported")
        #expect(escapes.first?.supportedForm.isEmpty == false)
    }

    @Test(
        "a sleep of no length is a yield, not an escape: CoreFoundation's spin locks call sleep(0)"
    )
    func zeroLengthSleepIsNoEscape() {
        let escapes = run(VirtualProcess(), horizon: 0) {
            sleep(0)
            usleep(0)
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            nanosleep(&none, nil)
        }
        // Before: three escapes, "sleep (a real sleep)" first.
        #expect(escapes.isEmpty, "\(escapes.map(\.call))")
        // A sleep of any length is still one.
        let slept = run(VirtualProcess(), horizon: 0) { sleep(1) }
        #expect(slept.map(\.call) == ["sleep (a real sleep)"])
    }

    @Test("the same real calls outside every simulated process are not escapes")
    func outsideIsNotAnEscape() {
        let escapes = SimulationEscapes.collecting {
            usleep(1)
            _ = Dispatch.DispatchSemaphore(value: 0).wait(timeout: .now() + 0.001)
        }.escapes
        #expect(escapes.isEmpty)
    }
}

/// An app delegate that hands work to a real Dispatch queue at launch.
final class RealQueueAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Dispatch.DispatchQueue.main.asyncAfter(deadline: .now() + 1) {}
        return true
    }
}

let realQueueApp = CustomEngine.application(
    name: "real-queue-app", summary: "an app that queues a block on a real Dispatch queue"
) { _ in
    RealQueueAppDelegate()
} setTracking: { _, _ in
}

extension VirtualTimeKitTests {
    @Test(
        "fuzzed, an app using a real Dispatch queue gets escaped-simulation, shrunk, never a lifecycle verdict"
    )
    func escapeIsItsOwnVerdict() {
        var report: FuzzReport?
        withKnownIssue("the escape is reported as a Swift Testing issue") {
            report = fuzzLifecycle(
                of: .custom(realQueueApp), checking: Invariant.builtIn, seed: 1, cases: 10)
        }
        #expect(report?.failure?.invariant == FuzzFailure.escapeInvariant)
        let explanation = report?.failure?.violations.first?.explanation ?? ""
        #expect(explanation.contains("asyncAfter on a real Dispatch queue"), "\(explanation)")
        #expect(explanation.contains("LifelineKit.DispatchQueue"))
        #expect((report?.failure?.scenario.events.count ?? 99) <= 2)
    }
}
