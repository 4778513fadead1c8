// What `lifeline sweep` and `lifeline diff` run (layer 5): an engine on a scenario, or an
// engine or one of source A's probes on source A's background experiment, under a policy.
import Engines
import Experiments
import Exploration
import Fuzzing
import Invariants
import Scenarios
import Simulation
import World

/// Who runs in a sweep or a diff: an engine by name, or one of source A's four background
/// probes (`BackgroundExperiment.Probe`, run through `ProbeEngine`).
package enum SweepSubject: Sendable, Hashable, CustomStringConvertible {
    case engine(EngineChoice)
    case probe(BackgroundExperiment.Probe)

    /// The engine's name, or `probe-` and the probe's (`probe-plain`, `probe-live-session`).
    package var name: String {
        switch self {
        case .engine(let engine): engine.name
        case .probe(let probe): "probe-" + probe.rawValue
        }
    }

    package var description: String { name }

    /// The four probes, in the article's order.
    package static var probes: [SweepSubject] {
        BackgroundExperiment.Probe.allCases.map(SweepSubject.probe)
    }

    /// A new engine with default launch rules: the factory a world calls at every launch.
    func make() -> any TrackingEngine {
        switch self {
        case .engine(let engine): engine.make()
        case .probe(let probe): ProbeEngine(probe)
        }
    }

    /// The launch rules the `configuration-honoured` invariant checks; nil for an engine
    /// without them, or a probe.
    var launchRules: LaunchRules? {
        guard case .engine(let engine) = self, engine.honoursLaunchRules else { return nil }
        return LaunchRules()
    }
}

/// One run of a sweep or a diff, before its policy is decided.
package enum SweepRun: Sendable {
    /// A scenario (its engine is the subject).
    case scenario(Scenario)
    /// Source A's background experiment for the subject: When In Use, a drive at 20 m/s, the
    /// test host attached, left 2 s after the open, counted for 20 s (`BackgroundExperiment`),
    /// under the `measured` policy unless changed.
    case backgroundExperiment(SweepSubject)

    /// What the run is called in a diff's list: the scenario's name, or the experiment's.
    func name(scenarioName: String) -> String {
        switch self {
        case .scenario: scenarioName
        case .backgroundExperiment: "background-experiment"
        }
    }

    /// The policy the run has before any change: the scenario's, or `measured`.
    /// - Throws: `PolicyFileError` when the scenario's policy cannot be made.
    package func basePolicy() throws -> IOSPolicy {
        switch self {
        case .scenario(let scenario): try scenario.policy.makePolicy()
        case .backgroundExperiment: .measured
        }
    }

    /// Runs under `policy` and records the run, with its full trace when `keepsTrace` is set
    /// and its engines' narration unless `keepsNarration` is false.
    /// - Throws: `GPXError` for a scenario's bad GPX route.
    package func record(policy: IOSPolicy, keepsTrace: Bool = false, keepsNarration: Bool = true)
        throws -> RunRecord
    {
        switch self {
        case .scenario(let scenario):
            return try scenario.record(
                policy: policy, keepsTrace: keepsTrace, keepsNarration: keepsNarration)
        case .backgroundExperiment(let subject):
            var experiment = BackgroundExperiment()
            experiment.policy = policy
            let plan = experiment.plan
            return RunRecord.run(
                configuration: plan.configuration,
                actions: plan.actions.map { ScheduledAction($0.instant, $0.action) },
                horizon: plan.end, launchRules: subject.launchRules, keepsTrace: keepsTrace,
                keepsNarration: keepsNarration, engine: subject.make)
        }
    }

    /// The runs of `subject` on `scenarios`: each scenario with its engine replaced by the
    /// subject's (its settings kept). A probe runs no scenario: it has only the experiment.
    package static func runs(of subject: SweepSubject, on scenarios: [Scenario]) -> [SweepRun] {
        guard case .engine(let engine) = subject else { return [] }
        return scenarios.map { scenario in
            var scenario = scenario
            scenario.engine.name = engine
            return .scenario(scenario)
        }
    }

    /// The runs of `engine` on `count` generated scenarios, with their case indices: the
    /// fuzzer's cases 0, 1, … of `seed` (`lifeline fuzz --seed`), the invalid ones skipped, so
    /// the same for any value a sweep gives the policy.
    package static func generated(for engine: EngineChoice, count: Int, seed: UInt64)
        -> [(caseIndex: Int, run: SweepRun)]
    {
        precondition(count >= 0, "a count is not negative")
        let generator = ScenarioGenerator(engine: engine).scenarios
        var runs: [(caseIndex: Int, run: SweepRun)] = []
        var caseIndex = 0
        // Bounded: the generator rejects few cases; ten tries per scenario is plenty.
        while runs.count < count && caseIndex < 10 * count {
            let testCase = TestCase(
                seed: Seed(seed).derive(UInt64(caseIndex)).value,
                choiceCountMax: Fuzzer.choiceCountMax)
            let scenario = generator.generate(testCase)
            if testCase.status == .valid { runs.append((caseIndex, .scenario(scenario))) }
            caseIndex += 1
        }
        return runs
    }
}
