import Exploration
// Issue 25's truncation test for the property corpora committed under Corpus/ (the shrinking
// challenges' JSON files): cut at every byte offset, a file reads as the same case or is
// reported as a problem, never as another case.
import Foundation
import Testing

@Suite("Truncated property corpus files")
struct CorpusTruncationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test("every committed JSON corpus file cut at any byte reads the same case or is refused")
    func everyOffset() throws {
        let corpus = (Self.root as NSString).appendingPathComponent("Corpus")
        let files = (FileManager.default.subpaths(atPath: corpus) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 10)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-json-truncation-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var tried = 0
        for file in files {
            let property = (file as NSString).deletingLastPathComponent
            let whole = try PropertyCorpus(root: corpus, property: property)
                .read((corpus as NSString).appendingPathComponent(file)).get()
            let cut = PropertyCorpus(root: scratch, property: property)
            try FileManager.default.createDirectory(
                atPath: cut.directory, withIntermediateDirectories: true)
            let path = (cut.directory as NSString).appendingPathComponent(
                (file as NSString).lastPathComponent)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole.path))
            for offset in Self.cutOffsets(bytes) {
                try bytes.prefix(offset).write(to: URL(fileURLWithPath: path))
                if case .success(let entry) = cut.read(path) {
                    #expect(
                        entry.choices == whole.choices && entry.value == whole.value,
                        "\(file) cut at \(offset)")
                }
            }
            tried += bytes.count
        }
        // Every byte offset of the committed JSON corpus files: a count that moves only when
        // those files do.
        #expect(tried == Self.expectedOffsets)
    }

    static let expectedOffsets = 4_463

    /// The offsets to cut `bytes` at: every one when `LIFELINE_CASES` is set (`.ci/run`);
    /// otherwise those within two bytes of a JSON delimiter (`,` `:` `]` `}` `"`), where a cut
    /// could still parse, and every 8th offset between them.
    static func cutOffsets(_ bytes: Data) -> [Int] {
        guard ProcessInfo.processInfo.environment["LIFELINE_CASES"] == nil else {
            return Array(0..<bytes.count)
        }
        let delimiters = Set(",:]}\"\n".utf8)
        let bytes = Array(bytes)
        return (0..<bytes.count).filter { offset in
            offset % 8 == 0
                || bytes[max(0, offset - 2)...min(bytes.count - 1, offset + 2)].contains {
                    delimiters.contains($0)
                }
        }
    }
}
