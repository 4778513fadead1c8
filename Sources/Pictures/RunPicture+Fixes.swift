// Fixes by fate (Pictures, layer 5): delivered to the app's code, stored on disk at the end, or
// lost with the rule that lost them, each at the instant that fate was sealed.
import Invariants
import Simulation
import World

extension RunPicture {
    /// What became of fixes: three rows of the picture.
    public enum FixFate: String, Sendable, CaseIterable {
        /// Handed to the app's code (a location update with a fix, or a significant change).
        case delivered
        /// A row with a fix on disk at the end of the run.
        case stored
        /// Dropped before the app's code saw it, or lost from a commit, with its rule.
        case lost
    }

    /// Fixes that met one fate at one instant.
    public struct FixMark: Sendable, Equatable {
        public var fate: FixFate
        /// Delivered: when the app's code got it. Stored: the fix's own instant, so the stored
        /// row shows the time it covers. Lost: when it was dropped or its commit lost.
        public var instant: Instant
        /// How many fixes: 1, or the rows of a commit that was lost.
        public var count: Int
        /// The process concerned, when one is (a fix dropped for no listener may have none).
        public var generation: Int?
        /// For a lost fix: why, with the rule (`process ended (memory), R-F3`); else empty.
        public var reason: String
    }

    /// The log's deliveries and drops of fixes and lost commits, and the store's rows at the
    /// end, each fate in time order (ties in the record's order).
    static func fixMarks(_ record: RunRecord) -> [FixMark] {
        var delivered: [FixMark] = []
        var lost: [FixMark] = []
        for entry in record.log {
            switch entry.kind {
            case .location(let update) where update.fix != nil:
                delivered.append(mark(.delivered, entry, count: 1))
            case .event(.significantChange):
                delivered.append(mark(.delivered, entry, count: 1))
            case .dropped(let item, let reason) where carriesFix(item):
                lost.append(mark(.lost, entry, count: 1, reason: reason))
            case .commitLost(_, let rowCount, let reason) where rowCount > 0:
                lost.append(mark(.lost, entry, count: rowCount, reason: reason))
            default: break
            }
        }
        let stored = record.storedFixes.map { stored in
            FixMark(
                fate: .stored, instant: stored.fix.instant, count: 1,
                generation: stored.generation, reason: "")
        }
        return delivered + inTimeOrder(stored) + lost
    }

    private static func mark(
        _ fate: FixFate, _ entry: AppLogEntry, count: Int, reason: DropReason? = nil
    ) -> FixMark {
        FixMark(
            fate: fate, instant: entry.instant, count: count, generation: entry.generation,
            reason: reason.map { "\($0)" } ?? "")
    }

    /// True for an item that carries a fix: a location update with one, or a significant
    /// change.
    private static func carriesFix(_ item: AppItem) -> Bool {
        switch item {
        case .location(let update): update.fix != nil
        case .event(.significantChange): true
        default: false
        }
    }

    private static func inTimeOrder(_ marks: [FixMark]) -> [FixMark] {
        marks.enumerated().sorted {
            ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
        }.map(\.element)
    }

    /// The marks of one fate, in time order.
    public func fixes(_ fate: FixFate) -> [FixMark] { fixes.filter { $0.fate == fate } }
}
