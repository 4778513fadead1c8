// The fuzz loop (layer 5): replay the corpus, then generate scenarios, run each, check the
// invariants, and shrink the first failure to a short story saved to the corpus.
import Engines
import Exploration
import Invariants
import Scenarios
import Simulation

/// What one fuzzing run of one engine does.
public struct FuzzSettings: Sendable {
    /// The engine under test.
    public var engine: EngineChoice
    /// Case i is generated from `Seed(seed).derive(i)`.
    public var seed: UInt64 = 1
    /// Cases to generate at most (after the corpus).
    public var caseCount = 100
    /// Wall-clock seconds to generate for at most, if bounded (the case count still bounds
    /// it; with a time bound the number of cases depends on the machine).
    public var secondsMax: Double?
    /// The invariants checked after every run.
    public var invariants = Invariant.builtIn
    /// Where failures are saved and replayed from, if anywhere.
    public var corpus: FuzzCorpus?
    /// Property evaluations the shrinker may spend on a failure.
    public var shrinkEvaluationMax = 3_000
    /// Runs the explain phase may spend on a shrunk failure in all (`Fuzzer.explain`); 0
    /// skips it.
    public var explainRunMax = 400
    /// Runs the explain phase may spend on the window of one event.
    public var explainEventRunMax = 40
    /// The scenarios generated.
    public var generator: ScenarioGenerator

    public init(engine: EngineChoice) {
        self.engine = engine
        generator = ScenarioGenerator(engine: engine)
    }
}

/// A failure: the scenario as shrunk, the invariant it breaks and what that invariant says.
public struct FuzzFailure: Sendable {
    /// The invariant the shrunk scenario breaks (the first one the original broke).
    public var invariant: String
    public var scenario: Scenario
    /// Every violation of `invariant` in the shrunk scenario's run.
    public var violations: [Violation]
    /// Where it came from: a corpus entry's path, or the generated case's index.
    public var origin: Origin
    /// Where it was saved, if it was.
    public var corpusPath: String?
    /// External events before and after shrinking.
    public var originalEventCount: Int
    /// Runs spent shrinking.
    public var shrinkRuns: Int
    /// How far its events can move and which settings could be anything, if explained.
    public var explanation: FailureExplanation?

    public enum Origin: Sendable, Equatable {
        case corpus(path: String)
        case generated(caseIndex: Int)
    }
}

/// What a fuzzing run found.
public struct FuzzReport: Sendable {
    public var engine: EngineChoice
    /// Corpus entries replayed.
    public var corpusReplayed: Int
    /// Generated cases run (the failing one included).
    public var cases: Int
    /// Distinct lifecycle states the runs reached (`LifecycleStates`).
    public var distinctStates: Int
    /// The failure, if one was found (the fuzzer stops at the first).
    public var failure: FuzzFailure?
}

/// Progress while fuzzing, as the caller is told after each case.
public struct FuzzProgress: Sendable {
    public var cases: Int
    public var distinctStates: Int
    public var failures: Int
}

/// `lifeline fuzz` for one engine.
public enum Fuzzer {
    /// Replays the corpus entries of `settings.engine` (a failing one is reported at once),
    /// then generates cases until one fails, the case count is reached, or the time is up;
    /// shrinks the failure, explains it (`explain`), saves it to the corpus and returns it.
    /// - Throws: `FuzzCorpus.Problem` for a corpus that cannot be read or written.
    public static func fuzz(
        _ settings: FuzzSettings, progress: ((FuzzProgress) -> Void)? = nil
    ) throws -> FuzzReport {
        var report = FuzzReport(
            engine: settings.engine, corpusReplayed: 0, cases: 0, distinctStates: 0)
        var states = LifecycleStates()
        if let corpus = settings.corpus {
            try corpus.checkWritable()
            for entry in try corpus.entries(engine: settings.engine.name) {
                report.corpusReplayed += 1
                let violations = try check(entry.scenario, settings.invariants).violations
                guard let first = violations.first else { continue }
                var failure = FuzzFailure(
                    invariant: first.invariant, scenario: entry.scenario,
                    violations: violations.filter { $0.invariant == first.invariant },
                    origin: .corpus(path: entry.path), corpusPath: entry.path,
                    originalEventCount: entry.scenario.events.count, shrinkRuns: 0)
                failure.explanation = explain(failure, settings: settings)
                report.failure = failure
                return report
            }
        }
        let generator = settings.generator.scenarios
        let started = settings.secondsMax == nil ? 0 : WallClock.seconds()
        for caseIndex in 0..<settings.caseCount {
            if let limit = settings.secondsMax, WallClock.seconds() - started > limit { break }
            let testCase = TestCase(
                seed: Seed(settings.seed).derive(UInt64(caseIndex)).value,
                choiceCountMax: choiceCountMax)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            report.cases += 1
            let (record, violations) = try check(scenario, settings.invariants)
            states.add(record)
            report.distinctStates = states.count
            progress?(
                FuzzProgress(
                    cases: report.cases, distinctStates: states.count,
                    failures: violations.isEmpty ? 0 : 1))
            guard let first = violations.first else { continue }
            var failure = shrink(
                testCase, original: scenario, invariant: first.invariant, settings: settings,
                generator: generator)
            failure.origin = .generated(caseIndex: caseIndex)
            failure.explanation = explain(failure, settings: settings)
            if let corpus = settings.corpus {
                failure.corpusPath = try corpus.save(
                    failure.scenario, engine: settings.engine.name, invariant: failure.invariant,
                    found: "lifeline fuzz --engine \(settings.engine.name) --seed \(settings.seed) "
                        + "(case \(caseIndex))")
            }
            report.failure = failure
            return report
        }
        return report
    }

    /// Runs `scenario` and checks `invariants` on the run.
    public static func check(_ scenario: Scenario, _ invariants: [Invariant]) throws
        -> (record: RunRecord, violations: [Violation])
    {
        let record = try scenario.record()
        return (record, record.violations(of: invariants))
    }

    /// Choices one case may draw.
    static let choiceCountMax = 2_000

    /// Shrinks the failing case to the simplest scenario that still breaks `invariant` (only
    /// that one, so that shrinking does not slip to another failure).
    static func shrink(
        _ failing: TestCase, original: Scenario, invariant: String, settings: FuzzSettings,
        generator: Gen<Scenario>
    ) -> FuzzFailure {
        let only = settings.invariants.filter { $0.name == invariant }
        let shrinker = Shrinker(failing: failing, evaluationMax: settings.shrinkEvaluationMax) {
            choices in
            let testCase = TestCase(prefix: choices, choiceCountMax: choiceCountMax)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid,
                let violations = try? check(scenario, only).violations
            else { return .invalid }
            return violations.isEmpty ? .passed : .failed(testCase)
        }
        shrinker.shrink()
        let scenario = generator.generate(TestCase(prefix: shrinker.current.values))
        let violations = (try? check(scenario, only).violations) ?? []
        return FuzzFailure(
            invariant: invariant, scenario: scenario, violations: violations,
            origin: .generated(caseIndex: 0), corpusPath: nil,
            originalEventCount: original.events.count, shrinkRuns: shrinker.evaluationCount)
    }
}
