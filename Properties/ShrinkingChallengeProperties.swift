// The shrinking challenges of ../shared/bench/shrinking/CHALLENGES.md on Lifeline's engine:
// each over the committed seeds must reach tier A as often as it does today (all of them).
// `lifeline bench shrink` prints the full table in a release build.
import Foundation
import ShrinkingChallenges
import Testing

/// Seeds per challenge in `swift test` (LIFELINE_CASES overrides; the benchmark uses 100).
let challengeSeedCount =
    ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 100

@Suite("Shrinking challenges")
struct ShrinkingChallengeProperties {
    /// The share of runs reaching tier A that each challenge must keep: 100 % on every one.
    static let tierAShareMin = 1.0

    @Test(
        "every challenge shrinks to its tier A minimum on every committed seed",
        arguments: ShrinkingChallenge.all.map(\.name))
    func tierA(challengeName: String) {
        let challenge = ShrinkingChallenge.named(challengeName)!
        let seeds = ShrinkingChallenge.benchmarkSeeds.prefix(challengeSeedCount)
        var misses: [String] = []
        for seed in seeds {
            let run = challenge.run(seed: seed)
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
        #expect(share >= Self.tierAShareMin, Comment(rawValue: report))
    }
}
