// What the explain phase found about a shrunk failure (layer 5): how far each event can move
// and which settings do not matter, and the text `lifeline fuzz` prints for it.
import Invariants
import Scenarios
import Simulation

/// Which parts of a shrunk failing scenario matter, as far as probing found (Hypothesis's
/// explain phase, for a scenario's events and settings instead of a test's arguments).
///
/// - An event's window is the contiguous interval around its time, in steps of
///   `Fuzzer.explainStep`, over which moving that event alone (the others fixed, the events
///   kept in time order) still breaks the same invariant. It is found by probing (doubling
///   steps outward, then bisection), not proved: a probe skipped over inside the window may
///   pass. Each end is exact when the probe one step beyond it passed (or broke only other
///   invariants), or when the end is the scenario's start or horizon.
/// - A free setting is a discrete setting of the scenario (`DiscreteSetting.all`) under which
///   every alternative tried still breaks the invariant: "could be anything". Settings with a
///   large domain (the seeds) are tried on a fixed sample of alternatives.
///
/// The runs are bounded (`FuzzSettings.explainRunMax`); a budget that runs out leaves the
/// remaining events without a window and the remaining settings out of `freeSettings`, and
/// says so (`isBudgetSpent`).
///
///     Explained (24 runs):
///       00:01:00 force-quit: anywhere from 00:00:40 to 00:07:45
///       00:02:00 open: only at 00:02:00
///       could be anything: startOnBoot, seed
public struct FailureExplanation: Sendable, Equatable, CustomStringConvertible {
    /// How far one event of the scenario can move while the scenario still fails.
    public struct EventWindow: Sendable, Equatable {
        /// The event's index in the scenario's `events`.
        public var index: Int
        /// The event as the scenario has it.
        public var event: TimedEvent
        /// The earliest time found at which the scenario still fails (at or before `event.at`).
        public var earliest: VirtualDuration
        /// The latest time found at which it still fails (at or after `event.at`).
        public var latest: VirtualDuration
        /// `earliest` is the start, or one step before it the scenario passed.
        public var isEarliestExact: Bool
        /// `latest` is the horizon, or one step after it the scenario passed.
        public var isLatestExact: Bool
        /// The window is the whole run: from the start to the horizon.
        public var isAnywhere: Bool

        public init(
            index: Int, event: TimedEvent, earliest: VirtualDuration,
            latest: VirtualDuration, isEarliestExact: Bool, isLatestExact: Bool,
            isAnywhere: Bool
        ) {
            precondition(earliest <= event.at, "the window starts at or before the event")
            precondition(latest >= event.at, "the window ends at or after the event")
            self.index = index
            self.event = event
            self.earliest = earliest
            self.latest = latest
            self.isEarliestExact = isEarliestExact
            self.isLatestExact = isLatestExact
            self.isAnywhere = isAnywhere
        }

        /// The window in words: `anywhere`, `only at 00:02:00`, `anywhere from … to …`.
        public var text: String {
            let span: String
            if isAnywhere {
                span = "anywhere"
            } else if earliest == latest {
                span = "only at \(FailureExplanation.clock(earliest))"
            } else {
                span =
                    "anywhere from \(FailureExplanation.clock(earliest)) to "
                    + FailureExplanation.clock(latest)
            }
            let exact = isEarliestExact && isLatestExact
            return span + (exact ? "" : " (or wider: the probe budget ran out)")
        }
    }

    /// A window for each event probed, in the scenario's order.
    public var eventWindows: [EventWindow]
    /// The settings that could take any value, named as the scenario's text format names
    /// them (`DiscreteSetting.all`'s order).
    public var freeSettings: [String]
    /// Scenario runs spent explaining.
    public var runs: Int
    /// The run budget ran out before every event and setting was probed.
    public var isBudgetSpent: Bool

    public init(
        eventWindows: [EventWindow], freeSettings: [String], runs: Int, isBudgetSpent: Bool
    ) {
        precondition(runs >= 0, "a count of runs is not negative")
        self.eventWindows = eventWindows
        self.freeSettings = freeSettings
        self.runs = runs
        self.isBudgetSpent = isBudgetSpent
    }

    /// The explanation as indented lines under a heading.
    public var lines: [String] {
        var lines = ["Explained (\(PlainText.counted(runs, "run"))):"]
        lines += eventWindows.map { window in
            "  \(Self.clock(window.event.at)) \(window.event.event): \(window.text)"
        }
        lines += Self.wrapped(
            "  could be anything: ",
            freeSettings.isEmpty ? ["no setting tried"] : freeSettings)
        if isBudgetSpent {
            lines.append("  (the explain budget ran out: the rest was not probed)")
        }
        return lines
    }

    public var description: String { lines.joined(separator: "\n") }

    /// The widest line `lines` writes a list into.
    static let lineWidthMax = 100

    /// `words` after `heading`, comma-separated, wrapped under the list's first column so that
    /// no line passes `lineWidthMax` (a single longer word keeps a line of its own).
    static func wrapped(_ heading: String, _ words: [String]) -> [String] {
        let indentation = String(repeating: " ", count: heading.count)
        var lines: [String] = []
        var line = heading
        for (index, word) in words.enumerated() {
            let item = word + (index < words.count - 1 ? "," : "")
            if line.count > heading.count, line.count + 1 + item.count > lineWidthMax {
                lines.append(line)
                line = indentation + item
            } else {
                line += (line.count > heading.count ? " " : "") + item
            }
        }
        return lines + [line]
    }

    /// `HH:MM:SS` from the start, with milliseconds only when there are some.
    static func clock(_ offset: VirtualDuration) -> String {
        let text = TimeText.duration(offset)
        return text.hasSuffix(".000") ? String(text.dropLast(4)) : text
    }
}
