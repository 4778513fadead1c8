// Saved cases in the repository's Corpus/ are replayed forever after: each written by an
// earlier process, each must still build its recorded value and still fail.
import Exploration
import Foundation
import ShrinkingChallenges
import Testing

/// The repository's `Corpus/` folder.
let repositoryCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Corpus").path

@Suite("Corpus replay")
struct CorpusReplayProperties {
    @Test(
        "every saved challenge counterexample still fails and renders as saved",
        arguments: ShrinkingChallenge.all.map(\.name))
    func challengeCorpus(challengeName: String) {
        let challenge = ShrinkingChallenge.named(challengeName)!
        let (entries, problems) = challenge.corpus(root: repositoryCorpus).entries()
        #expect(problems.isEmpty, "\(problems)")
        #expect(!entries.isEmpty, "Corpus/ holds a case for \(challengeName)")
        for entry in entries {
            let replay = challenge.replay(entry.choices)
            #expect(replay.rendered == entry.value, "\(entry.path) rebuilds \(replay.rendered)")
            #expect(replay.failure != nil, "\(entry.path) no longer fails")
        }
    }
}
