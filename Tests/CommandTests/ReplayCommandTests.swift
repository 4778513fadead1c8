// `lifeline replay PATH`: an entry the fuzzer saved still fails as recorded; an entry whose
// scenario no longer breaks its invariant passes now; one that breaks another says so; a file
// that is not a corpus entry, a newer format or an unknown invariant exits 2.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Replay command")
struct ReplayCommandTests {
    @Test(
        "an entry lifeline fuzz saved still fails: exit 1 with its violations and compact timeline")
    func savedEntryStillFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fuzz = runTool([
            "fuzz", "--engine", "retry-without-idempotency", "--cases", "200", "--corpus",
            folder.path,
        ])
        #expect(fuzz.code == 1)
        let prefix = "replay: lifeline replay "
        let line = try #require(
            fuzz.standard.split(separator: "\n").first { $0.hasPrefix(prefix) },
            "fuzz prints how to replay its failure")
        let path = String(line.dropFirst(prefix.count))
        #expect(path.hasPrefix(folder.path + "/retry-without-idempotency/uploaded-once-"))

        let result = runTool(["replay", path])
        #expect(result.code == 1, "\(result.error)")
        let text = result.standard
        #expect(text.hasPrefix("still fails: uploaded-once (engine retry-without-idempotency)\n"))
        let repeated = try #require(SampleScenarios.firstRepeatedUpload(in: text))
        #expect(
            text.contains(
                "\n  \(repeated.instant) uploaded-once: fix at \(repeated.fix) was accepted by the server"
            ))
        #expect(!text.contains("also fails"))
        // The compact timeline: the launch, routine runs folded, the violations marked.
        #expect(text.contains(">> 00:00:00.000  process 1     launch foreground"))
        #expect(text.contains("\n.. 00:00:01.000  process 1     … "))
        #expect(text.contains("\n!! \(repeated.instant)  uploaded-once  fix at \(repeated.fix)"))
    }

    @Test("an entry whose scenario no longer breaks its invariant passes now: exit 0")
    func passesNow() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The same story on the correct session engine: its uploader retries under the key
        // it committed, so no fix is accepted twice.
        let path = try folder.write(
            "session/uploaded-once-fixed.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(engine: "session"),
                invariant: "uploaded-once"))
        let result = runTool(["replay", path])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.standard.hasPrefix("passes now: uploaded-once holds (engine session;"))
        #expect(!result.standard.contains("!!"))
    }

    @Test("an entry that now breaks a different invariant says which, and exits 1")
    func failsDifferently() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "retry/bounded-gaps-x.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(), invariant: "bounded-gaps"))
        let result = runTool(["replay", path])
        #expect(result.code == 1)
        #expect(
            result.standard.hasPrefix(
                "fails a different invariant: uploaded-once (engine retry-without-idempotency; "
                    + "bounded-gaps, as recorded, holds now)\n"))
        let repeated = try #require(SampleScenarios.firstRepeatedUpload(in: result.standard))
        #expect(result.standard.contains("\n!! \(repeated.instant)  uploaded-once  "))
    }

    @Test("a scenario file that is not a corpus entry exits 2: no header")
    func notAnEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("plain.scenario", SampleScenarios.passing)
        let result = runTool(["replay", path])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(path):1: not a corpus entry: expected '# lifeline corpus 1' on "
                + "the first line\n")
        #expect(result.standard.isEmpty)
    }

    @Test("an entry in a newer corpus format exits 2 and names the format")
    func newerFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "newer.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(), invariant: "uploaded-once",
                version: 99))
        let result = runTool(["replay", path])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(path):1: written by a newer Lifeline (corpus format 99; this one "
                + "reads up to 1)\n")
        #expect(result.standard.isEmpty)
    }

    @Test("an entry that records an invariant this Lifeline does not check exits 2")
    func unknownInvariant() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "unknown.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(), invariant: "no-teleporting"))
        let result = runTool(["replay", path])
        #expect(result.code == 2)
        #expect(result.error.contains("\(path): the entry records the invariant 'no-teleporting'"))
    }

    @Test("a missing entry exits 2 and names it; replay without a path is a usage error")
    func missing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("nonesuch.scenario")
        let result = runTool(["replay", path])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(path): cannot read the corpus entry: No such file or directory\n")
        let none = runTool(["replay"])
        #expect(none.code == 2 && none.error.contains("usage: lifeline replay PATH"))
    }
}
