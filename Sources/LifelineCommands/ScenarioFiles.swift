// Scenario files and corpus entries read and run for `lifeline run` and `lifeline replay`
// (the CLI layer), every problem turned into an `InputError` that names the file and line.
import Engines
import Fuzzing
import Invariants
import Scenarios
import World

/// Reading a scenario or a corpus entry from disk and running it. A file that cannot be read,
/// a scenario that does not parse, a GPX route or a policy that cannot be made is an
/// `InputError` (exit 2, never a trap), worded by the layer that found it.
enum ScenarioFiles {
    /// The scenario file at `path`, which may name one of `engines`.
    /// - Throws: `InputError` naming `path:line:column` and what was expected there, or
    ///   `path` alone for a file that cannot be read.
    static func scenario(atPath path: String, engines: [CustomEngine] = []) throws -> Scenario {
        try InputLimit.scenarioFile.check(path)
        do {
            return try Scenario(contentsOfFile: path, engines: engines)
        } catch {
            throw InputError("\(error)")
        }
    }

    /// The corpus entry at `path` (`FuzzCorpus.entry(atPath:)`).
    /// - Throws: `InputError` for a file that is not a corpus entry, a newer corpus format, or
    ///   a scenario that does not parse.
    static func entry(atPath path: String, engines: [CustomEngine] = []) throws
        -> FuzzCorpus.Entry
    {
        try InputLimit.scenarioFile.check(path)
        do {
            return try FuzzCorpus.entry(atPath: path, engines: engines)
        } catch let problem as FuzzCorpus.Problem {
            throw InputError("\(problem)")
        }
    }

    /// Runs `scenario`, read from `path`, to its horizon and records it.
    /// - Throws: `InputError` when its GPX route or its policy cannot be made (the parser reads
    ///   both, so this happens only when a file changed since); `ModelLoop` when Lifeline's
    ///   own model looped.
    static func record(
        _ scenario: Scenario, path: String, keepsTrace: Bool = false, keepsNarration: Bool = true
    ) throws -> RunRecord {
        do {
            return try scenario.record(keepsTrace: keepsTrace, keepsNarration: keepsNarration)
        } catch let error as PolicyFileError {
            throw InputError("\(path): the policy cannot be made: \(error.message)")
        } catch let unreadable as UnreadableRow {
            throw InputError("\(path): \(unreadable)")
        } catch let loop as ModelLoop {
            // Lifeline's error, not the input's (exit 70).
            throw loop
        } catch {
            // A `GPXError`, which names the GPX file and its line.
            throw InputError("\(path): the route cannot be made: \(error)")
        }
    }
}
