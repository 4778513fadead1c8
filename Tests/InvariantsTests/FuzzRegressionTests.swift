// Scenarios the fuzzer shrank on a correct built-in engine, pinned as tests: each ran into a
// real bug (fixed in the engine) and must now break no invariant.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Fuzz regressions on the correct engines")
struct FuzzRegressionTests {
    @Test(
        "R-A13: standard engine, authorization not determined, opened and swiped away at 0 s: nothing starts (lifeline fuzz --engine standard --seed 3)"
    )
    func standardUndeterminedSwipe() {
        let route = Route(
            start: BuiltInEngine.hostHome, headingDegrees: 90,
            segments: [.init(.park, .minutes(1))])
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .measured, authorization: .notDetermined, route: route),
            actions: [ScheduledAction(.start, .open), ScheduledAction(.start, .forceQuit)],
            horizon: .start + .minutes(11), launchRules: LaunchRules(),
            engine: { BuiltInEngine.standard.make(launchRules: LaunchRules()) })
        #expect(record.processes.count == 1)
        let told = record.events(of: 1).map(\.event)
        #expect(told == [.started, .permissionMissing(.notDetermined)])
        #expect(record.violations().isEmpty, "\(record.violations())")
    }
}
