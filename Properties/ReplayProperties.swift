// Replay tokens: for 1,000 seeds of a failing property, the token of the shrunk case rebuilds
// the same value, which still fails.
import Exploration
import Testing

@Suite("Replay")
struct ReplayProperties {
    @Test("for 1,000 seeds, the replay token gives back the same shrunk value")
    func tokensReplay() throws {
        let generator = Gen.zip(
            Gen.array(of: Gen<Int>.int(in: -500...500), length: 0...20), Gen<Bool>.bool)
        let property: (([Int], Bool)) throws -> Void = { pair in
            try check(pair.0.reduce(0, +) < 300 || pair.1, "sum \(pair.0.reduce(0, +))")
        }
        var failures = 0
        for seed: UInt64 in 1...1_000 {
            let result = Explorer.explore(
                generator, settings: ExplorationSettings(seed: seed, caseCount: 100),
                describe: { "\($0)" }, property: property)
            guard let failure = result.failure else { continue }
            failures += 1
            let text = failure.replayToken.text
            let replay = Explorer.replay(
                try ReplayToken(parsing: text), generator, describe: { "\($0)" }, property: property
            )
            #expect(replay.description == failure.valueDescription, "seed \(seed): \(text)")
            #expect(replay.failure == failure.message, "seed \(seed): \(text)")
        }
        #expect(failures >= 900, "the property fails for most seeds, so the check means something")
    }
}
