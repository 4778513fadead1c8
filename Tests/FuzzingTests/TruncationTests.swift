// Issue 25's truncation test: every committed scenario (docs/) and lifecycle corpus entry
// (Corpus/), cut at every byte offset, either reads as the same scenario or is refused; it
// never runs as another scenario.
import Foundation
import Scenarios
import Testing

@testable import Fuzzing

@Suite("Truncated files")
struct TruncationTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The committed files of `folder` (and its folders) whose names end in `suffix`, sorted.
    static func files(in folder: String, suffix: String) -> [String] {
        let base = (root as NSString).appendingPathComponent(folder)
        let names = FileManager.default.subpaths(atPath: base) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map {
            (base as NSString).appendingPathComponent($0)
        }
    }

    /// Cuts `path` at every offset from 0 to its size - 1 into a file of the same name in a
    /// scratch folder and reads it with `read`; returns the offsets tried and those that read
    /// as something other than the whole file (which must be none).
    static func truncations<Value: Equatable>(
        of path: String, read: (String) throws -> Value
    ) throws -> (tried: Int, wrong: [Int]) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let whole = try read(path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-truncation-\(ProcessInfo.processInfo.processIdentifier)"
                + "-\((path as NSString).lastPathComponent)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cut = (folder as NSString).appendingPathComponent((path as NSString).lastPathComponent)
        var wrong: [Int] = []
        for offset in cutOffsets(bytes) {
            try bytes.prefix(offset).write(to: URL(fileURLWithPath: cut))
            if let value = try? read(cut), value != whole { wrong.append(offset) }
        }
        return (bytes.count, wrong)
    }

    /// The offsets to cut `bytes` at: every one when `LIFELINE_CASES` is set (`.ci/run`);
    /// otherwise those within two bytes of a line's end, where a cut leaves whole lines that
    /// could read as a shorter file, and every 8th offset between them.
    static func cutOffsets(_ bytes: Data) -> [Int] {
        guard ProcessInfo.processInfo.environment["LIFELINE_CASES"] == nil else {
            return Array(0..<bytes.count)
        }
        let newline = UInt8(ascii: "\n")
        let bytes = Array(bytes)
        return (0..<bytes.count).filter { offset in
            offset % 8 == 0
                || bytes[max(0, offset - 2)...min(bytes.count - 1, offset + 2)].contains(newline)
        }
    }

    @Test(
        "every committed scenario and corpus entry cut at any byte reads the same or is refused")
    func everyOffset() throws {
        let scenarios = Self.files(in: "docs", suffix: ".scenario")
        let entries = Self.files(in: "Corpus", suffix: ".scenario")
        #expect(scenarios.count >= 2)
        #expect(entries.count >= 11)
        var tried = 0
        for path in scenarios {
            let result = try Self.truncations(of: path) { try Scenario(contentsOfFile: $0) }
            tried += result.tried
            #expect(result.wrong.isEmpty, "\(path): \(result.wrong)")
        }
        for path in entries {
            let result = try Self.truncations(of: path) {
                try FuzzCorpus.entry(atPath: $0).scenario
            }
            tried += result.tried
            #expect(result.wrong.isEmpty, "\(path): \(result.wrong)")
        }
        // Every byte offset of the docs/ scenarios and the corpus entries: a count that moves
        // only when those files do (a new or re-shrunk entry, an edited comment).
        #expect(tried == Self.expectedOffsets)
    }

    /// The bytes of the files above, as committed.
    static let expectedOffsets = 9_269

    @Test("without 'end' or the content hash, a cut file would read as a shorter scenario")
    func theGuardsAreNeeded() throws {
        // The check above could fail: a scenario cut after a whole event line, read without
        // requiring 'end', is another scenario.
        let path = (Self.root as NSString).appendingPathComponent(
            "docs/force-quit-session.scenario")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cut = String(text[..<text.range(of: "  5m force-quit")!.lowerBound])
        let whole = try Scenario(contentsOfFile: path)
        let shorter = try Scenario(parsing: cut, path: path)
        #expect(shorter != whole)
        #expect(throws: ScenarioParseError.self) {
            try Scenario(parsing: cut, path: path, requiresEnd: true)
        }
    }
}
