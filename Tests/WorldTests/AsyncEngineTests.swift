// An engine written in Swift concurrency (tasks, `Task.sleep`, an actor, `@MainActor`) runs in
// the world's virtual time (VirtualConcurrency, docs/concurrency.md): deterministically, with
// its sleeps as world timers, and nothing of a killed process ever running again.
import Foundation
import Simulation
import Testing
import VirtualConcurrency

@testable import World

/// What the engines' async code did, across processes, in order.
final class AsyncJournal: @unchecked Sendable {
    var lines: [String] = []
    func note(_ line: String) { lines.append(line) }
}

/// Virtual seconds since the run's start, as `Date()` reads them in the app.
func appSeconds() -> Double {
    Date().timeIntervalSince1970 - Double(VirtualClockReading.realtimeAtStartSeconds)
}

/// The article's probe, reduced: a `@MainActor` loop that sleeps 20 s and notes each wake.
@MainActor final class SleepingProbe {
    let journal: AsyncJournal
    let process: Int
    init(journal: AsyncJournal, process: Int) {
        self.journal = journal
        self.process = process
    }
    func start() {
        Task { @MainActor in
            journal.note("process \(process) started at \(appSeconds())")
            while true {
                try await Task.sleep(for: .seconds(20))
                journal.note("process \(process) woke at \(appSeconds())")
            }
        }
    }
}

/// An engine that starts the probe at each launch.
final class SleepingEngine: AppEngine {
    let journal: AsyncJournal
    nonisolated(unsafe) static var launches = 0
    static let launchesInProcess = ProcessLocal { 0 }

    init(journal: AsyncJournal) { self.journal = journal }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        Self.launches += 1
        Self.launchesInProcess.value += 1
        journal.note(
            "launch: static \(Self.launches), process-local \(Self.launchesInProcess.value)")
        let journal = journal
        let process = Self.launches
        MainActor.assumeIsolated { SleepingProbe(journal: journal, process: process).start() }
    }
}

actor Tickets {
    var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

/// Four tasks that wake at the same instant and take a number from one actor.
final class RacingEngine: AppEngine {
    let journal: AsyncJournal
    init(journal: AsyncJournal) { self.journal = journal }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let counter = Tickets()
        let journal = journal
        for task in 0..<4 {
            Task.detached {
                try await Task.sleep(for: .seconds(10))
                let number = await counter.next()
                journal.note("task \(task) took \(number) at \(appSeconds())")
            }
        }
    }
}

@Suite("Engines in Swift concurrency", .serialized)
struct AsyncEngineTests {
    @Test("a @MainActor Task.sleep(for: .seconds(20)) wakes at exactly +20 s virtual, each time")
    func sleepsAreVirtual() {
        let journal = AsyncJournal()
        SleepingEngine.launches = 0
        let world = runWorld(route: parked, until: 65, actions: [(0, .open)]) {
            SleepingEngine(journal: journal)
        }
        #expect(
            journal.lines == [
                "launch: static 1, process-local 1", "process 1 started at 0.0",
                "process 1 woke at 20.0", "process 1 woke at 40.0", "process 1 woke at 60.0",
            ])
        #expect(world.log.contains { if case .launch = $0.kind { true } else { false } })
    }

    @Test("a killed process's sleeping task never runs again; a static survives the kill")
    func killedProcessRunsNothing() {
        let journal = AsyncJournal()
        SleepingEngine.launches = 0
        _ = runWorld(
            route: parked, until: 75, actions: [(0, .open), (30, .forceQuit), (50, .open)]
        ) {
            SleepingEngine(journal: journal)
        }
        #expect(
            journal.lines == [
                "launch: static 1, process-local 1", "process 1 started at 0.0",
                "process 1 woke at 20.0",
                // The force-quit at 30 s: process 1's sleep due at 40 s never ends. The static
                // counts both launches; the ProcessLocal starts again.
                "launch: static 2, process-local 1", "process 2 started at 50.0",
                "process 2 woke at 70.0",
            ])
    }

    @Test("a sleep that comes due while the process is suspended ends when it runs again")
    func suspendedSleep() {
        let journal = AsyncJournal()
        SleepingEngine.launches = 0
        let world = runWorld(
            route: parked, until: 75, actions: [(0, .open), (5, .leave), (50, .open)]
        ) {
            SleepingEngine(journal: journal)
        }
        let backgrounded = world.log.contains {
            if case .lifecycle(.background) = $0.kind { true } else { false }
        }
        #expect(backgrounded)
        // Left without a background session, the app is suspended within seconds: its sleep
        // due at 20 s ends only when it runs again, at 50 s.
        #expect(
            journal.lines == [
                "launch: static 1, process-local 1", "process 1 started at 0.0",
                "process 1 woke at 50.0", "process 1 woke at 70.0",
            ])
    }

    /// A run of the racing engine under `ordering`: its trace hash and what its tasks did.
    func race(_ ordering: OrderingStrategy) -> (hash: String, lines: [String]) {
        let journal = AsyncJournal()
        let trace = HashingTrace<WorldMessage>()
        var world = World(
            WorldConfiguration(route: parked, seed: 3), ordering: ordering, trace: trace
        ) { RacingEngine(journal: journal) }
        world.schedule(.open, at: .start)
        world.run(until: .start + .seconds(20))
        return (PlainHash.hex(trace.hash.value), journal.lines)
    }

    @Test("same seed, same trace and same interleaving; random ordering swaps same-instant jobs")
    func deterministic() {
        let fifo = race(.fifo)
        #expect(fifo.lines == (0..<4).map { "task \($0) took \($0 + 1) at 10.0" })
        #expect(race(.fifo) == fifo)
        // Pinned: the same in every process and under any --jobs.
        #expect(fifo.hash == race(.fifo).hash)
        for seed: UInt64 in 1...4 {
            #expect(race(.random(seed: seed)) == race(.random(seed: seed)))
        }
        let orders = Set((1...12 as ClosedRange<UInt64>).map { race(.random(seed: $0)).lines })
        #expect(orders.count > 1, "random ordering explores the tasks' interleavings")
        // Pinned, so the same in every process: FIFO, and a seed whose picks reorder the tasks.
        // The trace records the wake at 10 s, not the order of the jobs it ran, so the two
        // hashes are equal; the tasks' own record differs.
        #expect(fifo.hash == "b585f9bb4b5200f0")
        let reordered = race(.random(seed: 5))
        #expect(reordered.hash == "b585f9bb4b5200f0")
        #expect(
            reordered.lines == [
                "task 3 took 1 at 10.0", "task 0 took 2 at 10.0", "task 1 took 3 at 10.0",
                "task 2 took 4 at 10.0",
            ])
    }

    @Test("worlds on several threads at once give what they give one at a time (--jobs)")
    func threads() {
        let seeds: [UInt64] = [1, 2, 3, 4, 5, 6]
        let serial = seeds.map { race(.random(seed: $0)) }
        let results = Results(count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            results.set(index, race(.random(seed: seeds[index])))
        }
        #expect(results.values.map(\.hash) == serial.map(\.hash))
        #expect(results.values.map(\.lines) == serial.map(\.lines))
    }
}

/// Results written by several threads, one slot each.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [(hash: String, lines: [String])?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: (hash: String, lines: [String])) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }
    var values: [(hash: String, lines: [String])] { slots.map { $0! } }
}
