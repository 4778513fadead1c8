// The Swift Testing entry point of the fuzzer: fuzz an engine's lifecycle inside `@Test`, and
// record an issue with the shrunk story and how to replay it when an invariant fails.
import Engines
import Foundation
import Fuzzing
import Invariants
import Testing

/// Fuzzes `engine` against `invariants` inside a Swift Testing test: the corpus's saved
/// failures for the engine first, then `cases` generated scenarios from `seed`.
///
/// A failure is shrunk, saved to `corpus` (when given) and recorded as one issue carrying the
/// broken invariant, its violations in plain words, the shrunk scenario, its timeline and the
/// command that replays it. A corpus that cannot be read or written is an issue too.
/// Environment variables steer it without code changes:
/// - `LIFELINE_CASES=<n>`: how many cases (so CI can run more than a developer does);
/// - `LIFELINE_SECONDS=<s>`: a wall-clock budget instead (`seconds`);
/// - `LIFELINE_SEED=<n>`: the seed.
///
/// A crash runs in this process: cases run on worker threads of the test process, so an
/// engine that traps (a failed precondition, an index out of range, a force unwrap of nil)
/// ends the whole `swift test` run with the signal (SIGILL or SIGTRAP on Linux: "exited with
/// unexpected signal code 4" or 5), the runtime's message ("Fatal error: Index out of range")
/// and its stack on standard error; no issue is recorded, nothing is saved to the corpus,
/// and the tests after it do not run; an engine that never returns hangs the test. To have
/// a crash or a hang reported as a finding (`no-crash`, `no-hang`: shrunk, saved, replayed),
/// fuzz the engine with the team's own `lifeline` (`LifelineCLI.main(engines:)`, docs/your-engine.md),
/// whose cases run in worker processes: `my-lifeline fuzz --engine my-tracker`. A saved
/// `no-crash` or `no-hang` entry is not replayed here (it would end the test again): this
/// function skips it, and `lifeline replay` replays it in a worker.
///
///     let tracker = CustomEngine(name: "my-tracker", summary: "our engine") { rules in
///         MyTracker(rules)
///     }
///
///     @Test func myTrackerKeepsEveryFix() {
///         fuzzLifecycle(of: .custom(tracker), cases: 200, corpus: "Corpus")
///     }
///
/// - Parameters:
///   - engine: a built-in engine, a mutant, or `.custom` with a team's own engine.
///   - invariants: the invariants to check after every run; the eight built-in ones unless
///     chosen, and a team's own `Invariant` values plug in the same way.
///   - corpus: a corpus folder (relative to the current directory, which `swift test` sets to
///     the package's root): its entries for the engine are replayed first, and a new failure
///     is saved there.
///   - seconds: a wall-clock budget: cases run until it is spent (or `cases` are run, when
///     `cases` is given too), so the number of cases depends on the machine; the cases run
///     are still the first ones of the seed, and the failure reported the lowest failing one.
///   - generator: the scenarios generated (`ScenarioGenerator`: presets, event kinds, event
///     and segment counts, horizon), to narrow or widen the search; the fuzzer's own unless
///     given.
/// - Returns: the fuzzer's report, for tests that assert on the failure itself; nil when the
///   corpus could not be used or the profile's reader could not read a row the app wrote
///   (both recorded as issues).
@discardableResult
public func fuzzLifecycle(
    of engine: EngineChoice, checking invariants: [Invariant] = Invariant.builtIn,
    seed: UInt64 = 1, cases: Int? = nil, seconds: Double? = nil, corpus: String? = nil,
    generator: ScenarioGenerator? = nil, sourceLocation: SourceLocation = #_sourceLocation
) -> FuzzReport? {
    let environment = ProcessInfo.processInfo.environment
    var settings = FuzzSettings(engine: engine)
    settings.seed = environment["LIFELINE_SEED"].flatMap(UInt64.init) ?? seed
    let budget = environment["LIFELINE_SECONDS"].flatMap(Double.init) ?? seconds
    settings.secondsMax = budget.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    settings.caseCount =
        environment["LIFELINE_CASES"].flatMap(Int.init) ?? cases
        ?? (settings.secondsMax == nil ? defaultCases : Int.max)
    if let generator { settings.generator = generator }
    settings.replaysProcessFailures = false
    // What does not apply to the app, as its profile declares it, is not judged (an app that
    // uploads nothing, `uploaded-once`), as under `lifeline fuzz`.
    settings.invariants = InvariantSelection().applied(
        to: invariants, profile: settings.generator.profile)
    settings.corpus = corpus.map { directory in
        if case .custom(let custom) = engine {
            FuzzCorpus(directory: directory, engines: [custom])
        } else {
            FuzzCorpus(directory: directory)
        }
    }
    let report: FuzzReport
    do {
        report = try Fuzzer.fuzz(settings)
    } catch let unreadable as UnreadableRow {
        Issue.record("bad input: \(unreadable)", sourceLocation: sourceLocation)
        return nil
    } catch {
        Issue.record("corpus: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    if let failure = report.failure {
        Issue.record(
            Comment(rawValue: failure.story + "\n\n" + replayAdvice(failure, settings: settings)),
            sourceLocation: sourceLocation)
    }
    return report
}

/// Cases run when neither a count nor a time budget is given.
let defaultCases = 100

/// How to see the failure again: a saved entry is replayed first by the same test; a built-in
/// engine's entry also by `lifeline replay`.
func replayAdvice(_ failure: FuzzFailure, settings: FuzzSettings) -> String {
    let test =
        Test.current.map { "swift test --filter '\($0.name.prefix { $0 != "(" })'" }
        ?? "swift test"
    let unsaved = failure.saveProblem.map { "not saved (\($0)); " } ?? ""
    guard let path = failure.corpusPath else {
        return unsaved
            + "replay: LIFELINE_SEED=\(settings.seed) LIFELINE_CASES=\(settings.caseCount) \(test)"
    }
    var advice = "saved to \(path); replay: \(test) (the corpus is replayed first)"
    if case .custom = settings.engine {} else { advice += ", or lifeline replay \(path)" }
    return advice
}
