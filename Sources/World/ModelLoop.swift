// A loop in Lifeline's own model (layer 3): the system beginning the same work at one instant
// over and over. The run stops and the case ends with this error, naming the rule the model
// followed; it is never a verdict on the app.
import Simulation

/// A loop in the modelled iOS, not in the app: the operating system began the same kind of
/// wake more than `repeatsMax` times at one instant (R-H1, R-H4, R-H6, R-H10), so virtual time
/// would never move on. The world stops the run there (`World.modelLoop`), and every command
/// reports it as Lifeline's error, naming the rule, instead of judging the app
/// (`no-hang` is for the app's own code). `repeatsMax` is not a policy number: no iOS rule
/// begins a wake twice at one instant, and a thousand is far above any correct run.
public struct ModelLoop: Error, Sendable, Equatable, CustomStringConvertible {
    /// What repeated, in words ("app refresh refresh began").
    public var what: String
    /// The rule the model followed each time.
    public var rule: String
    /// The instant it repeated at.
    public var instant: Instant
    /// How many times it repeated before the run stopped.
    public var count: Int

    /// Repeats at one instant above which the model is looping.
    package static let repeatsMax = 1_000

    public var description: String {
        "Lifeline's model looped (not the app's fault): \(what) \(count) times at "
            + "\(instant) without time moving on (\(rule)); the run was stopped there. Please "
            + "report it with this scenario."
    }
}

/// Counts the repeats of one kind of system work at one instant, and says when they are a
/// `ModelLoop`.
struct ModelLoopGuard {
    private var instant: Instant?
    private var what = ""
    private var count = 0

    /// Notes that the system began `what` (following `rule`) at `instant`; returns the loop
    /// once it has repeated more than `ModelLoop.repeatsMax` times there.
    mutating func note(_ what: String, rule: String, at instant: Instant) -> ModelLoop? {
        if instant == self.instant && what == self.what {
            count += 1
        } else {
            self.instant = instant
            self.what = what
            count = 1
        }
        guard count > ModelLoop.repeatsMax else { return nil }
        return ModelLoop(what: what, rule: rule, instant: instant, count: count)
    }
}
