// How `lifeline fuzz` prints a failure: its story and the command that replays it.
import Engines
import Fuzzing

enum FailureReport {
    static func text(_ failure: FuzzFailure, engine: EngineChoice) -> String {
        failure.story + (failure.corpusPath.map { "\n\nreplay: lifeline replay \($0)" } ?? "")
    }
}
