// `lifeline fuzz` at scale: the same summary for any --jobs, shards that split the case
// indices, and exit code 2 with a clear message for parameters that cannot be used.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Fuzz command at scale")
struct FuzzScaleCommandTests {
    /// `lifeline fuzz` on a mutant that fails within a few cases (session-from-background under
    /// seed 4 unless told), into a fresh corpus at `corpus` (emptied first, so that nothing is
    /// replayed and the same entry is written).
    static func fuzz(
        _ options: [String], corpus: String,
        mutant: (engine: String, seed: String) = ("session-from-background", "4")
    ) -> (code: Int32, standard: String) {
        try? FileManager.default.removeItem(atPath: corpus)
        let result = runTool(
            [
                "fuzz", "--engine", mutant.engine, "--seed", mutant.seed, "--json",
                "--corpus", corpus,
            ] + options)
        return (result.code, result.standard)
    }

    /// The summary without its wall-clock `seconds` field.
    static func withoutSeconds(_ summary: String) -> String {
        summary.replacing(#/"seconds": [0-9.]+, /#, with: "")
    }

    @Test("the --json summary is the same with --jobs 1 and --jobs 2, failure and entry alike")
    func sameSummaryForAnyJobs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let corpus = folder.path("corpus")
        let one = Self.fuzz(["--cases", "40", "--jobs", "1"], corpus: corpus)
        let two = Self.fuzz(["--cases", "40", "--jobs", "2"], corpus: corpus)
        #expect(one.code == 1 && two.code == 1)
        #expect(one.standard.contains("\"corpusPath\": \"\(corpus)/session-from-background/"))
        #expect(one.standard.contains("\"case\": "))
        #expect(Self.withoutSeconds(one.standard) == Self.withoutSeconds(two.standard))
        #expect(Self.withoutSeconds(one.standard) != one.standard)
    }

    @Test("shards 1/2 and 2/2 run disjoint cases, and the unsharded failure is the earlier one")
    func shardsSplitTheSearch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let caseIndex = /"case": ([0-9]+)/
        // retry-without-idempotency under seed 2 fails at case 1 unsharded, at case 6 in shard
        // 1/2 and at case 1 in shard 2/2 (the earlier failure is the second shard's), each
        // shrunk to one event in a few runs.
        func failingCase(_ options: [String]) throws -> Int {
            let result = Self.fuzz(
                ["--cases", "60"] + options, corpus: folder.path("corpus"),
                mutant: ("retry-without-idempotency", "2"))
            #expect(result.code == 1)
            let match = try #require(result.standard.firstMatch(of: caseIndex))
            return Int(match.1)!
        }
        let whole = try failingCase([])
        let first = try failingCase(["--shard", "1/2"])
        let second = try failingCase(["--shard", "2/2"])
        #expect(first % 2 == 0 && second % 2 == 1)
        #expect(whole == min(first, second))
    }

    @Test(
        "impossible parameters exit 2 and say what is wrong",
        arguments: [
            (["--shard", "0/2"], "--shard: shard numbers run from 1 to 2, not 0 ('0/2')"),
            (["--shard", "3/2"], "--shard: shard numbers run from 1 to 2, not 3 ('3/2')"),
            (["--shard", "1/0"], "--shard: a search has at least 1 shard, not 0 ('1/0')"),
            (["--jobs", "0"], "--jobs takes a whole number from 1 to 1024, not '0'"),
            (["--seconds", "-1"], "--seconds: takes a positive number of seconds, not '-1'"),
        ] as [([String], String)])
    func impossibleParameters(options: [String], message: String) {
        let result = runTool(["fuzz", "--engine", "session", "--cases", "1"] + options)
        #expect(result.code == 2)
        #expect(result.error.hasPrefix("lifeline: \(message)\n"))
        #expect(result.standard.isEmpty)
    }

    @Test("bench fuzz refuses --jobs 0 and a negative --seconds with exit code 2")
    func benchParameters() {
        for options in [["--jobs", "0"], ["--seconds", "-1"]] {
            let result = runTool(["bench", "fuzz"] + options)
            #expect(result.code == 2, "\(options)")
            #expect(result.error.contains("lifeline: \(options[0])"), "\(options)")
        }
    }
}

@Suite("Fuzz command, guided")
struct GuidedFuzzCommandTests {
    @Test("--guided on gives the same --json summary with --jobs 1 and --jobs 2")
    func guidedSameSummaryForAnyJobs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        func summary(_ jobs: String) -> (code: Int32, standard: String) {
            try? FileManager.default.removeItem(atPath: folder.path("corpus"))
            let result = runTool(
                [
                    "fuzz", "--engine", "session", "--seed", "3", "--cases", "72", "--json",
                    "--guided", "on", "--jobs", jobs, "--corpus", folder.path("corpus"),
                ])
            return (result.code, FuzzScaleCommandTests.withoutSeconds(result.standard))
        }
        let one = summary("1")
        let two = summary("2")
        #expect(one.code == 0 && two.code == 0)
        #expect(one.standard.contains("\"cases\": 72, \"states\": "))
        #expect(one.standard.contains("\"transitions\": "))
        #expect(one.standard == two.standard)
    }

    @Test("--guided takes on or off: anything else exits 2 and says so")
    func guidedMaybe() {
        let result = runTool(["fuzz", "--engine", "session", "--cases", "1", "--guided", "maybe"])
        #expect(result.code == 2)
        #expect(result.error.hasPrefix("lifeline: --guided: takes on or off, not 'maybe'\n"))
        #expect(result.standard.isEmpty)
    }
}
