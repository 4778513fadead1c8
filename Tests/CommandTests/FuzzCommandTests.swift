// `lifeline fuzz` refuses what it cannot use, with exit code 2 and a clear message before any
// case runs: an unknown engine, a corpus folder it cannot write, an entry in a newer format.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Fuzz command")
struct FuzzCommandTests {
    @Test("an unknown --engine exits 2 and lists every known engine")
    func unknownEngine() {
        let result = runTool(["fuzz", "--engine", "nonesuch", "--cases", "1"])
        #expect(result.code == 2)
        #expect(
            result.error.hasPrefix(
                "lifeline: --engine: no engine is called 'nonesuch'; the engines are built-in "
                    + "location-runtime, session, standard, session-from-background"),
            "\(result.error)")
        #expect(result.standard.isEmpty)
    }

    @Test("progress ending on a whole hundred of cases is not printed again as the summary")
    func progressOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = runTool([
            "fuzz", "--engine", "session", "--cases", "100", "--corpus", folder.path,
        ])
        #expect(result.code == 0, "\(result.error)")
        let lines = result.error.split(separator: "\n")
        #expect(lines.count { $0.hasPrefix("session: 100 cases, ") } == 1, "\(result.error)")
    }

    @Test("a corpus folder that cannot be written (under a regular file) exits 2 before fuzzing")
    func unwritableCorpus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("file", "not a folder\n")
        let corpus = file + "/corpus"
        let result = runTool(["fuzz", "--engine", "session", "--cases", "1", "--corpus", corpus])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(corpus): the corpus folder cannot be written: \(file) is a file\n")
        #expect(result.standard.isEmpty)
        #expect(FileManager.default.contents(atPath: file) == Data("not a folder\n".utf8))
    }

    @Test("a corpus entry in a newer format is a warning naming the entry; with --strict, exit 2")
    func newerCorpusEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let entry = try folder.write(
            "session/uploaded-once-0000000000000000.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(engine: "session"),
                invariant: "uploaded-once", version: 99))
        let warned = runTool([
            "fuzz", "--engine", "session", "--cases", "1", "--corpus", folder.path,
        ])
        #expect(warned.code == 0)
        #expect(warned.error.contains("lifeline: warning: \(entry):1: written by a newer"))
        let result = runTool([
            "fuzz", "--engine", "session", "--cases", "1", "--corpus", folder.path, "--strict",
        ])
        #expect(result.code == 2)
        #expect(
            result.error.hasSuffix(
                "lifeline: \(entry):1: written by a newer Lifeline (corpus format 99; this one "
                    + "reads up to 1)\n"))
        #expect(result.standard.isEmpty)
    }
}
