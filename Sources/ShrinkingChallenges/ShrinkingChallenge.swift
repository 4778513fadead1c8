// The shrinking benchmark's challenges (a peer benchmark's seven, and our own) as runnable
// properties on Lifeline's engine: each knows its generator, property, rendering and tiers.
import Exploration

/// How good a final counterexample is (CHALLENGES.md §1.3): A is the expected minimum, B is
/// structurally minimal with values not fully simplified, C is anything else.
package enum Tier: String, Sendable, Comparable {
    case a = "A"
    case b = "B"
    case c = "C"
    package static func < (lhs: Tier, rhs: Tier) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What one seeded search of one challenge gave.
package struct ChallengeRun: Sendable {
    package var seed: UInt64
    /// True when a failure was found within the generation budget.
    package var found: Bool
    /// The first failing value and the final one, rendered as CHALLENGES.md §1.6 writes them.
    package var original: String?
    package var final: String?
    package var tier: Tier?
    /// Property evaluations while shrinking (the first failure excluded, §1.2).
    package var evaluations: Int
    package var shrinkBudgetExhausted: Bool
    package var replayToken: String?
    /// The final counterexample's choice sequence.
    package var choices: [UInt64]?
    /// What each shrink pass did in this run, in pass order.
    package var passStatistics: [ShrinkPassStatistics] = []
}

/// One challenge: a name, a seeded search, and the replay of a saved choice sequence.
package struct ShrinkingChallenge: Sendable {
    package let name: String
    private let search: @Sendable (ExplorationSettings) -> ChallengeRun
    private let replayer: @Sendable ([UInt64]) -> (rendered: String, failure: String?)

    /// A challenge over values of `generator`, rendered by `render`, tiered by `tier`.
    static func make<Value>(
        _ name: String, generator: @escaping @Sendable () -> Gen<Value>,
        render: @escaping @Sendable (Value) -> String, tier: @escaping @Sendable (Value) -> Tier,
        property: @escaping @Sendable (Value) throws -> Void
    ) -> ShrinkingChallenge {
        ShrinkingChallenge(
            name: name,
            replayer: { choices in
                let replay = Explorer.replay(
                    ReplayToken(choices: choices), generator(), describe: render, property: property
                )
                return (replay.description, replay.failure)
            }
        ) { settings in
            let gen = generator()
            let result = Explorer.explore(
                gen, settings: settings, describe: render, property: property)
            guard let failure = result.failure else {
                return ChallengeRun(
                    seed: settings.seed, found: false, evaluations: 0, shrinkBudgetExhausted: false)
            }
            let original = Explorer.replay(
                ReplayToken(choices: failure.originalChoices), gen,
                describe: render, property: property
            ).description
            return ChallengeRun(
                seed: settings.seed, found: true, original: original,
                final: failure.valueDescription,
                tier: tier(failure.value), evaluations: failure.shrinkEvaluations,
                shrinkBudgetExhausted: failure.shrinkBudgetExhausted,
                replayToken: failure.replayToken.text,
                choices: failure.shrunkChoices, passStatistics: failure.shrinkPassStatistics)
        }
    }

    private init(
        name: String,
        replayer: @escaping @Sendable ([UInt64]) -> (rendered: String, failure: String?),
        search: @escaping @Sendable (ExplorationSettings) -> ChallengeRun
    ) {
        self.name = name
        self.replayer = replayer
        self.search = search
    }

    /// Rebuilds the value `choices` name: its rendering, and the property's message if it fails.
    package func replay(_ choices: [UInt64]) -> (rendered: String, failure: String?) {
        replayer(choices)
    }

    /// This challenge's saved cases under a corpus root (`<root>/shrinking-<name>/`).
    package func corpus(root: String) -> PropertyCorpus {
        PropertyCorpus(root: root, property: "shrinking-" + name)
    }

    /// The bound on one run's shrinking: 5,000 evaluations, about 15 times the median of the
    /// costliest challenge (snapshot_store, about 320) and over 25 times every other one's. A
    /// run that reaches it stops and reports the simplest failing value it has; the table
    /// counts such runs and `--json` has them as `shrinkBudgetExhausted`. (Without the
    /// structure passes, one `difference` run spent 100,000 evaluations, 20,000 times its
    /// challenge's median.)
    package static let shrinkEvaluationMax = 5_000

    /// The most evaluations a run may spend, as a multiple of its challenge's median over the
    /// committed seeds; checked by Properties/ and `bench shrink --max-over-median`.
    package static let worstOverMedianMax = 20

    /// Searches with `seed`: at most `caseCount` cases (CHALLENGES.md §1.1 uses 1000), then
    /// shrinks within `shrinkEvaluationMax` evaluations.
    package func run(
        seed: UInt64, caseCount: Int = 1_000,
        shrinkEvaluationMax: Int = ShrinkingChallenge.shrinkEvaluationMax
    )
        -> ChallengeRun
    {
        var settings = ExplorationSettings(seed: seed, caseCount: caseCount)
        settings.shrinkEvaluationMax = shrinkEvaluationMax
        settings.invalidCaseMax = 100 * caseCount
        return search(settings)
    }

    /// The seven challenges of CHALLENGES.md, in its order, then ours.
    package static let all: [ShrinkingChallenge] = published + structural + novel

    /// The seven challenges of CHALLENGES.md, in its order: each reaches tier A in every run.
    package static let published: [ShrinkingChallenge] = [
        reverse, deletion, nestedLists, lengthList, bound5, calculator, snapshotStore,
    ]

    /// Our challenges for structures the list challenges miss: a difference, a full list, a heap.
    package static let structural: [ShrinkingChallenge] = [difference, maxLength, heap]

    /// Our challenges for shapes the passes were not written for (N01 to N12): positions that
    /// change in pairs, ordered and distinct values, nested sums, hash collisions, pairs of
    /// numbers tied by a difference or a sum, a heap-ordered tree, times drawn as gaps.
    package static let novel: [ShrinkingChallenge] = [
        repeatedPair, palindrome, sortedTriple, distinct, nestedSum, hashSmall, hashLarge,
        closePair, notOne, budget, heapOrder, gaps,
    ]

    /// The sets `bench shrink --set` runs, by name, in order.
    package static let sets: [(name: String, challenges: [ShrinkingChallenge])] = [
        ("published", published), ("structural", structural), ("novel", novel),
    ]

    /// The challenge called `name`, if any.
    package static func named(_ name: String) -> ShrinkingChallenge? {
        all.first { $0.name == name }
    }

    /// The committed seeds of CHALLENGES.md §1.1: 1337 through 1436.
    package static let benchmarkSeeds: [UInt64] = Array(1337...1436)
}

/// `[a, b, c]`.
func renderList<Element>(_ elements: [Element], _ render: (Element) -> String = { "\($0)" })
    -> String
{
    "[" + elements.map(render).joined(separator: ", ") + "]"
}
