// A loop in Lifeline's own model met by a generated case (layer 5): the search stops with
// Lifeline's error and the scenario that shows it, never a verdict on the app.
import Scenarios
import World

/// `ModelLoop`, with the generated case that fell into it: the fuzz run ends with this error
/// (exit 70 from the command line, Lifeline's own error), and the scenario, printed in full, is what to report.
public struct ModelLoopFinding: Error, CustomStringConvertible {
    public var loop: ModelLoop
    public var caseIndex: Int
    public var scenario: Scenario

    public var description: String {
        "\(loop)\nCase \(caseIndex)'s scenario, to report:\n\(scenario)"
    }
}
