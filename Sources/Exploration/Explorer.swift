// The runner (layer 2): generate cases, test them, shrink the first failure, report it with
// its seed and replay token; replay saved cases first.
import Simulation

/// How an exploration runs: its seed and its bounds. Every bound is a count, so results are
/// the same on any machine; the optional time budget exists for open-ended fuzzing only.
public struct ExplorationSettings: Sendable {
    /// The seed every case's stream derives from (case i uses `Seed(seed).derive(i)`).
    public var seed: UInt64
    /// Valid cases to generate and test before passing.
    public var caseCount = 100
    /// Invalid cases (filters, assumptions, overruns) tolerated before giving up.
    public var invalidCaseMax = 1_000
    /// Property evaluations the shrinker may spend: the bound on shrinking's worst case. A
    /// shrink that reaches it stops and reports the simplest failing value found so far, with
    /// `shrinkBudgetExhausted` set (the report says so).
    public var shrinkEvaluationMax = 10_000
    /// Choices one case may draw before it overruns.
    public var choiceCountMax = 10_000
    /// One generated integer in this many reuses or nudges an earlier integer of its range
    /// (near misses, so that equal and nearly equal values come up often); 0 turns it off.
    public var nearMissOneIn = TestCase.nearMissOneInDefault
    /// Wall-clock seconds for generation, if bounded (breaks machine independence; for fuzzing).
    public var generationSecondsMax: Double?
    /// Wall-clock seconds for shrinking, if bounded (the same caveat; the evaluation budget is
    /// the machine-independent bound).
    public var shrinkSecondsMax: Double?

    public init(seed: UInt64, caseCount: Int = 100) {
        precondition(caseCount >= 0, "a case count is not negative")
        self.seed = seed
        self.caseCount = caseCount
    }
}

/// A failure, as found and as shrunk.
public struct ExplorationFailure<Value> {
    /// Where the failing case came from.
    public enum Origin: Equatable, Sendable {
        case generated(caseIndex: Int)
        case corpus(path: String)
        case replay
    }

    public var origin: Origin
    /// The choice sequence of the first failing case.
    public var originalChoices: [UInt64]
    /// The choice sequence after shrinking.
    public var shrunkChoices: [UInt64]
    /// The shrunk value.
    public var value: Value
    /// The shrunk value as `describe` renders it.
    public var valueDescription: String
    /// What the property said about the shrunk value.
    public var message: String
    /// Candidates the shrinker accepted.
    public var shrinkSteps: Int
    /// Property evaluations spent shrinking (the first failure excluded).
    public var shrinkEvaluations: Int
    /// True when the shrink budget ran out before a fixed point.
    public var shrinkBudgetExhausted: Bool
    /// What each shrink pass did, in pass order.
    public var shrinkPassStatistics: [ShrinkPassStatistics] = []

    /// The line that replays the shrunk value.
    public var replayToken: ReplayToken { ReplayToken(choices: shrunkChoices) }
}

/// What an exploration found.
public struct ExplorationResult<Value> {
    public enum Status {
        case passed
        case failed(ExplorationFailure<Value>)
        /// It could not test enough cases (a filter or assumption rejected almost everything).
        case gaveUp(reason: String)
    }

    public var status: Status
    public var seed: UInt64
    /// Valid cases tested (replayed corpus entries included).
    public var validCaseCount: Int
    /// Cases rejected before the property ran.
    public var invalidCaseCount: Int
    /// Problems with corpus files (each named), which did not stop the run.
    public var corpusProblems: [CorpusProblem]

    /// The failure, if there was one.
    public var failure: ExplorationFailure<Value>? {
        if case .failed(let failure) = status { return failure }
        return nil
    }
}

/// Runs properties: `explore` generates, tests and shrinks; `replay` rebuilds one token.
public enum Explorer {
    /// Tests `property` on values from `generator`: corpus entries first, then generated cases,
    /// shrinking the first failure. `describe` renders values in reports and corpus files.
    public static func explore<Value>(
        _ generator: Gen<Value>, settings: ExplorationSettings, corpus: PropertyCorpus? = nil,
        describe: @escaping (Value) -> String = { String(describing: $0) },
        property: @escaping (Value) throws -> Void
    ) -> ExplorationResult<Value> {
        let run = PropertyRun(
            generator: generator, settings: settings, describe: describe, property: property)
        var result = ExplorationResult<Value>(
            status: .passed, seed: settings.seed, validCaseCount: 0,
            invalidCaseCount: 0, corpusProblems: [])
        if let corpus {
            let (entries, problems) = corpus.entries()
            result.corpusProblems = problems
            for entry in entries {
                guard let failing = run.evaluate(entry.choices) else { continue }
                result.validCaseCount += 1
                result.status = .failed(run.shrink(failing, origin: .corpus(path: entry.path)))
                return result
            }
        }
        let started = settings.generationSecondsMax == nil ? 0 : WallClock.seconds()
        var caseIndex = 0
        while result.validCaseCount < settings.caseCount {
            if let limit = settings.generationSecondsMax,
                WallClock.seconds() - started > limit
            {
                break
            }
            let testCase = TestCase(
                seed: Seed(settings.seed).derive(UInt64(caseIndex)).value,
                choiceCountMax: settings.choiceCountMax, nearMissOneIn: settings.nearMissOneIn)
            let outcome = run.test(testCase)
            caseIndex += 1
            switch outcome {
            case .invalid(let reason):
                result.invalidCaseCount += 1
                if result.invalidCaseCount > settings.invalidCaseMax {
                    result.status = .gaveUp(
                        reason: "\(result.invalidCaseCount) cases were rejected "
                            + "before \(settings.caseCount) valid ones were found (last: \(reason))"
                    )
                    return result
                }
            case .passed:
                result.validCaseCount += 1
            case .failed:
                result.validCaseCount += 1
                let failure = run.shrink(testCase, origin: .generated(caseIndex: caseIndex - 1))
                if let corpus {
                    do {
                        try corpus.save(
                            choices: failure.shrunkChoices, value: failure.valueDescription)
                    } catch {
                        result.corpusProblems.append(
                            error as? CorpusProblem
                                ?? CorpusProblem(
                                    path: corpus.directory,
                                    reason: "the case was not saved: \(error)"))
                    }
                }
                result.status = .failed(failure)
                return result
            }
        }
        return result
    }

    /// Rebuilds the value `token` names and tests it: the value, its rendering, and the
    /// property's message if it fails (nil when it passes or is discarded).
    public static func replay<Value>(
        _ token: ReplayToken, _ generator: Gen<Value>,
        describe: @escaping (Value) -> String = { String(describing: $0) },
        property: @escaping (Value) throws -> Void
    ) -> (value: Value, description: String, failure: String?) {
        let testCase = TestCase(prefix: token.choices)
        let value = generator.generate(testCase)
        var failure: String?
        if testCase.status == .valid {
            do { try property(value) } catch is Discard {} catch {
                failure = String(describing: error)
            }
        }
        return (value, describe(value), failure)
    }
}

/// One property over one generator: testing a case, and shrinking a failing one.
struct PropertyRun<Value> {
    enum Outcome {
        case passed
        case failed(String)
        case invalid(String)
    }

    let generator: Gen<Value>
    let settings: ExplorationSettings
    let describe: (Value) -> String
    let property: (Value) throws -> Void

    func test(_ testCase: TestCase) -> Outcome {
        let value = generator.generate(testCase)
        switch testCase.status {
        case .invalid(let reason): return .invalid(reason)
        case .overrun: return .invalid("a case needed more than \(settings.choiceCountMax) choices")
        case .valid: break
        }
        do {
            try property(value)
            return .passed
        } catch is Discard {
            testCase.reject("the property's assumption did not hold")
            return .invalid("the property's assumption did not hold")
        } catch {
            return .failed(String(describing: error))
        }
    }

    /// The case `choices` builds, when it is valid and fails.
    func evaluate(_ choices: [UInt64]) -> TestCase? {
        if case .failed(let testCase) = verdict(choices) { return testCase }
        return nil
    }

    /// What the property says of the case `choices` builds.
    func verdict(_ choices: [UInt64]) -> Shrinker.Verdict {
        let testCase = TestCase(prefix: choices, choiceCountMax: settings.choiceCountMax)
        switch test(testCase) {
        case .failed: return .failed(testCase)
        case .passed: return .passed
        case .invalid: return .invalid
        }
    }

    func shrink(_ failing: TestCase, origin: ExplorationFailure<Value>.Origin)
        -> ExplorationFailure<Value>
    {
        let shrinker = Shrinker(
            failing: failing, evaluationMax: settings.shrinkEvaluationMax,
            secondsMax: settings.shrinkSecondsMax, evaluate: verdict)
        shrinker.shrink()
        let replay = TestCase(
            prefix: shrinker.current.values, choiceCountMax: settings.choiceCountMax)
        let value = generator.generate(replay)
        var message = "the property does not hold"
        do { try property(value) } catch { message = String(describing: error) }
        return ExplorationFailure(
            origin: origin, originalChoices: failing.values, shrunkChoices: shrinker.current.values,
            value: value, valueDescription: describe(value), message: message,
            shrinkSteps: shrinker.acceptedCount, shrinkEvaluations: shrinker.evaluationCount,
            shrinkBudgetExhausted: shrinker.exhaustedBudget,
            shrinkPassStatistics: shrinker.passStatistics)
    }
}
