// The runs the invariant tests share: LifecycleMatrix's five scenarios for each correct
// built-in engine, recorded once per test process.
import Engines
import Invariants
import Simulation
import World

/// One recorded run of a matrix scenario for an engine.
struct MatrixRun: Sendable {
    var engine: BuiltInEngine
    var scenario: LifecycleMatrix.Scenario
}

enum MatrixRuns {
    /// The matrix the tests run: the measured preset, source B's numbers.
    static let matrix = LifecycleMatrix(policy: .measured)

    /// The correct built-in engines the invariants must hold on.
    static let engines: [BuiltInEngine] = [.session, .locationRuntime]

    /// The launch rules a built-in engine runs with in the matrix (`LocationRuntime` has none).
    static func launchRules(_ engine: BuiltInEngine) -> LaunchRules? {
        engine == .locationRuntime ? nil : LaunchRules(startOnBoot: matrix.startOnBoot)
    }

    /// The world configuration of a matrix scenario.
    static func configuration(_ plan: LifecycleMatrix.Plan) -> WorldConfiguration {
        WorldConfiguration(
            policy: matrix.policy, authorization: .always, route: plan.route, seed: matrix.seed)
    }

    /// The horizon of a matrix scenario: its observation after fixes are wanted.
    static func horizon(_ plan: LifecycleMatrix.Plan) -> Instant {
        .start + plan.fixesWantedFrom + matrix.observedFor
    }

    /// Runs `scenario` for `engine` as the matrix does, recording everything.
    static func record(
        _ engine: BuiltInEngine, _ scenario: LifecycleMatrix.Scenario,
        make: (() -> any TrackingEngine)? = nil, launchRules: LaunchRules?? = nil
    ) -> RunRecord {
        let plan = matrix.plan(scenario)
        let startOnBoot = matrix.startOnBoot
        return RunRecord.run(
            configuration: configuration(plan),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: horizon(plan), launchRules: launchRules ?? Self.launchRules(engine),
            engine: make ?? { engine.make(startOnBoot: startOnBoot) })
    }
}

extension RunRecord {
    /// This record with its log, server or reader replaced, every other part shared: a run
    /// edited after the fact.
    func replacing(
        log: AppLog? = nil, server: UploadServer? = nil, reader: FixReader? = nil
    ) -> RunRecord {
        RunRecord(
            configuration: configuration, launchRules: launchRules, actions: actions,
            horizon: horizon, outcome: outcome, log: log ?? self.log, storedRows: storedRows,
            server: server ?? self.server, trace: trace, digest: digest, engines: engines,
            engineEvents: engineEvents, reader: reader ?? self.reader, trackingStart: trackingStart)
    }
}
