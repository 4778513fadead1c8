// How a crash or a hang is told (`CrashFinding.violation`): who is blamed (the engine when one
// of its callbacks was running, Lifeline's model otherwise), the signal, the runtime's message
// and the last deliveries, and which invariant a worker's outcome breaks.
import Engines
import Foundation
import Fuzzing
import Scenarios
import Simulation
import Testing

@Suite("Crash findings")
struct CrashFindingTests {
    static var worker: CaseWorker {
        CaseWorker(
            executable: "/nonexistent", arguments: [], caseTimeoutSeconds: 3)
    }

    static func run(inEngine: Bool) -> CaseWorker.Run {
        var run = CaseWorker.Run(outcome: .died(.signalled(SIGTRAP)))
        run.inEngineCallback = inEngine
        run.message = "Fatal error: Index out of range"
        run.traceTail = [(Instant.start + .seconds(1), "1 process 1 foreground")]
        return run
    }

    @Test("a trap inside an engine callback blames the engine, with the signal and the tail")
    func blamesTheEngine() {
        let violation = CrashFinding.violation(
            Self.run(inEngine: true), invariant: FuzzFailure.crashInvariant,
            scenario: Scenario(), worker: Self.worker)
        #expect(violation.invariant == "no-crash")
        #expect(violation.instant == .start + .seconds(1))
        #expect(violation.explanation.hasPrefix("the engine 'session', in one of its callbacks,"))
        #expect(violation.explanation.contains("SIGTRAP"))
        #expect(violation.explanation.contains("it said: Fatal error: Index out of range"))
        #expect(violation.explanation.contains("00:00:01.000  1 process 1 foreground"))
    }

    @Test("a trap outside every engine callback names Lifeline's model, not the engine")
    func blamesLifeline() {
        let violation = CrashFinding.violation(
            Self.run(inEngine: false), invariant: FuzzFailure.crashInvariant,
            scenario: Scenario(), worker: Self.worker)
        #expect(violation.explanation.hasPrefix("Lifeline's model (no callback of the engine"))
    }

    @Test("a death is no-crash, a hang no-hang, a run to the end neither")
    func invariants() {
        #expect(CrashFinding.invariant(of: .died(.signalled(SIGSEGV))) == "no-crash")
        #expect(CrashFinding.invariant(of: .died(.exited(3))) == "no-crash")
        #expect(CrashFinding.invariant(of: .hung) == "no-hang")
        #expect(CrashFinding.invariant(of: .completed) == nil)
    }

    @Test("a worker that cannot be started is unavailable, never a crash")
    func unavailable() {
        let outcome = Self.worker.run(Scenario()).outcome
        guard case .unavailable = outcome else {
            Issue.record("expected unavailable, got \(outcome)")
            return
        }
    }
}
