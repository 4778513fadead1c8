// A crash or a hang as a finding (layer 5): a case whose worker process died of a signal or
// ran past its time is reported as a failure of `no-crash` or `no-hang`, shrunk by rerunning
// candidates in fresh workers, with the signal and the last deliveries before it.
import Engines
import Exploration
import Invariants
import Scenarios
import Simulation

extension FuzzFailure {
    /// The invariant of a case that ended its process: a signal (a trap, a bad access, an
    /// abort) in the engine or in Lifeline's model.
    package static let crashInvariant = "no-crash"
    /// The invariant of a case still running after the case timeout (a callback that never
    /// returns, or a model that loops).
    package static let hangInvariant = "no-hang"

    /// Whether the failure ended or stalled the process that ran it (`no-crash`, `no-hang`):
    /// its scenario must not be run in-process again.
    package var isProcessFailure: Bool { Self.isProcessInvariant(invariant) }

    /// Whether `invariant` is `no-crash` or `no-hang`.
    public static func isProcessInvariant(_ invariant: String) -> Bool {
        invariant == crashInvariant || invariant == hangInvariant
    }
}

/// Shrinking and describing a case that crashed or hung, through a `CaseWorker`.
package enum CrashFinding {
    /// Deliveries kept before the end, for the report.
    package static let traceTailCount = 12
    /// Candidates a crash's shrinking may run (each death costs a fresh worker process).
    package static let crashShrinkEvaluationMax = 600
    /// Candidates a hang's shrinking may run (each hang costs the case timeout).
    package static let hangShrinkEvaluationMax = 6

    /// The invariant that `outcome` breaks: `no-crash` for a death, `no-hang` for a hang, nil
    /// otherwise.
    package static func invariant(of outcome: CaseWorker.Outcome) -> String? {
        switch outcome {
        case .died: FuzzFailure.crashInvariant
        case .hung: FuzzFailure.hangInvariant
        case .completed, .unavailable: nil
        }
    }

    /// The failure of a generated case (its `choices`, for `generator`) that crashed or hung
    /// (`invariant`): shrunk to the simplest scenario that still does so in `worker`, then run
    /// once more for its last deliveries.
    package static func failure(
        choices: [UInt64], invariant: String, generator: Gen<Scenario>, worker: CaseWorker,
        caseIndex: Int
    ) -> FuzzFailure {
        let testCase = TestCase(prefix: choices, choiceCountMax: Fuzzer.choiceCountMax)
        let original = generator.generate(testCase)
        let evaluationMax =
            invariant == FuzzFailure.hangInvariant
            ? hangShrinkEvaluationMax : crashShrinkEvaluationMax
        let shrinker = Shrinker(failing: testCase, evaluationMax: evaluationMax) { choices in
            let candidate = TestCase(prefix: choices, choiceCountMax: Fuzzer.choiceCountMax)
            let scenario = generator.generate(candidate)
            guard candidate.status == .valid else { return .invalid }
            let outcome = worker.run(scenario).outcome
            if case .unavailable = outcome { return .invalid }
            return Self.invariant(of: outcome) == invariant ? .failed(candidate) : .passed
        }
        shrinker.shrink()
        let scenario = generator.generate(TestCase(prefix: shrinker.current.values))
        var failure = self.failure(scenario, invariant: invariant, worker: worker)
        failure.origin = .generated(caseIndex: caseIndex)
        failure.originalEventCount = original.events.count
        failure.shrinkRuns = shrinker.evaluationCount
        return failure
    }

    /// The failure of `scenario` as it is (a corpus entry, or a shrunk case): run once more in
    /// `worker` for its signal and last deliveries.
    package static func failure(
        _ scenario: Scenario, invariant: String, worker: CaseWorker
    ) -> FuzzFailure {
        let run = worker.run(scenario, traceTail: traceTailCount)
        let violation = self.violation(
            run, invariant: invariant, scenario: scenario, worker: worker)
        return FuzzFailure(
            invariant: invariant, scenario: scenario, violations: [violation],
            origin: .generated(caseIndex: 0), corpusPath: nil,
            originalEventCount: scenario.events.count, shrinkRuns: 0)
    }

    /// What the run says in words: who crashed or hung (the engine, when one of its callbacks
    /// was running; Lifeline's model otherwise), the signal, the runtime's message and the
    /// last deliveries before it.
    package static func violation(
        _ run: CaseWorker.Run, invariant: String, scenario: Scenario, worker: CaseWorker
    ) -> Violation {
        let engine = scenario.engine.name.name
        let who =
            run.inEngineCallback
            ? "the engine '\(engine)', in one of its callbacks,"
            : "Lifeline's model (no callback of the engine '\(engine)' was running)"
        var text: String
        switch run.outcome {
        case .died(.signalled(let signal)):
            text = "\(who) crashed: \(WorkerProcess.describe(signal: signal))"
        case .died(.exited(let status)):
            text = "\(who) ended the process with exit status \(status)"
        case .hung:
            text =
                "\(who) was still running "
                + (run.hang ?? "after \(worker.caseTimeoutSeconds) s of processor time")
                + ", and was killed"
        case .completed:
            text =
                "it did not \(invariant == FuzzFailure.hangInvariant ? "hang" : "crash") "
                + "when run again alone"
        case .unavailable(let reason):
            text = "it could not be run again in a worker process: \(reason)"
        }
        if let message = run.message { text += "; it said: \(message)" }
        if !run.traceTail.isEmpty {
            text += "\n    the last deliveries before it:"
            for entry in run.traceTail {
                text += "\n      \(TimeText.clock(entry.instant))  \(entry.text.prefix(160))"
            }
        }
        return Violation(
            invariant: invariant, instant: run.traceTail.last?.instant ?? .start,
            explanation: text)
    }
}
