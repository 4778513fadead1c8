// The guided search: its report is the same for any worker count, its mutations replay to
// valid scenarios that differ from their parents, and the abstract lifecycle states and
// transitions it counts are deterministic and bounded.
import EngineMutants
import Engines
import Exploration
import Foundation
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Guided fuzzing")
struct GuidedFuzzTests {
    static var generator: Gen<Scenario> { ScenarioGenerator(engine: .builtIn(.session)).scenarios }

    /// A generated case of the session engine's generator, recorded.
    static func pooled(seed: UInt64) -> PooledCase? {
        let testCase = TestCase(seed: Seed(seed).derive("parent").value)
        _ = generator.generate(testCase)
        return testCase.status == .valid ? PooledCase(testCase) : nil
    }

    @Test("a guided report is the same on 1 and 2 workers: cases, states, transitions, failure")
    func sameReportForAnyJobCount() throws {
        // A mutant, so that the failure and its shrunk story are compared too; a correct
        // engine's guided summary is compared through the command line
        // (FuzzScaleCommandTests, and .ci/run across processes).
        for engine in [EngineChoice.mutant(.restoreAfterSlowWork)] {
            var reports: [FuzzReport] = []
            for jobs in 1...2 {
                var settings = FuzzSettings(engine: engine)
                settings.seed = 5
                // Past the first batch, so that 8 cases come from the pool.
                settings.caseCount = Fuzzer.guidedBatchSize + 8
                settings.isGuided = true
                settings.jobCount = jobs
                settings.shrinkEvaluationMax = 30
                settings.explainRunMax = 0
                reports.append(try Fuzzer.fuzz(settings))
            }
            let (one, two) = (reports[0], reports[1])
            #expect(one.cases == two.cases, "\(engine.name)")
            #expect(one.distinctStates == two.distinctStates, "\(engine.name)")
            #expect(one.distinctTransitions == two.distinctTransitions, "\(engine.name)")
            #expect(one.distinctTransitions > one.distinctStates / 2, "\(engine.name)")
            #expect(one.failure?.origin == two.failure?.origin, "\(engine.name)")
            #expect(
                one.failure?.scenario.description == two.failure?.scenario.description,
                "\(engine.name)")
        }
    }

    @Test("guided and random searches differ past the first batch, and agree within it")
    func guidanceChangesLaterBatches() throws {
        func report(guided: Bool, cases: Int) throws -> FuzzReport {
            var settings = FuzzSettings(engine: .builtIn(.session))
            settings.seed = 2
            settings.caseCount = cases
            settings.isGuided = guided
            settings.jobCount = 2
            return try Fuzzer.fuzz(settings)
        }
        let batch = Fuzzer.guidedBatchSize
        // Within the first batch nothing is pooled yet: a quarter of it shows the two alike.
        #expect(
            try report(guided: true, cases: batch / 4).distinctTransitions
                == report(guided: false, cases: batch / 4).distinctTransitions)
        // Two batches here, the second made from the pool; three with LIFELINE_CASES set.
        let batches = ProcessInfo.processInfo.environment["LIFELINE_CASES"] == nil ? 2 : 3
        #expect(
            try report(guided: true, cases: batches * batch).distinctTransitions
                != report(guided: false, cases: batches * batch).distinctTransitions)
    }

    @Test("every mutation replays to a valid scenario, and most differ from their parent")
    func mutationsReplayValid() throws {
        for mutation in ChoiceMutation.allCases {
            var differing = 0
            var trials = 0
            for seed in 0..<40 as Range<UInt64> {
                guard let parent = Self.pooled(seed: seed),
                    let donor = Self.pooled(seed: seed + 1_000)
                else { continue }
                var random = Xoshiro256StarStar(seed: Seed(seed).derive("mutation"))
                let choices = mutation.apply(to: parent, donor: donor, random: &random)
                let testCase = TestCase(prefix: choices)
                let scenario = Self.generator.generate(testCase)
                #expect(testCase.status == .valid, "\(mutation), seed \(seed)")
                #expect(scenario.events.first?.event == .open, "\(mutation), seed \(seed)")
                let original = Self.generator.generate(TestCase(prefix: parent.values))
                trials += 1
                if testCase.values != parent.values && scenario != original { differing += 1 }
            }
            #expect(trials >= 30)
            // A redrawn coin can come out as it was; every other edit changes the scenario
            // nearly always.
            #expect(differing * 10 >= trials * 6, "\(mutation): \(differing) of \(trials)")
        }
    }

    @Test("a pool's next cases are valid and never their parent's scenario")
    func poolInputsDiffer() throws {
        var pool = CasePool(capacity: 4)
        let parent = try #require(Self.pooled(seed: 7))
        pool.add(parent)
        let original = Self.generator.generate(TestCase(prefix: parent.values))
        for caseIndex in 0..<60 {
            let (testCase, scenario) = pool.input(
                caseIndex, seed: 3, generator: Self.generator, choiceCountMax: 2_000
            ) { TestCase(seed: Seed(3).derive(UInt64(caseIndex)).value) }
            #expect(testCase.status == .valid, "case \(caseIndex)")
            #expect(scenario != original, "case \(caseIndex)")
            // The same case from the same pool is the same scenario.
            let again = pool.input(
                caseIndex, seed: 3, generator: Self.generator, choiceCountMax: 2_000
            ) { TestCase(seed: Seed(3).derive(UInt64(caseIndex)).value) }
            #expect(again.scenario == scenario, "case \(caseIndex)")
        }
    }

    @Test("a full pool keeps its capacity, replacing its case of the least energy, oldest first")
    func poolIsBounded() throws {
        var pool = CasePool(capacity: 3)
        var entries: [PooledCase] = []
        for seed in 0..<10 as Range<UInt64> {
            if let entry = Self.pooled(seed: seed) { entries.append(entry) }
        }
        try #require(entries.count >= 6)
        for (entry, energy) in zip(entries, [5, 1, 7] as [UInt64]) {
            pool.add(entry, path: LifecyclePath(), energy: energy)
        }
        pool.add(entries[3], path: LifecyclePath(), energy: 9)
        #expect(pool.count == 3)
        #expect(pool.entries.map(\.values) == [0, 3, 2].map { entries[$0].values })
        #expect(pool.energies == [5, 9, 7])
        // Equal energies: the oldest goes first (entries[0], kept before entries[4]).
        pool.add(entries[4], path: LifecyclePath(), energy: 7)
        pool.add(entries[5], path: LifecyclePath(), energy: 6)
        #expect(pool.entries.map(\.values) == [4, 3, 5].map { entries[$0].values })
        #expect(pool.energies == [7, 9, 6])
    }

    @Test(
        "energy is per cost: a cheap case weighs more, at most 4 times, and a full pool drops the dear one"
    )
    func energyIsPerCost() throws {
        let valid = (0..<20 as Range<UInt64>).compactMap { Self.pooled(seed: $0) }
        try #require(valid.count >= 5)
        var (typical, dear, cheap) = (valid[0], valid[1], valid[2])
        var (barely, unrun) = (valid[3], valid[4])
        typical.deliveries = CasePool.typicalDeliveries
        dear.deliveries = 4 * CasePool.typicalDeliveries
        cheap.deliveries = CasePool.typicalDeliveries / 2
        barely.deliveries = 10
        unrun.deliveries = 0
        #expect(CasePool.weight(1_000, of: typical) == 1_000)
        #expect(CasePool.weight(1_000, of: dear) == 250)
        #expect(CasePool.weight(1_000, of: cheap) == 2_000)
        #expect(CasePool.weight(1_000, of: barely) == 1_000 * UInt64(CasePool.cheapBoostMax))
        #expect(CasePool.weight(1_000, of: unrun) == 1_000, "a case not run keeps its energy")

        var pool = CasePool(capacity: 2)
        pool.add(dear, path: LifecyclePath(), energy: 1_000)
        pool.add(typical, path: LifecyclePath(), energy: 1_000)
        pool.add(cheap, path: LifecyclePath(), energy: 1_000)
        #expect(pool.entries == [cheap, typical], "equal rarity: the dearest case goes")
        #expect(pool.energies == [2_000, 1_000])
    }

    @Test("a state or transition few runs reached is worth more than one many runs reached")
    func energyFollowsRarity() {
        var states = LifecycleStates()
        var common = LifecyclePath()
        common.states = [1, 2]
        common.transitions = [10]
        var rare = LifecyclePath()
        rare.states = [1, 3]
        rare.transitions = [11]
        states.add(common)
        states.add(common)
        states.add(rare)
        #expect(states.hits(ofState: 1) == 3)
        #expect(states.hits(ofState: 2) == 2)
        #expect(states.hits(ofState: 3) == 1)
        #expect(states.hits(ofState: 4) == 0)
        #expect(states.hits(ofTransition: 10) == 2)
        let scale = LifecycleStates.rarityScale
        #expect(states.energy(of: common) == scale / 3 + scale / 2 + scale / 2)
        #expect(states.energy(of: rare) == scale / 3 + scale + scale)
        // Adding again counts hits, not distinct states.
        let isNew = states.add(rare)
        #expect(!isNew)
        #expect(states.count == 3 && states.transitionCount == 2)
        #expect(states.hits(ofState: 3) == 2)
    }

    @Test("parents are drawn by energy, and one without energy still now and then")
    func parentsFollowEnergy() throws {
        var pool = CasePool(capacity: 4)
        let (plain, rare) = try (#require(Self.pooled(seed: 1)), #require(Self.pooled(seed: 2)))
        pool.add(plain, path: LifecyclePath(), energy: 0)
        pool.add(rare, path: LifecyclePath(), energy: 1_000)
        var random = Xoshiro256StarStar(seed: Seed(9).derive("parents"))
        var picks = [0, 0]
        for _ in 0..<800 { picks[pool.parentIndex(&random)] += 1 }
        // One in `uniformParentOneIn` (8) is uniform: about 50 of 800 go to the plain case.
        #expect(picks[1] > 700, "\(picks)")
        #expect(picks[0] > 10, "\(picks)")
        // Weighed by what states say now: both reached nothing, so the draw is uniform.
        pool.weigh(by: LifecycleStates())
        #expect(pool.energies == [0, 0])
        picks = [0, 0]
        for _ in 0..<800 { picks[pool.parentIndex(&random)] += 1 }
        #expect(picks[0] > 300 && picks[1] > 300, "\(picks)")
    }

    @Test("most edits redraw one choice, and every other edit still comes up")
    func editsAreMostlyRedraws() {
        var random = Xoshiro256StarStar(seed: Seed(4).derive("edits"))
        var counts = Array(repeating: 0, count: ChoiceMutation.allCases.count)
        for _ in 0..<1_200 { counts[ChoiceMutation.pick(&random).rawValue] += 1 }
        let redraws = counts[ChoiceMutation.redrawChoice.rawValue]
        #expect(redraws > 800 && redraws < 1_000, "\(counts)")  // 3 in 4: 900
        #expect(counts.allSatisfy { $0 > 20 }, "\(counts)")
    }

    @Test(
        "a run's states and transitions are the same every time, and adding them twice adds nothing"
    )
    func statesDeterministicAndBounded() throws {
        var all = LifecycleStates()
        for seed in 0..<12 as Range<UInt64> {
            let testCase = TestCase(seed: Seed(seed).derive("states").value)
            let scenario = Self.generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            let record = try scenario.record()
            let first = LifecyclePath(record)
            let second = LifecyclePath(try scenario.record())
            #expect(first == second, "seed \(seed)")
            #expect(!first.states.isEmpty, "seed \(seed)")
            #expect(Set(first.states).count == first.states.count, "each state once")
            #expect(Set(first.transitions).count == first.transitions.count)
            // Transitions are between consecutive different states: fewer than the entries.
            #expect(first.transitions.count < record.log.count)
            all.add(first)
            let (states, transitions) = (all.count, all.transitionCount)
            let isNew = all.add(first)
            #expect(!isNew, "nothing new the second time")
            #expect(all.count == states && all.transitionCount == transitions)
        }
        #expect(all.count > 10)
        #expect(all.count <= LifecycleStates.countMax)
    }

    @Test("a state holds the services held, an upload or commit in flight and readability")
    func stateSeesBehindTheLog() throws {
        var reached = (services: false, upload: false, commit: false, locked: false)
        for seed in 0..<30 as Range<UInt64> {
            let testCase = TestCase(seed: Seed(seed).derive("walk").value)
            let scenario = Self.generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            LifecycleState.walk(try scenario.record()) { state in
                if !state.services.isEmpty { reached.services = true }
                if state.isUploadInFlight { reached.upload = true }
                if state.isCommitInFlight { reached.commit = true }
                if !state.isDataReadable { reached.locked = true }
            }
        }
        #expect(reached.services && reached.upload && reached.commit)
        #expect(reached.locked)
    }
}
