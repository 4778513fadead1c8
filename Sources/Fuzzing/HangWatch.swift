import Foundation
import Simulation

// When a case in a child process has hung (layer 5): the timeout counts the processor time the
// case's thread used, not the wall clock, so a machine busy with other work slows a case down
// without making it a hang.

/// The cases a child process runs, each with the wall-clock and processor time at its start, and
/// the rule that says one has hung.
///
/// A case hangs when its thread (or the child, when the thread is unknown) has used `timeout`
/// seconds of processor time, or when `blockedFactor` times `timeout` seconds of wall time have
/// passed (a case blocked in a wait that uses no processor time). Where processor time cannot
/// be read (`ProcessorTime`), the wall clock alone counts, with `timeout`.
package struct HangWatch {
    /// How many timeouts of wall time a case may spend without using the processor before it
    /// counts as hung: one blocked in a real wait that only the real world could end.
    package static let blockedFactor = 10.0
    /// How often, in wall-clock seconds at most, the processor time of the cases is read.
    static let pollInterval = 0.5

    package let pid: pid_t
    package let timeout: Double
    private let clocks: Clocks
    private var started: [Int: Start] = [:]

    /// Where the times come from: the wall clock and `ProcessorTime` (a test gives its own).
    struct Clocks {
        var wall: () -> Double
        /// The seconds a process used, or one of its threads when given; nil when unknown.
        var processor: (pid_t, Int32?) -> Double?

        static var machine: Clocks {
            Clocks(
                wall: WallClock.seconds,
                processor: { ProcessorTime.seconds(process: $0, thread: $1) })
        }
    }

    private struct Start {
        var wall: Double
        var thread: Int32?
        var processor: Double?
    }

    package init(pid: pid_t, timeout: Double) {
        self.init(pid: pid, timeout: timeout, clocks: .machine)
    }

    init(pid: pid_t, timeout: Double, clocks: Clocks) {
        self.pid = pid
        self.timeout = timeout
        self.clocks = clocks
    }

    /// The cases in flight, the lowest first.
    package var inFlight: [Int] { started.keys.sorted() }

    /// Case `index` began now, on thread `thread` of the child if known.
    package mutating func started(_ index: Int, thread: Int32? = nil) {
        started[index] = Start(
            wall: clocks.wall(), thread: thread, processor: clocks.processor(pid, thread))
    }

    /// Case `index` now runs on thread `thread`: its processor time counts from here.
    package mutating func runs(_ index: Int, onThread thread: Int32) {
        guard var start = started[index] else { return }
        start.thread = thread
        start.processor = clocks.processor(pid, thread)
        started[index] = start
    }

    /// Case `index` ended.
    package mutating func finished(_ index: Int) { started[index] = nil }

    /// The wall-clock instant by which the cases must be looked at again (nil: none in flight).
    package func nextCheck() -> Double? {
        guard let earliest = started.values.map(\.wall).min() else { return nil }
        return max(earliest + timeout, clocks.wall() + Self.pollInterval)
    }

    /// A case that hung, and how.
    package struct Hang: Equatable, Sendable {
        package var caseIndex: Int
        /// How it was told: `timeout` seconds of processor time, ten timeouts of wall time
        /// without using the processor, or `timeout` of wall time where processor time is
        /// unknown.
        package var measure: Measure

        package enum Measure: Equatable, Sendable {
            case processor
            case blocked
            case wall
        }

        /// The words for how long it ran, for a `no-hang` violation.
        package func describe(timeout: Double) -> String {
            switch measure {
            case .processor: "after using \(timeout) s of processor time"
            case .blocked:
                "after \(timeout * HangWatch.blockedFactor) s of wall time without using the "
                    + "processor (blocked in a wait)"
            case .wall: "after \(timeout) s of wall time"
            }
        }
    }

    /// The lowest case in flight that has hung, if one has.
    package func hung() -> Hang? {
        let now = clocks.wall()
        for index in started.keys.sorted() {
            guard let start = started[index] else { continue }
            let wall = now - start.wall
            guard wall >= timeout else { continue }
            if wall >= timeout * Self.blockedFactor {
                return Hang(caseIndex: index, measure: .blocked)
            }
            guard let before = start.processor else {
                return Hang(caseIndex: index, measure: .wall)
            }
            // A thread that ended (its case is finishing) or a child that is gone: the next
            // event says so.
            guard let used = clocks.processor(pid, start.thread) else { continue }
            if used - before >= timeout { return Hang(caseIndex: index, measure: .processor) }
        }
        return nil
    }
}
