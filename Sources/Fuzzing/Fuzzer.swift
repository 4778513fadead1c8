// The fuzz loop (layer 5): replay the corpus, then generate scenarios, run each, check the
// invariants (on worker threads, one simulation each), and shrink the failure of the lowest
// case index to a short story saved to the corpus.
import Engines
import Exploration
import Invariants
import Scenarios
import Simulation
import World

/// What one fuzzing run of one engine does.
public struct FuzzSettings: Sendable {
    /// The engine under test.
    public var engine: EngineChoice
    /// Case i is generated from `Seed(seed).derive(i)`.
    public var seed: UInt64 = 1
    /// Case indices run: `0..<caseCount` (after the corpus), those of `shard` only.
    public var caseCount = 100
    /// The share of the case indices this run takes (`FuzzShard.whole` unless sharded).
    public var shard = FuzzShard.whole
    /// Worker threads running cases side by side, at least 1. The report is the same for any
    /// count: the failure reported is the one of the lowest case index.
    public var jobCount = 1
    /// Whether the search is guided by lifecycle coverage (`CasePool`): cases that reach a
    /// new abstract state or transition are kept and mutated. Off, every case is drawn fresh
    /// from its seed (random search, the baseline).
    public var isGuided = false
    /// Stops the run between cases when requested (Ctrl-C), if given.
    public var stop: FuzzStop?
    /// Wall-clock seconds to generate for at most, if bounded (the case count still bounds
    /// it; with a time bound the number of cases depends on the machine).
    public var secondsMax: Double?
    /// The invariants checked after every run: the built-in rules that apply to the engine's
    /// profile (`InvariantSelection`), and the built-in advice too once `adviceFails` is set.
    public var invariants = Invariant.builtIn
    /// What the run was asked to judge (`--only`, `--skip`), already applied to `invariants`:
    /// kept so that a supervising process hands it on to its workers.
    public var selection = InvariantSelection()
    /// Whether advice (`Invariant.advice`, guidance whose breach loses nothing by itself) fails
    /// a case too, as `lifeline fuzz --advice fail` asks; by default it is a warning only.
    public var adviceFails = false {
        didSet {
            let advice = Set(Invariant.advice.map(\.name))
            invariants.removeAll { advice.contains($0.name) }
            if adviceFails { invariants += Invariant.advice }
        }
    }
    /// The Info.plist the generator's profile was read from, if one was named (`lifeline
    /// fuzz --info-plist`): a supervising process hands it on to its workers.
    public var infoPlist: String?
    /// Where failures are saved and replayed from, if anywhere.
    public var corpus: FuzzCorpus?
    /// The executable whose hidden worker subcommand (`CaseWorker`) runs a failure once more
    /// in a fresh process before it is reported (`FreshProcessCheck`): one that does not fail
    /// there is reported as `no-state-outliving-process`. Nil reports failures as found
    /// (in-process runs: the tests, `fuzzLifecycle`).
    public var confirmingExecutable: String?
    /// Whether `Fuzzer.fuzz` saves a failure to `corpus` itself (`fuzzLifecycle`); `lifeline
    /// fuzz` saves it after printing it instead, so that a write that fails loses nothing.
    public var savesFailure = true
    /// Whether a corpus entry that cannot be replayed ends the run (`--strict`) rather than
    /// being a warning in `FuzzReport.corpusWarnings`.
    public var isStrict = false
    /// Property evaluations the shrinker may spend on a failure.
    public var shrinkEvaluationMax = 3_000
    /// Runs the explain phase may spend on a shrunk failure in all (`Fuzzer.explain`); 0
    /// skips it.
    public var explainRunMax = 400
    /// Whether the first valid case runs twice first, to catch engine state that outlives its
    /// simulated process (`no-state-outliving-process`, `ProcessStateCheck`).
    public var checksProcessState = true
    /// Runs the explain phase may spend on the window of one event.
    public var explainEventRunMax = 40
    /// The scenarios generated.
    public var generator: ScenarioGenerator
    /// Told when each corpus entry and generated case starts and ends, on the thread that runs
    /// it, if given: a supervising process reads it to know which case a worker that died was
    /// running (`lifeline fuzz` runs its cases in a child process). Nil costs nothing.
    public var caseObserver: FuzzCaseObserver?
    /// Whether corpus entries saved for `no-crash` or `no-hang` are replayed: true where the
    /// run is supervised (a crash ends only the child that replays it), false in-process
    /// (`fuzzLifecycle`, where replaying one would end the test process again).
    public var replaysProcessFailures = true

    public init(engine: EngineChoice) {
        self.engine = engine
        generator = ScenarioGenerator(engine: engine)
        invariants = selection.applied(to: Invariant.builtIn, profile: engine.profile)
    }
}

/// What `FuzzSettings.caseObserver` is told: a supervisor's view of the cases in flight.
public struct FuzzCaseObserver: Sendable {
    /// One step of one case.
    public enum Event: Sendable {
        /// A corpus entry is about to be replayed (on the calling thread).
        case corpusEntry(path: String)
        /// Generated case `caseIndex` is about to run; its choices when `wantsChoices`.
        case started(caseIndex: Int, choices: [UInt64]?)
        /// Case `caseIndex` ran to its end (its invariants checked).
        case finished(caseIndex: Int)
        /// The simplest scenario found so far that still breaks `invariant`, while generated
        /// case `caseIndex` is shrunk (the case itself first): a supervisor keeps the last one,
        /// to report should the run be ended at once.
        case shrinking(caseIndex: Int, invariant: String, scenario: Scenario)
    }

    /// Whether `started` carries the case's choices (they rebuild its scenario elsewhere).
    public var wantsChoices: Bool
    public var tell: @Sendable (Event) -> Void

    public init(wantsChoices: Bool, tell: @escaping @Sendable (Event) -> Void) {
        self.wantsChoices = wantsChoices
        self.tell = tell
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
    /// Why it could not be saved to the corpus, if saving it failed (the failure is reported
    /// all the same).
    public var saveProblem: FuzzCorpus.Problem?
    /// Whether a stop (Ctrl-C) ended its shrinking early: the scenario is the simplest found
    /// by then, and it was not explained.
    public var isShrinkInterrupted = false

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
    /// Corpus entries that could not be replayed, each with its path and reason
    /// (`FuzzCorpus.load(engine:strict:)`).
    public var corpusWarnings: [FuzzCorpus.Problem] = []
    /// Generated cases run (the failing one included): the valid ones among the shard's case
    /// indices up to the last one run, every earlier one run too.
    public var cases: Int
    /// Distinct lifecycle states the runs reached (`LifecycleStates`).
    public var distinctStates: Int
    /// Distinct transitions between them.
    public var distinctTransitions = 0
    /// The failure, if one was found (the fuzzer stops at the one of the lowest case index).
    public var failure: FuzzFailure?
    /// Whether `FuzzSettings.stop` ended the run before its case count or time was up.
    public var isInterrupted = false
    /// Whether the search ran every case position it was asked for, or stopped at a failure:
    /// false when a stop or the time bound ended it first.
    public var isComplete = false
    /// The advice the generated cases breached while advice is a warning
    /// (`FuzzSettings.adviceFails` off), one tally per advice in `Invariant.advice`'s order,
    /// only those breached at least once.
    public var advice: [AdviceTally] = []
}

/// How often one piece of advice was breached in a fuzzing run where it is a warning: its
/// invariant, the rule and source it comes from, the cases that breached it and the first.
public struct AdviceTally: Sendable, Equatable, Codable {
    /// The advice's invariant name (`no-service-before-authorization`).
    public var invariant: String
    /// The rule it comes from (`R-A13`).
    public var rule: String
    /// Who gives the advice.
    public var source: String
    /// Generated cases that breached it.
    public var cases: Int
    /// The lowest case index that breached it.
    public var firstCaseIndex: Int
}

/// Progress while fuzzing, as the caller is told after each case.
public struct FuzzProgress: Sendable {
    public var cases: Int
    public var distinctStates: Int
    public var distinctTransitions: Int
    public var failures: Int
}

/// `lifeline fuzz` for one engine.
public enum Fuzzer {
    /// Replays the corpus entries of `settings.engine` (a failing one is reported at once),
    /// then runs the shard's generated cases on `settings.jobCount` workers until one fails,
    /// the case count is reached, the time is up or a stop is requested; shrinks the failure
    /// of the lowest case index, confirms it in a fresh process (`FreshProcessCheck`, when
    /// `settings.confirmingExecutable` names one), explains it (`explain`), saves it to the
    /// corpus (when `settings.savesFailure`; a write that fails is `FuzzFailure.saveProblem`,
    /// the failure still returned) and returns it. `progress` is called on the calling thread,
    /// after each case in index order.
    /// - Throws: `FuzzCorpus.Problem` for a corpus that cannot be read, or a folder that
    ///   cannot be written before the search.
    public static func fuzz(
        _ settings: FuzzSettings, progress: ((FuzzProgress) -> Void)? = nil
    ) throws -> FuzzReport {
        precondition(settings.jobCount >= 1, "at least one worker")
        precondition(settings.caseCount >= 0, "a case count is not negative")
        var report = FuzzReport(
            engine: settings.engine, corpusReplayed: 0, cases: 0, distinctStates: 0)
        if let corpus = settings.corpus {
            try corpus.checkWritable()
            let loaded = try corpus.load(engine: settings.engine.name, strict: settings.isStrict)
            report.corpusWarnings = loaded.warnings
            for entry in loaded.entries
            where settings.replaysProcessFailures
                || !FuzzFailure.isProcessInvariant(entry.invariant)
            {
                report.corpusReplayed += 1
                settings.caseObserver?.tell(.corpusEntry(path: entry.path))
                let violations = try check(entry.scenario, settings.invariants).violations
                guard let first = violations.first else { continue }
                var failure = FuzzFailure(
                    invariant: first.invariant, scenario: entry.scenario,
                    violations: violations.filter { $0.invariant == first.invariant },
                    origin: .corpus(path: entry.path), corpusPath: entry.path,
                    originalEventCount: entry.scenario.events.count, shrinkRuns: 0)
                failure = confirmed(failure, settings: settings)
                if settings.stop?.isRequested != true, failure.invariant == first.invariant {
                    failure.explanation = explain(failure, settings: settings)
                }
                report.failure = failure
                report.isComplete = true
                return report
            }
        }
        if settings.checksProcessState, let failure = processStateFailure(settings) {
            report.failure = failure
            report.isComplete = true
            return report
        }
        guard let failing = try search(settings, report: &report, progress: progress) else {
            return report
        }
        let generator = settings.generator.scenarios
        let testCase =
            failing.choices.map { TestCase(prefix: $0, choiceCountMax: choiceCountMax) }
            ?? generatedCase(failing.caseIndex, settings: settings)
        let scenario = generator.generate(testCase)
        var failure = shrink(
            testCase, original: scenario, invariant: failing.invariant, settings: settings,
            generator: generator
        ) { simplest in
            settings.caseObserver?.tell(
                .shrinking(
                    caseIndex: failing.caseIndex, invariant: failing.invariant,
                    scenario: simplest))
        }
        failure.origin = .generated(caseIndex: failing.caseIndex)
        failure.isShrinkInterrupted = settings.stop?.isRequested == true
        failure = confirmed(failure, settings: settings)
        if !failure.isShrinkInterrupted, failure.invariant == failing.invariant {
            failure.explanation = explain(failure, settings: settings)
        }
        if let corpus = settings.corpus, settings.savesFailure {
            do {
                failure.corpusPath = try corpus.save(
                    failure.scenario, engine: settings.engine.name,
                    invariant: failure.invariant,
                    found: settings.foundLine(caseIndex: failing.caseIndex))
            } catch let problem as FuzzCorpus.Problem {
                failure.saveProblem = problem
            }
        }
        report.failure = failure
        return report
    }

    /// `failure` once run again in a fresh process, when `settings` names an executable for it
    /// (`FreshProcessCheck`).
    static func confirmed(_ failure: FuzzFailure, settings: FuzzSettings) -> FuzzFailure {
        guard let executable = settings.confirmingExecutable else { return failure }
        return FreshProcessCheck.confirmed(failure, executable: executable)
    }

    /// `ProcessStateCheck` on the first valid case of the first ten.
    static func processStateFailure(_ settings: FuzzSettings) -> FuzzFailure? {
        let generator = settings.generator.scenarios
        for caseIndex in 0..<10 {
            let testCase = generatedCase(caseIndex, settings: settings)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            // Told as the case it runs, so that a supervisor blames a trap or a hang in it on
            // that case, as it would in the search.
            return observed(caseIndex, testCase, settings) {
                ProcessStateCheck.failure(scenario, caseIndex: caseIndex)
            }
        }
        return nil
    }

    /// The test case of case `caseIndex`, ready to generate from.
    static func generatedCase(_ caseIndex: Int, settings: FuzzSettings) -> TestCase {
        TestCase(
            seed: Seed(settings.seed).derive(UInt64(caseIndex)).value,
            choiceCountMax: choiceCountMax)
    }

    /// What one generated case gave, on the worker that ran it.
    enum CaseOutcome: Sendable {
        /// The generator rejected its choices; not a case.
        case invalid
        /// It ran; the states and transitions it reached, the first invariant it broke, if
        /// any, and its choices when the search is guided (to keep it, or shrink it).
        case checked(
            path: LifecyclePath, failing: String?, choices: PooledCase?, advised: [String])
        /// Running it threw; the calling thread runs it again to throw the same error.
        case threw
    }

    /// A failing case: its index, the invariant it broke, and its choices when they do not
    /// follow from its index alone (a guided mutant).
    typealias Failing = (caseIndex: Int, invariant: String, choices: [UInt64]?)

    /// Case positions a guided search runs from one state of its pool (`CasePool`).
    public static let guidedBatchSize = 64

    /// The parallel phase: runs the shard's cases and counts them into `report`; returns the
    /// failing case of the lowest index, if any. Positions run in batches, each on the
    /// workers side by side and committed in order: one batch for random search, batches of
    /// `guidedBatchSize` for a guided one, whose cases are made from the pool as the previous
    /// batches left it.
    static func search(
        _ settings: FuzzSettings, report: inout FuzzReport,
        progress: ((FuzzProgress) -> Void)?
    ) throws -> Failing? {
        let shard = settings.shard
        let started = WallClock.seconds()
        let positionCount = shard.positionCount(below: settings.caseCount)
        let batchSize = settings.isGuided ? guidedBatchSize : max(positionCount, 1)
        var pool = CasePool()
        var states = LifecycleStates()
        var failing: Failing?
        var batchStart = 0
        let shouldStop: @Sendable () -> Bool = {
            if settings.stop?.isRequested == true { return true }
            guard let limit = settings.secondsMax else { return false }
            return WallClock.seconds() - started > limit
        }
        while batchStart < positionCount, failing == nil, !shouldStop() {
            let batchCount = min(batchSize, positionCount - batchStart)
            if settings.isGuided { pool.weigh(by: states) }
            let snapshot = settings.isGuided ? pool : nil
            let first = batchStart
            let workers = CaseWorkers<CaseOutcome>(
                positionCount: batchCount, jobCount: settings.jobCount)
            let committed = try workers.run(
                shouldStop: shouldStop,
                makeWork: {
                    let generator = settings.generator.scenarios
                    return { position in
                        let caseIndex = shard.caseIndex(at: first + position)
                        let outcome = run(caseIndex, settings, snapshot, generator)
                        guard case .checked(_, let invariant, _, _) = outcome else {
                            return (outcome, false)
                        }
                        return (outcome, invariant != nil)
                    }
                },
                commit: { position, outcome in
                    let caseIndex = shard.caseIndex(at: first + position)
                    switch outcome {
                    case .invalid:
                        return true
                    case .threw:
                        let scenario = input(
                            caseIndex, settings, snapshot, settings.generator.scenarios
                        ).scenario
                        do {
                            _ = try check(scenario, settings.invariants)
                        } catch let loop as ModelLoop {
                            throw ModelLoopFinding(
                                loop: loop, caseIndex: caseIndex, scenario: scenario)
                        }
                        preconditionFailure("case \(caseIndex) threw on a worker, not here")
                    case .checked(let path, let invariant, let choices, let advised):
                        report.cases += 1
                        for name in advised { report.countAdvice(name, caseIndex: caseIndex) }
                        if states.add(path), let choices {
                            pool.add(choices, path: path, energy: states.energy(of: path))
                        }
                        report.distinctStates = states.count
                        report.distinctTransitions = states.transitionCount
                        progress?(
                            FuzzProgress(
                                cases: report.cases, distinctStates: states.count,
                                distinctTransitions: states.transitionCount,
                                failures: invariant == nil ? 0 : 1))
                        guard let invariant else { return true }
                        failing = (caseIndex, invariant, choices?.values)
                        return false
                    }
                })
            batchStart += committed
            if committed < batchCount { break }
        }
        report.isInterrupted =
            failing == nil && batchStart < positionCount && settings.stop?.isRequested == true
        report.isComplete = failing != nil || batchStart >= positionCount
        return failing
    }

    /// Case `caseIndex`'s test case, after generating, and its scenario: drawn from its seed,
    /// or made from `pool` when the search is guided.
    static func input(
        _ caseIndex: Int, _ settings: FuzzSettings, _ pool: CasePool?, _ generator: Gen<Scenario>
    ) -> (testCase: TestCase, scenario: Scenario) {
        guard let pool else {
            let testCase = generatedCase(caseIndex, settings: settings)
            return (testCase, generator.generate(testCase))
        }
        return pool.input(
            caseIndex, seed: settings.seed, generator: generator, choiceCountMax: choiceCountMax
        ) { generatedCase(caseIndex, settings: settings) }
    }

    /// Generates, runs and checks case `caseIndex` (on a worker's thread, with its generator).
    static func run(
        _ caseIndex: Int, _ settings: FuzzSettings, _ pool: CasePool?, _ generator: Gen<Scenario>
    ) -> CaseOutcome {
        let (testCase, scenario) = input(caseIndex, settings, pool, generator)
        guard testCase.status == .valid else { return .invalid }
        return observed(caseIndex, testCase, settings) {
            guard let (record, violations) = try? check(scenario, settings.invariants) else {
                return .threw
            }
            // Advice that warns is judged too, and only counted.
            let advised =
                settings.adviceFails
                ? [] : Invariant.advice.filter { !$0.check(record).isEmpty }.map(\.name)
            return .checked(
                path: LifecyclePath(record), failing: violations.first?.invariant,
                choices: pool == nil
                    ? nil : PooledCase(testCase, deliveries: record.digest.deliveryCount),
                advised: advised)
        }
    }

    /// `work` for case `caseIndex`, told to `settings.caseObserver` as started before and
    /// finished after: a supervisor reads it to blame a trap or a hang on the case in flight.
    static func observed<Result>(
        _ caseIndex: Int, _ testCase: TestCase, _ settings: FuzzSettings,
        _ work: () -> Result
    ) -> Result {
        if let observer = settings.caseObserver {
            observer.tell(
                .started(
                    caseIndex: caseIndex, choices: observer.wantsChoices ? testCase.values : nil))
        }
        defer { settings.caseObserver?.tell(.finished(caseIndex: caseIndex)) }
        return work()
    }

    /// Runs `scenario` and checks `invariants` on the run.
    /// A run whose app's code escaped the simulation has one violation, `escaped-simulation`
    /// (`EscapeFinding`), whatever `invariants` says.
    public static func check(_ scenario: Scenario, _ invariants: [Invariant]) throws
        -> (record: RunRecord, violations: [Violation])
    {
        try EscapeFinding.check(scenario, invariants)
    }

    /// Choices one case may draw.
    package static let choiceCountMax = 2_000

    /// Shrinks the failing case to the simplest scenario that still breaks `invariant` (only
    /// that one, so that shrinking does not slip to another failure), telling `simplest` each
    /// simpler failing scenario as it is found (the original first). A stop requested in
    /// `settings` ends it at its next candidate, with the simplest found so far.
    static func shrink(
        _ failing: TestCase, original: Scenario, invariant: String, settings: FuzzSettings,
        generator: Gen<Scenario>, simplest: ((Scenario) -> Void)? = nil
    ) -> FuzzFailure {
        let only = settings.invariants.filter { $0.name == invariant }
        simplest?(original)
        var simplestChoices = failing.values
        let shrinker = Shrinker(failing: failing, evaluationMax: settings.shrinkEvaluationMax) {
            choices in
            // Cheap once stopped: the shrinker runs out of candidates without a simulation.
            if settings.stop?.isRequested == true { return .invalid }
            let testCase = TestCase(prefix: choices, choiceCountMax: choiceCountMax)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid,
                let violations = try? check(scenario, only).violations
            else { return .invalid }
            // Only `invariant` counts: a candidate that escapes instead does not.
            guard violations.contains(where: { $0.invariant == invariant }) else { return .passed }
            if let simplest, isSimpler(testCase.values, than: simplestChoices) {
                simplestChoices = testCase.values
                simplest(scenario)
            }
            return .failed(testCase)
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

extension FuzzSettings {
    /// The `# found:` line of a corpus entry saved from generated case `caseIndex`: the
    /// command that generated it.
    public func foundLine(caseIndex: Int) -> String {
        "lifeline fuzz --engine \(engine.name) --seed \(seed) --guided \(isGuided ? "on" : "off") "
            + "(case \(caseIndex))"
    }
}

extension FuzzReport {
    /// Counts a breach of the advice `name` by generated case `caseIndex` (cases are counted
    /// in index order, so the first counted is the lowest).
    mutating func countAdvice(_ name: String, caseIndex: Int) {
        if let index = advice.firstIndex(where: { $0.invariant == name }) {
            advice[index].cases += 1
            return
        }
        guard let invariant = Invariant.advice.first(where: { $0.name == name }),
            case .advice(let rule, let source) = invariant.severity
        else { return }
        advice.append(
            AdviceTally(
                invariant: name, rule: rule, source: source, cases: 1, firstCaseIndex: caseIndex))
        let order = Invariant.advice.map(\.name)
        func rank(_ tally: AdviceTally) -> Int { order.firstIndex(of: tally.invariant) ?? 0 }
        advice.sort { rank($0) < rank($1) }
    }
}
