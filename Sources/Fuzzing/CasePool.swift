// The guided search's kept cases (layer 5): cases that reached a new lifecycle state or
// transition, and how the next case is made from them, deterministically for a seed.
import Exploration
import Scenarios
import Simulation

/// The cases a guided search keeps, and the inputs it makes from them.
///
/// A case that reaches an abstract lifecycle state or transition no earlier case reached
/// (`LifecycleStates.add`) is kept. Each next case is, with chance `mutationPercent` %, one
/// kept case mutated at the level of its choice sequence (`ChoiceMutation`, 1 to
/// `stackedMutationMax` edits), else drawn fresh as in random search. Every decision is drawn
/// from the case's own stream (`Seed(seed).derive("guided").derive(caseIndex)`), so a case's
/// input depends only on the seed, its index and the pool it was made from.
///
/// The fuzzer makes the cases of a batch (`Fuzzer.guidedBatchSize` case positions) from the
/// pool as it stood after the previous batch, and adds the batch's new cases in case order:
/// so workers run a batch side by side and the search is the same for any `--jobs`.
///
/// The pool holds `capacity` cases at most; past it, a new case replaces the oldest, so
/// memory stays flat.
public struct CasePool: Sendable {
    // invariant: entries.count <= capacity; oldest is the next to be replaced once full.
    private(set) var entries: [PooledCase] = []
    private var oldest = 0
    /// Cases kept at most.
    public let capacity: Int

    /// The chance, in percent, that a case is a mutant of a kept one (when one is kept).
    public static let mutationPercent: UInt64 = 50
    /// Edits stacked on one mutant, at most.
    public static let stackedMutationMax: UInt64 = 3
    /// Mutants tried per case before a case falls back to fresh random choices: a mutant that
    /// builds an invalid scenario, or the parent's own scenario, is tried again.
    public static let attemptMax = 4

    public init(capacity: Int = 256) {
        precondition(capacity >= 1, "a pool keeps at least one case")
        self.capacity = capacity
    }

    /// Cases kept.
    public var count: Int { entries.count }

    /// Keeps `entry`, replacing the oldest one when full.
    public mutating func add(_ entry: PooledCase) {
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
        assert(entries.count <= capacity)
    }

    /// Case `caseIndex`'s input, generated into a scenario by `generator`: a mutant of a kept
    /// case (its choices as a prefix, then its own stream past them), or fresh random choices
    /// (`fresh`). Returns the test case after generating and its scenario.
    public func input(
        _ caseIndex: Int, seed: UInt64, generator: Gen<Scenario>, choiceCountMax: Int,
        fresh: () -> TestCase
    ) -> (testCase: TestCase, scenario: Scenario) {
        let caseSeed = Seed(seed).derive(UInt64(caseIndex)).value
        var random = Xoshiro256StarStar(seed: Seed(seed).derive("guided").derive(UInt64(caseIndex)))
        if !entries.isEmpty, random.nextBounded(below: 100) < Self.mutationPercent {
            for _ in 0..<Self.attemptMax {
                let values = mutant(&random, generator: generator)
                let testCase = TestCase(
                    prefix: values.choices, seed: caseSeed, choiceCountMax: choiceCountMax)
                let scenario = generator.generate(testCase)
                guard testCase.status == .valid else { continue }
                let parent = generator.generate(TestCase(prefix: values.parent.values))
                if scenario != parent { return (testCase, scenario) }
            }
        }
        let testCase = fresh()
        return (testCase, generator.generate(testCase))
    }

    /// A kept case's index: half the time one of the `recentCount` kept last (what found the
    /// newest states is the likeliest to lead to more, as AFL favours fresh queue entries),
    /// else any.
    func parentIndex(_ random: inout Xoshiro256StarStar) -> Int {
        let count = UInt64(entries.count)
        guard random.nextBounded(below: 2) == 0 else {
            return Int(random.nextBounded(below: count))
        }
        let back = random.nextBounded(below: min(count, Self.recentCount))
        let newest =
            entries.count < capacity ? entries.count - 1 : (oldest + capacity - 1) % capacity
        return (newest - Int(back) + capacity) % capacity % max(entries.count, 1)
    }

    /// Kept cases counted as recent by `parentIndex`.
    static let recentCount: UInt64 = 16

    /// A mutant's choices, and its parent: 1 to `stackedMutationMax` edits, each on the
    /// sequence the previous one left, as replayed by `generator` (so that its spans are
    /// those of the edited scenario).
    func mutant(_ random: inout Xoshiro256StarStar, generator: Gen<Scenario>)
        -> (choices: [UInt64], parent: PooledCase)
    {
        let parent = entries[parentIndex(&random)]
        let editCount = random.nextBounded(below: Self.stackedMutationMax) + 1
        var current = parent
        var choices = parent.values
        for edit in 0..<editCount {
            let donor = entries[Int(random.nextBounded(below: UInt64(entries.count)))]
            let all = ChoiceMutation.allCases
            let mutation = all[Int(random.nextBounded(below: UInt64(all.count)))]
            choices = mutation.apply(to: current, donor: donor, random: &random)
            if edit + 1 < editCount {
                let replayed = TestCase(prefix: choices)
                _ = generator.generate(replayed)
                current = PooledCase(replayed)
            }
        }
        return (choices, parent)
    }
}
