// A run as a person reads it (layer 5): one line per thing that happened, in virtual time,
// with launches, terminations, losses and violations marked.
import Engines
import Simulation
import World

/// A run rendered as lines `M HH:MM:SS.mmm  actor  what happened`: the external actions, the
/// app's log and its engines' events (fixes accepted and rejected aside), and the violations
/// found, merged in time order (at one instant: actions, then the log, then the engines'
/// events, then violations). The marker column `M` makes the turning points stand out:
///
///     >> 00:05:00.000  process 2     launch background, data readable, …
///     xx 00:15:00.000  process 2     dropped live #3 fix …: process ended (memory), R-F3
///     !! 00:16:02.000  bounded-gaps  no fix was stored from …
///
/// The compact mode folds every run of routine lines (fixes delivered, accepted or rejected,
/// commits, uploads, saved-record writes, timers, session diagnostics) into one `..` line that
/// counts them. The text is deterministic: the same record gives the same lines.
public struct Timeline: Sendable {
    /// How much is shown.
    public enum Mode: Sendable { case full, compact }

    /// What makes a line stand out.
    public enum Marker: String, Sendable {
        case none = "  "
        case launch = ">>"
        case termination = "<<"
        case loss = "xx"
        case violation = "!!"
        case summary = ".."
    }

    /// One line of the timeline.
    public struct Line: Sendable, Equatable, CustomStringConvertible {
        public var marker: Marker
        public var instant: Instant
        public var actor: String
        public var text: String

        public var description: String {
            let padding = max(0, Timeline.actorWidth - actor.count)
            return "\(marker.rawValue) \(TimeText.clock(instant))  \(actor)"
                + String(repeating: " ", count: padding) + "  \(text)"
        }
    }

    public let lines: [Line]

    /// The timeline of `record`, with `violations` (usually the invariants' findings on it).
    public init(_ record: RunRecord, violations: [Violation] = [], mode: Mode = .full) {
        let merged = Self.merge(record, violations)
        lines = mode == .full ? merged.map(\.line) : Self.compact(merged)
    }

    /// The lines joined, each ending with a newline.
    public var text: String { lines.map { $0.description + "\n" }.joined() }

    /// Actor names are padded to this many characters.
    static let actorWidth = 12

    // MARK: - Merging

    /// A line with whether it is routine (folded in the compact mode) and what it counts as.
    struct Item {
        var line: Line
        var routine: RoutineKind?
        var generation: Int?
    }

    /// The routine lines the compact mode counts, in the order its summary names them.
    enum RoutineKind: Int, CaseIterable {
        case fixDelivered, fixAccepted, fixRejected, rowsStored, uploadCompleted, other

        var noun: String {
            switch self {
            case .fixDelivered: "fixes delivered"
            case .fixAccepted: "accepted"
            case .fixRejected: "rejected"
            case .rowsStored: "commits durable"
            case .uploadCompleted: "uploads completed"
            case .other: "other routine entries"
            }
        }
    }

    private enum SourceRank: Int { case action, log, engine, violation }

    private static func merge(_ record: RunRecord, _ violations: [Violation]) -> [Item] {
        var keyed: [(instant: Instant, rank: SourceRank, order: Int, item: Item)] = []
        for (order, scheduled) in record.actions.enumerated() {
            let line = Line(
                marker: .none, instant: scheduled.instant, actor: scheduled.action.source.rawValue,
                text: scheduled.action.description)
            keyed.append((scheduled.instant, .action, order, Item(line: line, routine: nil)))
        }
        for (order, entry) in record.log.enumerated() {
            keyed.append((entry.instant, .log, order, item(entry)))
        }
        for (order, stamped) in record.engineEvents.enumerated() {
            keyed.append((stamped.instant, .engine, order, item(stamped)))
        }
        for (order, violation) in violations.enumerated() {
            let line = Line(
                marker: .violation, instant: violation.instant, actor: violation.invariant,
                text: violation.explanation)
            keyed.append((violation.instant, .violation, order, Item(line: line, routine: nil)))
        }
        keyed.sort {
            ($0.instant, $0.rank.rawValue, $0.order) < ($1.instant, $1.rank.rawValue, $1.order)
        }
        return keyed.map(\.item)
    }

    private static func item(_ entry: AppLogEntry) -> Item {
        let marker: Marker
        var routine: RoutineKind?
        switch entry.kind {
        case .launch: marker = .launch
        case .killed, .crashed: marker = .termination
        case .dropped, .commitLost, .savedRecordChangeLost, .uncommittedRowsLost: marker = .loss
        case .location(let update):
            marker = .none
            routine = update.fix == nil ? .other : .fixDelivered
        case .commitDurable: (marker, routine) = (.none, .rowsStored)
        case .uploadCompleted: (marker, routine) = (.none, .uploadCompleted)
        case .didCommit, .savedRecordWritten, .timerFired, .sessionDiagnostic,
            .backgroundTaskExpiring:
            (marker, routine) = (.none, .other)
        default: marker = .none
        }
        let line = Line(
            marker: marker, instant: entry.instant, actor: "process \(entry.generation)",
            text: "\(entry.kind)")
        return Item(line: line, routine: routine, generation: entry.generation)
    }

    private static func item(_ stamped: StampedEngineEvent) -> Item {
        let routine: RoutineKind? =
            switch stamped.event {
            case .fixAccepted: .fixAccepted
            case .fixRejected: .fixRejected
            case .runtime(.sessionDiagnostic): .other
            default: nil
            }
        let line = Line(
            marker: .none, instant: stamped.instant, actor: "engine \(stamped.generation)",
            text: "\(stamped.event)")
        return Item(line: line, routine: routine, generation: stamped.generation)
    }

    // MARK: - Compact

    /// Keeps every line that is not routine, and the first rejected fix of each process (its
    /// reason is often why the app lost what followed, such as a wake-up fix judged too old),
    /// and folds each run of other routine lines into one summary line (a run of one stays as
    /// it is).
    private static func compact(_ items: [Item]) -> [Line] {
        var lines: [Line] = []
        var run: [Item] = []
        var rejectionShown: Set<Int> = []  // lookups only
        func flush() {
            if run.count == 1 { lines.append(run[0].line) }
            if run.count > 1 { lines.append(summary(run)) }
            run.removeAll()
        }
        for item in items {
            if item.routine == .fixRejected, let generation = item.generation,
                rejectionShown.insert(generation).inserted
            {
                flush()
                lines.append(item.line)
            } else if item.routine != nil {
                run.append(item)
            } else {
                flush()
                lines.append(item.line)
            }
        }
        flush()
        return lines
    }

    private static func summary(_ run: [Item]) -> Line {
        var counts = Array(repeating: 0, count: RoutineKind.allCases.count)
        for item in run { if let kind = item.routine { counts[kind.rawValue] += 1 } }
        let parts = RoutineKind.allCases.filter { counts[$0.rawValue] > 0 }.map {
            "\(counts[$0.rawValue]) \($0.noun)"
        }
        let generations = run.compactMap(\.generation)
        let actor =
            generations.allSatisfy({ $0 == generations.first }) && !generations.isEmpty
            ? "process \(generations[0])" : "app"
        let last = run[run.count - 1].line.instant
        return Line(
            marker: .summary, instant: run[0].line.instant, actor: actor,
            text: "… \(parts.joined(separator: ", ")) … until \(TimeText.clock(last))")
    }
}
