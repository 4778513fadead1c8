// Invariants as values (layer 5): a name, a one-sentence summary and a check over a finished
// run; the violations they find, in plain words with virtual times; the built-in list.
import Simulation

/// A property every run of a correct engine must have, checked over a finished run
/// (`RunRecord`): the trace, the app's log and the final state of the disk and the server.
///
/// The built-in ones (`builtIn`) follow the project's design list. Each blames the engine
/// only for losses iOS would not cause: whatever the world loses under an iOS rule carries a
/// `DropReason` naming that rule (a `dropped`, `commitLost` or `savedRecordChangeLost` entry)
/// and is never a violation. A team's own invariant plugs in the same way:
///
///     let noRejections = Invariant(
///         name: "no-rejections", summary: "The engine rejects no fix."
///     ) { record in
///         record.engineEvents.compactMap { stamped in
///             guard case .fixRejected(let fix, let reason) = stamped.event else { return nil }
///             return Violation(
///                 invariant: "no-rejections", instant: stamped.instant,
///                 explanation: "fix at \(TimeText.clock(fix.instant)) was rejected: \(reason)")
///         }
///     }
public struct Invariant: Sendable {
    /// A kebab-case identifier, stable across versions (corpus entries name it).
    public var name: String
    /// One sentence saying what holds.
    public var summary: String
    /// Every violation in the run, in time order; empty when the invariant holds.
    public var check: @Sendable (RunRecord) -> [Violation]
    /// Whether it is a rule every app must keep or advice (guidance whose breach loses nothing
    /// by itself), which is reported as a warning unless a team opts in.
    public var severity: Severity

    public init(
        name: String, summary: String, severity: Severity = .rule,
        check: @escaping @Sendable (RunRecord) -> [Violation]
    ) {
        precondition(!name.isEmpty, "an invariant has a name")
        self.name = name
        self.summary = summary
        self.severity = severity
        self.check = check
    }

    /// A rule every app must keep, or advice.
    public enum Severity: Sendable, Equatable {
        /// A breach loses data, restores nothing, uploads twice, gets the app killed for its
        /// own fault or ignores a configuration: a failure.
        case rule
        /// Guidance from one source whose breach loses nothing by itself: a warning naming its
        /// rule and source, a failure only when a team opts in (`--advice fail`).
        case advice(rule: String, source: String)
    }

    /// The built-in rules with their default parameters, in a fixed order: what every app
    /// must keep.
    public static var builtIn: [Invariant] {
        [
            .noFixLostAfterRestore(), .restoreExactlyWhatWasRunning, .foregroundRuleForSessions,
            .noCapabilityTrap, .configurationHonoured, .uploadedOnce(), .boundedGaps(),
            .causality, .noWatchdogKill, .uploadedInOrder,
        ]
    }

    /// The built-in advice, in a fixed order: reported as warnings.
    public static var advice: [Invariant] {
        [.noServiceBeforeAuthorization]
    }

    /// The built-in invariant or advice called `name`, if there is one.
    public static func builtIn(named name: String) -> Invariant? {
        (builtIn + advice).first { $0.name == name }
    }
}

/// One way a run broke an invariant: when, and why in plain words with virtual times
/// (`TimeText.clock`), e.g. "fix at 00:14:03.000 was delivered to process 3 and never stored:
/// process 3 was killed at 00:14:03.400 during its commit".
public struct Violation: Sendable, Equatable, CustomStringConvertible {
    /// The name of the invariant broken.
    public var invariant: String
    /// When it broke (the instant the explanation starts from).
    public var instant: Instant
    public var explanation: String

    public init(invariant: String, instant: Instant, explanation: String) {
        self.invariant = invariant
        self.instant = instant
        self.explanation = explanation
    }

    public var description: String {
        "\(TimeText.clock(instant)) \(invariant): \(explanation)"
    }
}

extension [Violation] {
    /// In time order, ties kept in the order found.
    func sortedByInstant() -> [Violation] {
        enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }
            .map(\.element)
    }
}

extension RunRecord {
    /// What `invariants` find in this run, each invariant's violations in time order, the
    /// invariants in the order given.
    public func violations(of invariants: [Invariant] = Invariant.builtIn) -> [Violation] {
        invariants.flatMap { $0.check(self) }
    }
}
