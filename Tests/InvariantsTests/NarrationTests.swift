// A run that does not keep its engines' narration (`RunRecord.run(keepsNarration: false)`, as the
// fuzzer and `bench drive` run) holds no engine events, and is judged and traced exactly as the
// same run told.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Narration kept only when asked")
struct NarrationTests {
    static func record(_ engine: BuiltInEngine, keepsNarration: Bool) -> RunRecord {
        let plan = MatrixRuns.matrix.plan(.memoryKill)
        let startOnBoot = MatrixRuns.matrix.startOnBoot
        return RunRecord.run(
            configuration: MatrixRuns.configuration(plan),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: MatrixRuns.horizon(plan), launchRules: MatrixRuns.launchRules(engine),
            keepsTrace: true, keepsNarration: keepsNarration,
            engine: { engine.make(startOnBoot: startOnBoot) })
    }

    @Test(
        "without narration the engines keep no events; the trace and verdicts are the same",
        arguments: BuiltInEngine.allCases)
    func silentRunIsTheSameRun(_ engine: BuiltInEngine) {
        let told = Self.record(engine, keepsNarration: true)
        let silent = Self.record(engine, keepsNarration: false)
        #expect(told.engineEvents.count > 10, "the told run narrates")
        #expect(silent.engineEvents.count == 0, "no stamped events")
        #expect(silent.engines.allSatisfy { $0.events.isEmpty })
        #expect(silent.engines.count == told.engines.count, "the same launches")
        #expect(silent.trace?.hash.value == told.trace?.hash.value)
        #expect(silent.storedRows == told.storedRows)
        #expect(silent.server.acceptedRows == told.server.acceptedRows)
        for invariant in Invariant.builtIn + Invariant.advice {
            #expect(
                silent.violations(of: [invariant]).map(\.description)
                    == told.violations(of: [invariant]).map(\.description), "\(invariant.name)")
        }
    }
}
