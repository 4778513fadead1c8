// Replay tokens: for 1,000 seeds of a failing property, the token of the shrunk case rebuilds
// the same value, which still fails.
import Exploration
import ShrinkingChallenges
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

/// Tokens printed before issue 12's shrink passes, with the values they built then: the
/// challenges' minima (also in Corpus/) and one unshrunk list.
let tokensBeforeIssue12: [(challenge: String, token: String, value: String)] = [
    ("reverse", "lifeline1:AQABAQA", "[0, 1]"),
    ("reverse", "lifeline1:AQkBBgENAA", "[5, -3, 7]"),
    ("deletion", "lifeline1:AQABAAAA", "([0, 0], 0)"),
    ("nestedlists", "lifeline1:AQEBAQEBAQEBAQEBAAA", "[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]"),
    ("lengthlist", "lifeline1:AIQH", "[900]"),
    ("bound5", "lifeline1:AAAAAQIAAf__AwA", "([], [], [], [-1], [-32768])"),
    ("calculator", "lifeline1:AgAAAQAAAAA", "('/', 0, ('+', 0, 0))"),
    (
        "snapshot_store", "lifeline1:AQAAAAECAQAAAAECAQUBAwAAAA",
        "[put(0,0), s0 = snapshot(), put(0,0), s1 = snapshot(), compact(), read(s0, 0)]"
    ),
]

@Suite("Replay tokens across versions")
struct ReplayTokenVersionProperties {
    @Test("a token printed before issue 12 still replays to the same value", arguments: 0..<8)
    func olderTokensReplay(index: Int) throws {
        let (name, text, expected) = tokensBeforeIssue12[index]
        let challenge = try #require(ShrinkingChallenge.named(name))
        let replay = challenge.replay(try ReplayToken(parsing: text).choices)
        #expect(replay.rendered == expected, "\(text) for \(name)")
        #expect(replay.failure != nil, "every pinned value fails its challenge")
    }

    @Test("a token of another format version is reported as such, never replayed")
    func otherVersions() {
        for text in ["lifeline2:AQABAQA", "lifeline0:AQABAQA", "  lifeline12:AAE"] {
            #expect {
                try ReplayToken(parsing: text)
            } throws: { error in
                "\(error)".contains("is a format") && "\(error)".contains("not replayed")
            }
        }
        #expect(throws: ReplayToken.ParseError.self) { try ReplayToken(parsing: "lifelineX:AAE") }
        #expect((try? ReplayToken(parsing: "lifeline1:AQABAQA"))?.choices == [1, 0, 1, 1, 0])
    }
}
