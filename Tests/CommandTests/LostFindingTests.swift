// A finding is never lost: `lifeline fuzz` prints a failure (its story and the command that
// replays it) before it writes the corpus entry, and a write that fails says where the entry
// is instead. The write is made to fail for real: the entry's path is taken by a folder.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Lost findings")
struct LostFindingTests {
    static let replayPrefix = "replay: lifeline replay "

    @Test("a corpus entry that cannot be written: the story is printed, a fallback saved, exit 2")
    func failedWriteKeepsTheFinding() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = ["fuzz", "--engine", "stores-nothing", "--cases", "5", "--jobs", "1"]
        let saved = runTool(arguments + ["--corpus", folder.path("saved")])
        #expect(saved.code == 1, "\(saved.error)")
        let savedPath = try #require(
            saved.standard.split(separator: "\n").first { $0.hasPrefix(Self.replayPrefix) }
        ).dropFirst(Self.replayPrefix.count)
        let entry = try String(contentsOfFile: String(savedPath), encoding: .utf8)
        let name = (String(savedPath) as NSString).lastPathComponent

        // The same entry's path in another corpus is a folder that holds a file: the write's
        // rename onto it fails, as a full disk makes a write fail.
        try folder.write("full/stores-nothing/\(name)/taken", "")
        let fallback = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "lifeline-unsaved-\(name)")
        try? FileManager.default.removeItem(atPath: fallback)
        defer { try? FileManager.default.removeItem(atPath: fallback) }
        let full = runTool(arguments + ["--corpus", folder.path("full")])
        #expect(full.code == 2, "\(full.error)")
        #expect(full.standard.hasPrefix("FAIL stores-nothing: bounded-gaps"), "\(full.standard)")
        #expect(
            full.standard.contains(
                Self.replayPrefix + folder.path("full/stores-nothing/\(name)")),
            "\(full.standard)")
        #expect(
            full.error.contains("lifeline: the failure could not be saved: "), "\(full.error)")
        #expect(full.error.contains("its corpus entry is in \(fallback) instead"))
        #expect(try String(contentsOfFile: fallback, encoding: .utf8) == entry)

        // Under --json the story is not printed: the summary carries the entry.
        let json = runTool(arguments + ["--json", "--corpus", folder.path("full")])
        #expect(json.code == 2, "\(json.error)")
        #expect(json.standard.contains("\"corpusPath\": null"), "\(json.standard)")
        #expect(json.standard.contains("\"entry\": \"# lifeline corpus 1\\n"))
        #expect(json.error.contains("in the summary's \"entry\""), "\(json.error)")
    }

    @Test("fuzz --help states every exit code")
    func exitCodesInHelp() {
        let help = runTool(["fuzz", "--help"]).standard
        for code in ["0 ", "1 ", "2 ", "3 ", "130 "] {
            #expect(help.contains("\n  " + code), "exit code \(code) in: \(help)")
        }
    }
}
