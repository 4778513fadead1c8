// A failure as a person reads it (layer 5): what broke, the shrunk scenario and its timeline.
// `lifeline fuzz` prints it; the Swift Testing entry point records it as an issue.
import Invariants
import Scenarios
import Simulation

extension FuzzFailure {
    /// The failure's story: the invariant and how far the scenario shrank, every violation in
    /// plain words, what the explain phase found, the shrunk scenario in the text format, and
    /// its compact timeline with the violations marked (none for `no-crash` and `no-hang`,
    /// whose violation carries the last deliveries instead). The command that replays it is
    /// the caller's to add: it differs
    /// between the tool and a test.
    public var story: String {
        var lines = [
            "FAIL \(scenario.engine.name.name): \(invariant)"
                + (originalEventCount > scenario.events.count
                    ? " (shrunk from \(originalEventCount) to \(scenario.events.count) events "
                        + "in \(PlainText.counted(shrinkRuns, "run")))"
                    : "")
                + (isShrinkInterrupted
                    ? " (Ctrl-C ended the shrinking: the simplest failure found by then, "
                        + "not explained)" : ""),
            "",
        ]
        lines += violations.map { "  \($0)" }
        lines.append("")
        if let explanation {
            lines += explanation.lines
            lines.append("")
        }
        lines.append(scenario.description)
        // A crash or a hang is not run again here: it would end or stall this process.
        if !isProcessFailure, let record = try? scenario.record() {
            lines.append(Timeline(record, violations: violations, mode: .compact).text)
        }
        return lines.joined(separator: "\n")
    }
}
