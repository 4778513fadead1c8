// The scheduler's memory benchmark: how much resident memory N pending timers cost.
import Simulation

/// Schedules `timerCount` timers at seeded random instants within an hour, reads the process's
/// peak resident memory while they are all pending, then delivers them all and checks that
/// each arrived exactly once. The target: 1,000,000 pending timers under 100 MB.
package struct PendingTimersBenchmark {
    package var timerCount: Int
    package var seed: UInt64

    package init(timerCount: Int = 1_000_000, seed: UInt64 = 42) {
        precondition(timerCount >= 1, "at least one timer")
        self.timerCount = timerCount
        self.seed = seed
    }

    package struct Result: Sendable {
        package var pendingAtPeak: Int
        package var peakResidentBytes: Int?
        package var delivered: Int
        package var wallSeconds: Double
    }

    package func run() -> Result {
        let started = WallClock.seconds()
        var random = Xoshiro256StarStar(seed: seed)
        var simulation = Simulation<BenchmarkMessage>()
        let counter = DeliveryCounter()
        let id = simulation.add(counter)
        let spanNanoseconds = UInt64(VirtualDuration.hours(1).nanoseconds)
        for _ in 0..<timerCount {
            let instant = Instant(
                nanosecondsSinceStart: Int64(random.nextBounded(below: spanNanoseconds)))
            simulation.scheduler.send(.timer, to: id, at: instant)
        }
        let pending = simulation.scheduler.pendingCount
        let peak = ProcessMemory.peakResidentBytes()
        let outcome = simulation.run()
        precondition(
            outcome.exitReason == .idle && counter.count == timerCount,
            "every pending timer is delivered exactly once")
        return Result(
            pendingAtPeak: pending, peakResidentBytes: peak,
            delivered: counter.count, wallSeconds: WallClock.seconds() - started)
    }
}

/// Counts what it receives.
final class DeliveryCounter: SimulationActor {
    private(set) var count = 0
    func receive(_ message: BenchmarkMessage, context: inout Scheduler<BenchmarkMessage>) {
        count += 1
    }
}
