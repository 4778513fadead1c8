// The Swift Testing entry point of the exploration engine: run a property inside `@Test`,
// record an issue with the shrunk value and the replay command when it fails.
import Exploration
import Foundation
import Simulation
import Testing

/// Runs `property` over values of `generator` inside a Swift Testing test.
///
/// On failure it records one issue holding the property's message, the shrunk value, the seed,
/// the replay token and the one-line command that replays it. Environment variables steer it
/// without code changes:
/// - `LIFELINE_SEED=<n>`: the seed (default: derived from the test's name, so CI is repeatable);
/// - `LIFELINE_CASES=<n>`: how many cases (so CI can run more than a developer does);
/// - `LIFELINE_REPLAY=<token>`: replay one failing value instead of exploring.
///
///     @Test func reverseTwiceIsIdentity() {
///         propertyCheck(in: Self.self, Gen.array(of: Gen<Int>.int)) { list in
///             try check(Array(list.reversed().reversed()) == list)
///         }
///     }
///
/// - Parameters:
///   - suite: the test's suite type, to build the `--filter` of the replay command.
///   - corpus: a corpus folder; its saved cases for this property are replayed first, and a
///     new failure is saved there.
/// - Returns: the result, for tests that assert on the failure itself.
@discardableResult
package func propertyCheck<Value>(
    in suite: Any.Type, function: String = #function, _ generator: Gen<Value>,
    cases: Int = 100, seed: UInt64? = nil, corpus: String? = nil,
    describe: @escaping (Value) -> String = { String(describing: $0) },
    sourceLocation: SourceLocation = #_sourceLocation,
    _ property: @escaping (Value) throws -> Void
) -> ExplorationResult<Value>? {
    let testID = "\(suite)/\(function.prefix { $0 != "(" })"
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["LIFELINE_REPLAY"] {
        replayForTest(
            text, generator, testID: testID, describe: describe, sourceLocation: sourceLocation,
            property)
        return nil
    }
    let chosenSeed =
        environment["LIFELINE_SEED"].flatMap(UInt64.init) ?? seed ?? defaultSeed(for: testID)
    let caseCount = environment["LIFELINE_CASES"].flatMap(Int.init) ?? cases
    let propertyCorpus = corpus.map { PropertyCorpus(root: $0, property: testID) }
    let result = Explorer.explore(
        generator, settings: ExplorationSettings(seed: chosenSeed, caseCount: caseCount),
        corpus: propertyCorpus, describe: describe, property: property)
    for problem in result.corpusProblems {
        Issue.record("corpus: \(problem)", sourceLocation: sourceLocation)
    }
    switch result.status {
    case .passed:
        break
    case .gaveUp(let reason):
        Issue.record(
            "\(testID) gave up: \(reason)\nseed: \(chosenSeed)", sourceLocation: sourceLocation)
    case .failed(let failure):
        Issue.record(
            Comment(rawValue: failureReport(failure, seed: chosenSeed, testID: testID)),
            sourceLocation: sourceLocation)
    }
    return result
}

/// The report of a failure: message, shrunk value, seed, counts and replay command, and
/// whether shrinking stopped at its budget rather than at a fixed point.
package func failureReport<Value>(
    _ failure: ExplorationFailure<Value>, seed: UInt64, testID: String
)
    -> String
{
    let budgetNote =
        failure.shrinkBudgetExhausted
        ? "\nshrinking stopped at its budget (ExplorationSettings.shrinkEvaluationMax): the value "
            + "is the simplest failing one found, perhaps not a minimum"
        : ""
    return """
        property failed: \(failure.message)
        shrunk value: \(failure.valueDescription)
        seed: \(seed) (\(failure.originalChoices.count) choices shrunk to \(failure.shrunkChoices.count) \
        in \(failure.shrinkSteps) steps, \(failure.shrinkEvaluations) evaluations)\(budgetNote)
        replay: LIFELINE_REPLAY=\(failure.replayToken) swift test --filter '\(testID)'
        """
}

/// The seed a test uses when none is given: FNV-1a of its identifier, the same everywhere.
func defaultSeed(for testID: String) -> UInt64 {
    var hash = FNV1a64()
    hash.combine(testID)
    return hash.value
}

private func replayForTest<Value>(
    _ text: String, _ generator: Gen<Value>, testID: String, describe: @escaping (Value) -> String,
    sourceLocation: SourceLocation, _ property: @escaping (Value) throws -> Void
) {
    do {
        let token = try ReplayToken(parsing: text)
        let replay = Explorer.replay(token, generator, describe: describe, property: property)
        if let failure = replay.failure {
            Issue.record(
                "replayed value fails: \(failure)\nvalue: \(replay.description)",
                sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("LIFELINE_REPLAY: \(error)", sourceLocation: sourceLocation)
    }
}
