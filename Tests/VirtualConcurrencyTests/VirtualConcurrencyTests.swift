import CVirtualClock
import Foundation
import Testing
@_spi(ExperimentalCustomExecutors) import _Concurrency

@testable import VirtualConcurrency

/// What a test's async code records, in the order it ran (one simulated process, one thread).
final class Journal: @unchecked Sendable {
    var lines: [String] = []
    func note(_ line: String) { lines.append(line) }
}

/// The clocks at `t` nanoseconds into a run: the wall clock from 2026-01-01, an uptime of 100 s
/// at the start.
func reading(_ t: Int64) -> VirtualClockReading {
    VirtualClockReading(
        realtime: VirtualClockReading.realtimeAtStartSeconds * 1_000_000_000 + t,
        monotonic: 100_000_000_000 + t, boottime: 100_000_000_000 + t)
}

/// Runs `start` as the process at 0, then every sleep as it comes due, up to `horizon`.
func drive(_ process: VirtualProcess, horizon: Int64 = 3_600_000_000_000, _ start: () -> Void) {
    process.withCurrent(at: 0, clock: reading(0)) {
        start()
        process.runDueJobs()
    }
    while let deadline = process.nextDeadline, deadline <= horizon {
        _ = process.withCurrent(at: deadline, clock: reading(deadline)) { process.runDueJobs() }
    }
}

/// Seconds since the virtual start, from `Date()`.
func virtualSeconds() -> Double {
    Date().timeIntervalSince1970 - Double(VirtualClockReading.realtimeAtStartSeconds)
}

@MainActor final class MainProbe {
    var fixes = 0
    let journal: Journal
    init(journal: Journal) { self.journal = journal }
    func start() {
        Task { @MainActor in
            journal.note("main start at \(virtualSeconds())")
            for _ in 0..<3 {
                try await Task.sleep(for: .seconds(20))
                fixes += 1
                journal.note("main woke at \(virtualSeconds()), fixes \(fixes)")
            }
        }
    }
}

actor Tally {
    var count = 0
    func add() -> Int {
        count += 1
        return count
    }
}

@Suite("Virtual concurrency")
struct VirtualConcurrencyTests {
    @Test("the executors are installed at load and the clock functions are interposed")
    func installed() {
        #expect(VirtualConcurrency.isInstalled)
        #expect(VirtualClock.isInterposed)
    }

    @Test("Date, ContinuousClock and systemUptime read virtual time inside a process only")
    func clocks() {
        let process = VirtualProcess()
        let t: Int64 = 1_234_500_000_000
        let realBefore = Date()
        process.withCurrent(at: t, clock: reading(t)) {
            #expect(virtualSeconds() == 1_234.5)
            #expect(Date.now.timeIntervalSince1970 == 1_767_226_834.5)
            #expect(ProcessInfo.processInfo.systemUptime == 1_334.5)
            let start = Date(timeIntervalSince1970: 1_767_225_600)
            #expect(start.timeIntervalSinceNow == -1_234.5)
            let a = ContinuousClock.now
            let b = ContinuousClock.now
            #expect(a == b)
        }
        // Outside, the real clock: it moves, and it is not the virtual one.
        #expect(Date() >= realBefore)
        #expect(abs(Date().timeIntervalSince(realBefore)) < 60)
        #expect(lifelineClockIsVirtual() == false)
    }

    @Test("Task.sleep(for: .seconds(20)) on the main actor wakes at exactly +20 s virtual")
    func sleepWakesExactly() {
        let journal = Journal()
        let process = VirtualProcess()
        drive(process) {
            MainActor.assumeIsolated { MainProbe(journal: journal).start() }
        }
        #expect(
            journal.lines == [
                "main start at 0.0", "main woke at 20.0, fixes 1", "main woke at 40.0, fixes 2",
                "main woke at 60.0, fixes 3",
            ])
        #expect(process.sleepsStarted == 3)
        #expect(process.pendingCount == 0)
    }

    @Test("an AsyncStream, an actor and detached tasks run at the instants their sleeps give")
    func streamAndActor() {
        let journal = Journal()
        let process = VirtualProcess()
        drive(process) {
            let tally = Tally()
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            Task.detached {
                for await value in stream {
                    let count = await tally.add()
                    journal.note("got \(value) at \(virtualSeconds()) count \(count)")
                }
                journal.note("ended at \(virtualSeconds())")
            }
            Task.detached {
                for value in 0..<3 {
                    continuation.yield(value)
                    try? await Task.sleep(for: .seconds(7))
                }
                continuation.finish()
            }
        }
        #expect(
            journal.lines == [
                "got 0 at 0.0 count 1", "got 1 at 7.0 count 2", "got 2 at 14.0 count 3",
                "ended at 21.0",
            ])
    }

    @Test("jobs of a process that ended never run, and jobs enqueued after its end are dropped")
    func endedProcessRunsNothing() {
        let journal = Journal()
        let process = VirtualProcess()
        process.withCurrent(at: 0, clock: reading(0)) {
            MainActor.assumeIsolated { MainProbe(journal: journal).start() }
            Task.detached { journal.note("detached ran") }
            process.runDueJobs()
        }
        #expect(journal.lines == ["main start at 0.0", "detached ran"])
        #expect(process.nextDeadline == 20_000_000_000)
        #expect(process.end() == 1)
        process.withCurrent(at: 20_000_000_000, clock: reading(20_000_000_000)) {
            Task.detached { journal.note("after the end") }
            #expect(process.runDueJobs() == 0)
        }
        #expect(journal.lines == ["main start at 0.0", "detached ran"])
        #expect(process.jobsDropped == 2)
        #expect(process.nextDeadline == nil)
    }

    @Test("MainActor isolation holds in a callback and in main-actor jobs, not in a task's")
    func mainActorIsolation() {
        let process = VirtualProcess()
        let journal = Journal()
        process.withCurrent(at: 0, clock: reading(0)) {
            MainActor.assumeIsolated { journal.note("callback on main") }
            Task.detached { @MainActor in noteIfOnMain(journal, "main job on main") }
            Task.detached { noteIfOnMain(journal, "task job on main") }
            process.runDueJobs()
        }
        #expect(journal.lines == ["callback on main", "main job on main"])
        process.withCurrent(at: 0, clock: reading(0), onMainThread: false) {
            noteIfOnMain(journal, "off-main callback on main")
        }
        #expect(journal.lines == ["callback on main", "main job on main"])
    }

    /// Five tasks at one instant, each hopping through an actor, under `pick`.
    func interleaving(pick: ((Int) -> Int)?) -> [String] {
        let journal = Journal()
        let process = VirtualProcess(pick: pick)
        drive(process) {
            let tally = Tally()
            for task in 0..<5 {
                Task.detached {
                    try? await Task.sleep(for: .seconds(10))
                    let count = await tally.add()
                    journal.note("task \(task) count \(count) at \(virtualSeconds())")
                }
            }
            MainActor.assumeIsolated {
                Task { @MainActor in journal.note("main first") }
                Task { @MainActor in journal.note("main second") }
            }
        }
        return journal.lines
    }

    @Test(
        "same-instant jobs: FIFO without a pick, the same order for the same seed, others across seeds"
    )
    func orderingIsDeterministic() {
        let fifo = interleaving(pick: nil)
        #expect(fifo.prefix(2) == ["main first", "main second"])
        #expect(fifo.dropFirst(2).first == "task 0 count 1 at 10.0")
        func seeded(_ seed: UInt64) -> [String] {
            var generator = SplitMix(seed: seed)
            return interleaving { count in Int(generator.next() % UInt64(count)) }
        }
        #expect(seeded(7) == seeded(7))
        let orders = Set((1...20 as ClosedRange<UInt64>).map { seeded($0).joined(separator: "|") })
        #expect(orders.count > 1)
        for seed: UInt64 in 1...20 {
            let lines = seeded(seed)
            // The main queue stays FIFO whatever the picks.
            #expect(
                lines.firstIndex(of: "main first")! < lines.firstIndex(of: "main second")!)
            #expect(lines.count == 7)
        }
    }

    @Test("a ProcessLocal starts fresh in each simulated process; a static survives the kill")
    func processLocal() {
        enum EngineState {
            static let local = ProcessLocal { 0 }
            nonisolated(unsafe) static var plain = 0
        }
        EngineState.plain = 0
        for _ in 0..<2 {
            let process = VirtualProcess()
            process.withCurrent(at: 0, clock: reading(0)) {
                EngineState.local.value += 1
                EngineState.plain += 1
                #expect(EngineState.local.value == 1)
            }
            process.end()
        }
        #expect(EngineState.plain == 2)
        #expect(EngineState.local.value == 0)  // outside any process: the real process's value
    }
}

/// Notes `line` when the caller runs on the simulated main thread (the isolation check the
/// runtime makes for `MainActor.assumeIsolated`).
func noteIfOnMain(_ journal: Journal, _ line: String) {
    if MainActor.executor.isIsolatingCurrentContext() == true { journal.note(line) }
}

/// SplitMix64, for the tests' seeded picks.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func lifelineClockIsVirtual() -> Bool { lifeline_vc_clock_is_virtual() != 0 }
