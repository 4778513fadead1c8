// The main job inside `swift test`: every correct built-in engine fuzzed against every
// built-in invariant (a bounded number of cases, which `LIFELINE_CASES` raises), and every
// mutant's shrunk story in Corpus/ replayed: it still fails as recorded, and the correct
// engine it was planted in passes the same story.
import EngineMutants
import Engines
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import Scenarios
import Testing

/// The repository's lifecycle corpus: `Corpus/ENGINE/INVARIANT-HASH.scenario`.
let lifecycleCorpus = FuzzCorpus(directory: repositoryCorpus)

@Suite("Lifecycle fuzzing")
struct LifecycleFuzzProperties {
    /// Cases per correct engine in an ordinary `swift test`; `LIFELINE_CASES` raises it.
    static let casesPerEngine = 40

    @Test(
        "a correct engine holds every invariant over generated lifecycles",
        arguments: BuiltInEngine.allCases)
    func correctEngineHoldsEveryInvariant(engine: BuiltInEngine) {
        let report = fuzzLifecycle(
            of: .builtIn(engine), seed: 1, cases: Self.casesPerEngine,
            corpus: repositoryCorpus)
        #expect(report?.failure == nil)
        let budget =
            ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init)
            ?? Self.casesPerEngine
        #expect(report?.cases == budget, "every case of the budget ran")
    }

    @Test("with a time budget and no case count, fuzzLifecycle runs cases until it is spent")
    func timeBudget() {
        let report = fuzzLifecycle(of: .builtIn(.session), seed: 5, seconds: 0.5)
        #expect(report?.failure == nil)
        #expect((report?.cases ?? 0) >= 1)
        #expect((report?.cases ?? Int.max) < 1_000_000, "bounded by the budget, not a count")
    }

    @Test(
        "a mutant's saved story still fails as recorded, in at most 8 external events",
        arguments: Mutant.allCases)
    func mutantStoryStillFails(mutant: Mutant) throws {
        let entries = try lifecycleCorpus.entries(engine: mutant.rawValue)
        #expect(!entries.isEmpty, "Corpus/\(mutant.rawValue) holds the mutant's shrunk story")
        for entry in entries {
            #expect(entry.scenario.engine.name == .mutant(mutant), "\(entry.path)")
            #expect(entry.scenario.events.count <= 8, "\(entry.path)")
            // An advice's story (starts-undetermined) fails its advice, as `--advice fail` does.
            let violations = try Fuzzer.check(
                entry.scenario, Invariant.builtIn + Invariant.advice
            ).violations
            #expect(
                violations.contains { $0.invariant == entry.invariant },
                "\(entry.path) no longer fails \(entry.invariant); replay: lifeline replay \(entry.path)"
            )
        }
    }

    @Test(
        "the correct engine passes every mutant's story: the failure is the planted mistake",
        arguments: Mutant.allCases)
    func baseEnginePassesMutantStory(mutant: Mutant) throws {
        for entry in try lifecycleCorpus.entries(engine: mutant.rawValue) {
            var scenario = entry.scenario
            scenario.engine.name = .builtIn(mutant.base)
            let violations = try Fuzzer.check(
                scenario, Invariant.builtIn + Invariant.advice
            ).violations
            #expect(violations.isEmpty, "\(entry.path) with \(mutant.base.rawValue): \(violations)")
        }
    }

    @Test(
        "fuzzLifecycle checks the invariants it is given: a team's own that always fails is the one reported"
    )
    func ownInvariantIsChecked() {
        let neverStores = Invariant(
            name: "never-stores", summary: "Nothing is ever stored (false for any engine)."
        ) { record in
            record.storedFixes.prefix(1).map { stored in
                Violation(
                    invariant: "never-stores", instant: stored.fix.instant,
                    explanation: "a fix was stored")
            }
        }
        var report: FuzzReport??
        withKnownIssue("the invariant is false by construction") {
            report = fuzzLifecycle(of: .builtIn(.session), checking: [neverStores], cases: 5)
        }
        #expect(report??.failure?.invariant == "never-stores")
        #expect(report??.failure?.violations.first?.explanation == "a fix was stored")
    }
}
