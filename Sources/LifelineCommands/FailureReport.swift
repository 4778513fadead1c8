// How a failure is printed: the violations, what the explain phase found, the shrunk scenario,
// its timeline with the violations, and the command that replays it.
import Engines
import Fuzzing
import Invariants
import Scenarios

enum FailureReport {
    static func text(_ failure: FuzzFailure, engine: EngineChoice) -> String {
        var lines = [
            "FAIL \(engine.name): \(failure.invariant)"
                + (failure.originalEventCount > failure.scenario.events.count
                    ? " (shrunk from \(failure.originalEventCount) to "
                        + "\(failure.scenario.events.count) events in \(failure.shrinkRuns) runs)"
                    : ""),
            "",
        ]
        lines += failure.violations.map { "  \($0)" }
        lines.append("")
        if let explanation = failure.explanation {
            lines += explanation.lines
            lines.append("")
        }
        lines.append(failure.scenario.description)
        if let record = try? failure.scenario.record() {
            lines.append(Timeline(record, violations: failure.violations, mode: .compact).text)
        }
        if let path = failure.corpusPath {
            lines.append("")
            lines.append("replay: lifeline replay \(path)")
        }
        return lines.joined(separator: "\n")
    }
}
