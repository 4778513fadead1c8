// The corpus: files named by content hash, written atomically, never overwriting; saved cases
// replayed before new ones; bad files reported by name while the rest replay.
import Foundation
import Testing

@testable import Exploration

/// A fresh temporary folder, removed by `defer` at the call site.
func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("lifeline-corpus-\(UInt64.random(in: 0...UInt64.max))").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite("Corpus")
struct CorpusTests {
    @Test("a saved case reads back; saving it again changes nothing")
    func roundTrip() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = PropertyCorpus(root: root, property: "Suite/reverse")
        let path = try corpus.save(choices: [1, 0, 1, 1, 0], value: "[0, 1]")
        #expect(try corpus.save(choices: [1, 0, 1, 1, 0], value: "[0, 1]") == path)
        let (entries, problems) = corpus.entries()
        #expect(problems.isEmpty)
        #expect(
            entries == [
                PropertyCorpus.Entry(path: path, choices: [1, 0, 1, 1, 0], value: "[0, 1]")
            ])
        #expect(path.hasSuffix(".json") && path.contains("Suite-reverse"))
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.directory)
        #expect(files.count == 1, "no temporary file left behind")
    }

    @Test("a name already taken by a different file is an error, and the file is kept")
    func neverOverwrites() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = PropertyCorpus(root: root, property: "p")
        let path = try corpus.save(choices: [3], value: "3")
        try Data("something else".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CorpusProblem.self) { try corpus.save(choices: [3], value: "3") }
        #expect(FileManager.default.contents(atPath: path) == Data("something else".utf8))
    }

    @Test(
        "truncated, foreign and unreadable files are reported by name; the rest replay; nothing is deleted"
    )
    func badFiles() throws {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = PropertyCorpus(root: root, property: "p")
        let good = try corpus.save(choices: [1, 900, 0], value: "[900]")
        let truncated = corpus.directory + "/aaaa-truncated.json"
        try Data(try String(contentsOfFile: good, encoding: .utf8).prefix(30).utf8).write(
            to: URL(fileURLWithPath: truncated))
        let foreign = corpus.directory + "/bbbb-foreign.json"
        try Data(
            #"{"format": "hypothesis", "version": 1, "property": "p", "value": "", "choices": []}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: foreign))
        let other = corpus.directory + "/cccc-other.json"
        try Data(#"{"some": "thing"}"#.utf8).write(to: URL(fileURLWithPath: other))
        // Root reads any file, so an unreadable one is a folder where a file should be.
        let unreadable = corpus.directory + "/dddd-unreadable.json"
        try FileManager.default.createDirectory(
            atPath: unreadable, withIntermediateDirectories: true)
        let newer = corpus.directory + "/eeee-newer.json"
        try Data(
            #"{"format": "lifeline-corpus", "version": 9, "property": "p", "value": "", "choices": []}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: newer))

        let (entries, problems) = corpus.entries()
        #expect(entries.map(\.path) == [good])
        #expect(problems.map(\.path) == [truncated, foreign, other, unreadable, newer])
        #expect(problems[0].reason.contains("malformed or truncated"))
        #expect(problems[1].reason.contains("format 'hypothesis'"))
        #expect(problems[2].reason.contains("'format' is missing"))
        #expect(problems[3].reason.contains("cannot be read"))
        #expect(problems[4].reason.contains("version 9"))

        let result = Explorer.explore(
            Gen.array(of: Gen<Int>.int(in: 0...1000)),
            settings: ExplorationSettings(seed: 1, caseCount: 0),
            corpus: corpus
        ) { list in try check(list.allSatisfy { $0 < 900 }) }
        #expect(result.corpusProblems.count == 5)
        #expect(result.failure?.origin == .corpus(path: good))
        #expect(result.failure?.value == [900])
        for path in [good, truncated, foreign, other, unreadable, newer] {
            #expect(FileManager.default.fileExists(atPath: path), "nothing is deleted")
        }
    }

    @Test("a failure found by exploration is saved and replayed first next time")
    func savedThenReplayed() {
        let root = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let corpus = PropertyCorpus(root: root, property: "sum")
        let generator = Gen.array(of: Gen<Int>.int(in: 0...100))
        let property: ([Int]) throws -> Void = { try check($0.reduce(0, +) < 150) }
        let first = Explorer.explore(
            generator, settings: ExplorationSettings(seed: 11), corpus: corpus, property: property)
        #expect(first.failure != nil)
        #expect(corpus.entries().entries.count == 1)
        let second = Explorer.explore(
            generator, settings: ExplorationSettings(seed: 999), corpus: corpus, property: property)
        #expect(second.failure?.origin == .corpus(path: corpus.entries().entries[0].path))
        #expect(second.failure?.value == first.failure?.value)
    }
}
