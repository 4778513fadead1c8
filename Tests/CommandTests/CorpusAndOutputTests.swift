// The CLI's smaller promises about files and words: a corpus entry filed under another
// engine's folder is a warning (an error under --strict); any path works as a corpus folder;
// an output is never the scenario it runs; the replay line names the tool that ran; a run's
// metrics count stored fixes through the app's reader; the first rejected fix of a process
// keeps its reason in a story's folded timeline.
import Engines
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Corpus and output paths")
struct CorpusAndOutputTests {
    @Test("an entry whose engine line names another engine than its folder: warned, not replayed")
    func entryInAnotherEnginesFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // It fails uploaded-once as the mutant; replayed as `standard`, it would pass silently.
        let entry = try folder.write(
            "standard/uploaded-once-misfiled.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.retryWithoutIdempotency(), invariant: "uploaded-once"))
        let arguments = ["fuzz", "--engine", "standard", "--cases", "1", "--corpus", folder.path]
        let warned = runTool(arguments)
        #expect(warned.code == 0, "\(warned.error)")
        #expect(
            warned.error.contains(
                "lifeline: warning: \(entry): its engine line names 'retry-without-idempotency' "
                    + "but it lies in the folder of 'standard'"), "\(warned.error)")
        let strict = runTool(arguments + ["--strict"])
        #expect(strict.code == 2, "\(strict.error)")
        #expect(strict.error.contains("its engine line names 'retry-without-idempotency'"))
    }

    @Test("a one-character relative corpus path works for fuzz and corpus merge")
    func oneCharacterCorpusPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Foundation's deletingLastPathComponent traps on "c". Neither command writes here:
        // the session engine passes its case, and the source folder holds no entry.
        #expect(!FileManager.default.fileExists(atPath: "c"), "a folder c would hide the walk up")
        let fuzzed = runTool(["fuzz", "--engine", "session", "--cases", "1", "--corpus", "c"])
        #expect(fuzzed.code == 0, "\(fuzzed.error)")
        try FileManager.default.createDirectory(
            atPath: folder.path("empty"), withIntermediateDirectories: true)
        let merged = runTool(["corpus", "merge", "c", folder.path("empty")])
        #expect(merged.code == 0, "\(merged.error)")
        #expect(!FileManager.default.fileExists(atPath: "c"))
    }

    @Test("run with an output named as its scenario is refused, exit 2, the scenario intact")
    func outputIsTheInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try folder.write("ok.scenario", SampleScenarios.passing)
        for option in ["--trace", "--chrome-trace", "--svg"] {
            let result = runTool(["run", scenario, option, scenario, "--replace"])
            #expect(result.code == 2, "\(option): \(result.error)")
            #expect(result.error.contains("is the scenario being run"), "\(result.error)")
            #expect(
                try String(contentsOfFile: scenario, encoding: .utf8) == SampleScenarios.passing)
        }
        // Another spelling of the same file is the same file.
        let other = folder.path("./ok.scenario")
        #expect(runTool(["run", scenario, "--trace", other, "--replace"]).code == 2)
    }

    @Test("the replay line names the executable that ran, not always lifeline")
    func replayLineNamesTheTool() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        final class Buffer: @unchecked Sendable { var standard = "" }
        let buffer = Buffer()
        let output = CommandOutput(
            standard: { buffer.standard += $0 + "\n" }, error: { _ in },
            toolName: "our-tracker-lifeline")
        let code = LifelineCommand.run(
            arguments: [
                "fuzz", "--engine", "stores-nothing", "--cases", "3", "--jobs", "1", "--corpus",
                folder.path,
            ], output: output)
        #expect(code == 1)
        #expect(
            buffer.standard.contains("\nreplay: our-tracker-lifeline replay \(folder.path)/"),
            "\(buffer.standard)")
    }

    @Test("run's metrics count stored fixes through the app's reader")
    func metricsReadThroughTheReader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The session engine's rows, read by a team whose reader finds no fix in any of them.
        var blind = CustomEngine(name: "blind-reader", summary: "reads no fix") { rules in
            BuiltInEngine.session.make(launchRules: rules)
        }
        blind.profile = BuiltInEngine.session.profile
        blind.profile.reader = FixReader { _ in nil }
        let text = SampleScenarios.passing.replacingOccurrences(
            of: "engine session", with: "engine blind-reader")
        let scenario = try folder.write("blind.scenario", text)
        let plain = runTool(["run", try folder.write("plain.scenario", SampleScenarios.passing)])
        #expect(!plain.standard.contains(", stored 0,"), "\(plain.standard)")
        let result = runTool(["run", scenario], engines: [blind])
        #expect(result.standard.contains(", stored 0, uploaded 0"), "\(result.standard)")
    }
}

extension CorpusAndOutputTests {
    @Test("replay of a no-state-outliving-process entry runs it twice and says why it passes alone")
    func replayStateOutlivingEntry() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let entry = try folder.write(
            "session/no-state-outliving-process-x.scenario",
            SampleScenarios.corpusEntry(
                SampleScenarios.passing, invariant: "no-state-outliving-process"))
        let result = runTool(["replay", entry])
        #expect(result.code == 0, "\(result.error)")
        #expect(
            result.standard.hasPrefix(
                "passes alone: no-state-outliving-process (engine session): run twice in one "
                    + "process, the scenario gives the same run."), "\(result.standard)")
    }
}
