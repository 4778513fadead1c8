// The shrinking benchmark's challenges (`ShrinkingChallenge`) on Lifeline's engine:
// over the committed seeds, each of the published seven must reach tier A in every run, and
// each of our own (the structural three and the novel twelve) in at least 95 % of them.
// `lifeline bench shrink` prints the full table in a release build.
import Foundation
import ShrinkingChallenges
import Testing

/// Seeds per challenge in `swift test`: the first 20 committed seeds; `LIFELINE_CASES`
/// overrides (.ci/run sets 100, every committed seed, as `lifeline bench shrink` runs).
let challengeSeedCount =
    ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 20

@Suite("Shrinking challenges")
struct ShrinkingChallengeProperties {
    /// The share of runs reaching tier A that each published challenge must keep: all of them.
    static let publishedTierAShareMin = 1.0
    /// The share our structural challenges must reach (issue 12).
    static let structuralTierAShareMin = 0.95
    /// The share our novel challenges must reach: that of the structural ones.
    static let novelTierAShareMin = structuralTierAShareMin

    @Test(
        "every published challenge shrinks to its tier A minimum on every committed seed",
        arguments: ShrinkingChallenge.published.map(\.name))
    func tierA(challengeName: String) {
        check(challengeName, shareMin: Self.publishedTierAShareMin)
    }

    @Test(
        "each structural challenge shrinks to its tier A minimum on 95 % of the committed seeds",
        arguments: ShrinkingChallenge.structural.map(\.name))
    func structuralTierA(challengeName: String) {
        check(challengeName, shareMin: Self.structuralTierAShareMin)
    }

    @Test(
        "each novel challenge shrinks to its tier A minimum on 95 % of the committed seeds",
        arguments: ShrinkingChallenge.novel.map(\.name))
    func novelTierA(challengeName: String) {
        check(challengeName, shareMin: Self.novelTierAShareMin)
    }

    func check(_ challengeName: String, shareMin: Double) {
        let challenge = ShrinkingChallenge.named(challengeName)!
        let seeds = ShrinkingChallenge.benchmarkSeeds.prefix(challengeSeedCount)
        var misses: [String] = []
        var evaluations: [(seed: UInt64, count: Int)] = []
        for seed in seeds {
            let run = challenge.run(seed: seed)
            if run.found { evaluations.append((seed, run.evaluations)) }
            if run.tier != .a {
                misses.append(
                    "seed \(seed): \(run.found ? "tier \(run.tier!.rawValue) \(run.final!)" : "no failure found")"
                        + (run.replayToken.map { " (replay token \($0))" } ?? ""))
            }
        }
        let share = Double(seeds.count - misses.count) / Double(seeds.count)
        let report =
            "\(challengeName): tier A in \(seeds.count - misses.count) of \(seeds.count) runs\n"
            + misses.prefix(5).joined(separator: "\n")
            + "\nrerun: LIFELINE_CASES=<n> swift test --filter 'ShrinkingChallengeProperties'"
        #expect(share >= shareMin, Comment(rawValue: report))
        // The worst case (issue 12): no run over `worstOverMedianMax` times the median.
        let counts = evaluations.map(\.count).sorted()
        guard let worst = evaluations.max(by: { $0.count < $1.count }), !counts.isEmpty else {
            return
        }
        let median = Double(counts[(counts.count - 1) / 2] + counts[counts.count / 2]) / 2
        #expect(
            Double(worst.count) <= Double(ShrinkingChallenge.worstOverMedianMax) * median,
            Comment(
                rawValue: "\(challengeName): seed \(worst.seed) spent \(worst.count) evaluations, "
                    + "median \(median)"))
    }
}
