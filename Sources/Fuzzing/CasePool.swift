// The guided search's kept cases (layer 5): cases that reached a new lifecycle state or
// transition, and how the next case is made from them, deterministically for a seed.
import Exploration
import Scenarios
import Simulation

/// The cases a guided search keeps, and the inputs it makes from them.
///
/// A case that reaches an abstract lifecycle state or transition no earlier case reached
/// (`LifecycleStates.add`) is kept, with the path it reached. Each next case is, with chance
/// `mutationPercent` % (`mutationPercentRare` % once the pool holds a case whose energy is
/// above `rareEnergyMin`), one kept case mutated at the level of its choice sequence
/// (`ChoiceMutation`, 1 to `stackedMutationMax` edits), else drawn fresh as in random search.
///
/// The parent is drawn by energy (`weigh(by:)`): how rare the states and transitions it
/// reached are across every run so far (`LifecycleStates.energy(of:)`), as libFuzzer's
/// Entropic and AFLFast's power schedules spend their mutations on seeds that reach rarely
/// exercised features; one parent in `uniformParentOneIn` is drawn uniformly instead. A parent
/// whose mutants keep reaching its rare states makes them common, and its energy falls.
/// Energy is per cost (`weight(_:of:)`): a case that ran in fewer deliveries is worth more, up
/// to `cheapBoostMax` times, as AFL favours fast seeds; its mutants are as cheap, so the search
/// runs more cases in the same time.
///
/// Every decision is drawn from the case's own stream
/// (`Seed(seed).derive("guided").derive(caseIndex)`), so a case's input depends only on the
/// seed, its index and the pool it was made from. The fuzzer makes the cases of a batch
/// (`Fuzzer.guidedBatchSize` case positions) from the pool as it stood, and was weighed, after
/// the previous batch, and adds the batch's new cases in case order: so workers run a batch
/// side by side and the search is the same for any `--jobs`.
///
/// The pool holds `capacity` cases at most; past it, a new case replaces the kept case of the
/// least energy (the oldest of those), so memory stays flat and what reached rare states stays.
public struct CasePool: Sendable {
    // invariant: entries, paths, energies and serials have one element per kept case, at
    // most capacity; totals[i] is the sum of energies[0...i] as of the last weigh(by:).
    private(set) var entries: [PooledCase] = []
    private var paths: [LifecyclePath] = []
    private(set) var energies: [UInt64] = []
    private var serials: [UInt64] = []
    private var totals: [UInt64] = []
    private var addedCount: UInt64 = 0
    /// Cases kept at most.
    package let capacity: Int
    /// The default `capacity`. A small pool is a selection: once it is full, every case that
    /// reaches something new pushes out the kept case of the least energy, so the pool holds
    /// the cases that reached the rarest states and mutants are spent around them. Measured
    /// (`--engine session --jobs 1`, distinct states at 5,000 cases, seeds 1 to 3, and 8,000
    /// cases, seeds 4 and 5): 32 cases reached 1.21× to 1.23× the states of 256 on the first
    /// seeds, 1.01× and 1.06× on the others; 16 and 64 about as many as 32; 128 and 1,024 no
    /// more than 256 (docs/guided-search.md).
    package static let defaultCapacity = 32

    /// The chance, in percent, that a case is a mutant of a kept one (when one is kept).
    package static let mutationPercent: UInt64 = 50
    /// The chance once a kept case reached something rare (energy above `rareEnergyMin`):
    /// mutants of rare parents reach new states more often than fresh cases do once the
    /// common states are all found (measured: docs/guided-search.md).
    package static let mutationPercentRare: UInt64 = 90
    /// The energy above which a kept case counts as rare: one state or transition that at
    /// most 4 runs reached, for a case of typical cost (`weight(_:of:)`).
    static let rareEnergyMin = LifecycleStates.rarityScale / 4
    /// One parent in this many is drawn uniformly, not by energy.
    static let uniformParentOneIn: UInt64 = 8
    /// Edits stacked on one mutant, at most.
    package static let stackedMutationMax: UInt64 = 3
    /// The deliveries of a case of typical cost, which `weight(_:of:)` leaves as it is: about a
    /// simulated hour of a tracking app (`lifeline bench fuzz` measures 4,860 per scenario).
    static let typicalDeliveries = 5_000
    /// A case cheaper than typical weighs at most this many times its energy: a case that
    /// barely ran (the app never launched) is not worth mutating for its speed alone.
    static let cheapBoostMax = 4

    /// Mutants tried per case before a case falls back to fresh random choices: a mutant that
    /// builds an invalid scenario, or the parent's own scenario, is tried again.
    package static let attemptMax = 4

    package init(capacity: Int = defaultCapacity) {
        precondition(capacity >= 1, "a pool keeps at least one case")
        self.capacity = capacity
    }

    /// Cases kept.
    public var count: Int { entries.count }

    /// Keeps `entry`, which reached nothing weighed yet: energy 0 until `weigh(by:)`.
    public mutating func add(_ entry: PooledCase) {
        add(entry, path: LifecyclePath(), energy: 0)
    }

    /// Keeps `entry`, which reached `path`, worth `energy` now (`LifecycleStates.energy(of:)`);
    /// when full, it replaces the kept case of the least energy, the oldest of those.
    public mutating func add(_ entry: PooledCase, path: LifecyclePath, energy: UInt64) {
        let energy = Self.weight(energy, of: entry)
        defer {
            addedCount += 1
            assert(entries.count <= capacity && entries.count == energies.count)
        }
        guard entries.count == capacity else {
            entries.append(entry)
            paths.append(path)
            energies.append(energy)
            serials.append(addedCount)
            totals.append((totals.last ?? 0) + energy)
            return
        }
        var weakest = 0
        for index in entries.indices.dropFirst()
        where (energies[index], serials[index]) < (energies[weakest], serials[weakest]) {
            weakest = index
        }
        entries[weakest] = entry
        paths[weakest] = path
        energies[weakest] = energy
        serials[weakest] = addedCount
        weighTotals()
    }

    /// Weighs every kept case by the rarity of what it reached, as `states` counts it now
    /// (once per batch, before its cases are made).
    /// - Complexity: O(kept cases × states and transitions of each).
    public mutating func weigh(by states: LifecycleStates) {
        for index in paths.indices {
            energies[index] = Self.weight(states.energy(of: paths[index]), of: entries[index])
        }
        weighTotals()
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
        if !entries.isEmpty, random.nextBounded(below: 100) < currentMutationPercent {
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

    /// The chance, in percent, that a case is a mutant, as the pool stands.
    var currentMutationPercent: UInt64 {
        energies.contains { $0 > Self.rareEnergyMin }
            ? Self.mutationPercentRare : Self.mutationPercent
    }

    /// A kept case's index: drawn by energy (`weigh(by:)`), or uniformly one time in
    /// `uniformParentOneIn` and whenever no kept case has energy.
    func parentIndex(_ random: inout Xoshiro256StarStar) -> Int {
        let total = totals.last ?? 0
        guard total > 0, random.nextBounded(below: Self.uniformParentOneIn) != 0 else {
            return Int(random.nextBounded(below: UInt64(entries.count)))
        }
        let target = random.nextBounded(below: total)
        var (low, high) = (0, totals.count - 1)  // the first index whose running total > target
        while low < high {
            let middle = (low + high) / 2
            if totals[middle] > target { high = middle } else { low = middle + 1 }
        }
        assert(totals[low] > target && energies[low] > 0)
        return low
    }

    /// `energy` per cost: scaled by `typicalDeliveries` over the deliveries `entry` ran in (at
    /// least a `cheapBoostMax`-th of typical); as it is for a case not run. Measured
    /// (`--engine session --jobs 1`, seed 1): in 30 s, 12,278 cases and 1,567 states against
    /// 2,599 cases and 924 states unweighted and 4,324 cases and 756 states for random search;
    /// at 5,000 cases, 1,066 states against 1,153 unweighted (docs/guided-search.md).
    static func weight(_ energy: UInt64, of entry: PooledCase) -> UInt64 {
        guard entry.deliveries > 0 else { return energy }
        let cost = max(entry.deliveries, typicalDeliveries / cheapBoostMax)
        return energy * UInt64(typicalDeliveries) / UInt64(cost)
    }

    /// Running sums of `energies`, for `parentIndex`.
    private mutating func weighTotals() {
        var sum: UInt64 = 0
        totals = energies.map { energy in
            sum += energy
            return sum
        }
    }

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
            let mutation = ChoiceMutation.pick(&random)
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
