// How the LifelineKit tests show that the fuzzer finds a planted mistake: the search of
// `fuzzLifecycle` (seed 1, the profile's invariants) with the shrink bounded and no
// explanation. A case of an app on LifelineKit costs about a second of a debug build, so the
// default shrink (3,000 runs) and explanation (400) would cost minutes a test.
import Engines
import Fuzzing
import Invariants

/// The runs a planted mistake's shrink may spend: enough to shorten its story, not to finish.
let plantedMistakeShrinkRunsMax = 30

/// The fuzzer's report on `engine` over at most `cases` cases of seed 1: its first failure, if
/// any, shrunk within `plantedMistakeShrinkRunsMax` runs and not explained. No issue is
/// recorded: the test asserts on the failure itself.
func plantedMistakeSearch(
    _ engine: CustomEngine, checking invariants: [Invariant] = Invariant.builtIn, cases: Int
) throws -> FuzzReport {
    var settings = FuzzSettings(engine: .custom(engine))
    settings.seed = 1
    settings.caseCount = cases
    settings.invariants = InvariantSelection().applied(
        to: invariants, profile: settings.generator.profile)
    settings.replaysProcessFailures = false
    settings.shrinkEvaluationMax = plantedMistakeShrinkRunsMax
    settings.explainRunMax = 0
    return try Fuzzer.fuzz(settings)
}
