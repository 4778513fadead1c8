// no-fix-lost-after-restore (layer 5): every fix an app wrote to its store reached the disk,
// unless iOS lost the commit that carried it; judged from the disk, not from the engine.
import Engines
import Simulation
import World

extension Invariant {
    /// `no-fix-lost-after-restore`: in every process, the first and every relaunched one,
    /// every fix row the engine inserted into its store reached the disk, except the rows of
    /// a commit iOS lost (a termination while the commit was in flight: the log's
    /// `commitLost`, with its rule).
    ///
    /// Decided from the simulated disk alone: rows still in the store's open transaction when
    /// the process ended (the log's `uncommittedRowsLost`) were acknowledged by the app's own
    /// code and never made durable: inserted and never committed, or committed only every few
    /// rows. A correct engine commits in the callback that inserts, so its transaction is
    /// empty whenever iOS can end it. What the engine says of its fixes (`TrackingEvent`)
    /// plays no part; a fix that never reaches the store at all is `bounded-gaps`' to find.
    public static func noFixLostAfterRestore() -> Invariant {
        Invariant(
            name: NoFixLost.name,
            summary: "Every fix an app wrote to its store reached the disk, unless iOS lost "
                + "the commit that carried it."
        ) { record in
            NoFixLost(record: record).violations()
        }
    }
}

/// The check of `Invariant.noFixLostAfterRestore()`.
struct NoFixLost {
    static let name = "no-fix-lost-after-restore"
    let record: RunRecord

    func violations() -> [Violation] {
        var found: [Violation] = []
        let log = record.log.uncommon
        for index in log.indices {
            guard case .uncommittedRowsLost(let rows, let cause) = log[index].kind else {
                continue
            }
            let fixes = rows.compactMap { record.fix(in: $0) }
            guard let first = fixes.first, let last = fixes.last else { continue }
            let generation = log[index].generation
            let what =
                fixes.count == 1
                ? "fix at \(TimeText.clock(first.instant)) was"
                : "\(fixes.count) fixes, the first at \(TimeText.clock(first.instant)) and the "
                    + "last at \(TimeText.clock(last.instant)), were"
            found.append(
                Violation(
                    invariant: Self.name, instant: first.instant,
                    explanation: "\(what) written to the store by process \(generation) and "
                        + "never committed: lost when the process was killed (\(cause.rawValue)) "
                        + "at \(TimeText.clock(log[index].instant))"))
        }
        return found.sortedByInstant()
    }
}
