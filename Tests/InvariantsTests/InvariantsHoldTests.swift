// Every built-in invariant holds on the correct built-in engines (the session engine and
// LocationRuntime) across the five scenarios of source B's lifecycle matrix, and the checks are
// not vacuous there: the runs relaunch, resume, store and upload.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Invariants hold on correct engines")
struct InvariantsHoldTests {
    static let cases: [(BuiltInEngine, LifecycleMatrix.Scenario)] = MatrixRuns.engines.flatMap {
        engine in LifecycleMatrix.Scenario.allCases.map { (engine, $0) }
    }

    @Test("every built-in invariant holds", arguments: cases)
    func everyInvariantHolds(_ engine: BuiltInEngine, _ scenario: LifecycleMatrix.Scenario) {
        let record = MatrixRuns.record(engine, scenario)
        for invariant in Invariant.builtIn {
            let violations = invariant.check(record)
            #expect(
                violations.isEmpty,
                "\(invariant.name) on \(engine) \(scenario): \(violations.map(\.description))")
        }
    }

    @Test("the runs exercise what the invariants read", arguments: MatrixRuns.engines)
    func runsAreNotVacuous(_ engine: BuiltInEngine) {
        let killed = MatrixRuns.record(engine, .memoryKill)
        #expect(killed.engines.count == 2, "a memory kill is followed by a relaunch")
        #expect(killed.processes.count == killed.engines.count, "one engine per launch")
        #expect(
            killed.events(of: 2).contains { if case .resumed = $0.event { true } else { false } },
            "the relaunched engine resumes")
        #expect(!killed.storedFixes.isEmpty)
        #expect(killed.storedFixes.allSatisfy { $0.generation != nil }, "every row has an owner")
        #expect(!killed.server.acceptedRows.isEmpty)
    }

    @Test("the built-in list has ten rules and one advice, distinct kebab-case names, in order")
    func builtInList() {
        let names = Invariant.builtIn.map(\.name)
        #expect(
            names == [
                "no-fix-lost-after-restore", "restore-exactly-what-was-running",
                "foreground-rule-for-sessions", "no-capability-trap", "configuration-honoured",
                "uploaded-once", "bounded-gaps", "causality", "no-watchdog-kill",
                "uploaded-in-order",
            ])
        #expect(Invariant.builtIn.allSatisfy { $0.severity == .rule })
        #expect(Invariant.advice.map(\.name) == ["no-service-before-authorization"])
        if case .advice(let rule, let source) = Invariant.advice.first?.severity {
            #expect(rule == "R-A13")
            #expect(source.contains("source A"))
        } else {
            Issue.record("the advice names its rule and source")
        }
        #expect(Invariant.builtIn(named: "bounded-gaps")?.name == "bounded-gaps")
        #expect(Invariant.builtIn(named: "nothing") == nil)
    }
}
