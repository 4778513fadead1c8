// Sizing a run's records from the runs before it (layer 5): a fuzzer runs thousands of
// similar cases in a row, and growing each one's trace from nothing copied it about twice.
import Foundation

/// How many deliveries and engine events a run recorded: the room to reserve for the next.
struct RunCapacity: Sendable {
    var deliveries: Int
    var engineEvents: Int

    /// The largest counts of the runs so far on any thread, shared by every run of the process.
    static let hint = Hint()

    /// The capacity that the runs so far suggest: as much as the largest recorded, bounded so
    /// that one very long run does not make every later one reserve memory it will not use
    /// (pages reserved and never written cost nothing). Only capacity: a wrong hint costs a
    /// copy or unused room, never a different result.
    final class Hint: @unchecked Sendable {
        // invariant: `largest` is read and written only under `lock`.
        private let lock = NSLock()
        private var largest = RunCapacity(deliveries: 0, engineEvents: 0)

        /// Room for as much as the largest run recorded, up to `countMax` each.
        var next: RunCapacity { lock.withLock { largest } }

        /// Notes what a finished run recorded.
        func note(_ recorded: RunCapacity) {
            lock.withLock {
                largest.deliveries = Self.bounded(max(largest.deliveries, recorded.deliveries))
                largest.engineEvents = Self.bounded(
                    max(largest.engineEvents, recorded.engineEvents))
            }
        }

        /// Most elements reserved for each array: more than a simulated day of deliveries
        /// (records of about 150 bytes, so some 10 MB).
        static let countMax = 1 << 16

        private static func bounded(_ count: Int) -> Int { min(count, countMax) }
    }
}
