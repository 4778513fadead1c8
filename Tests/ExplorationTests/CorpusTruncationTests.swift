// Issue 25's truncation test for the property corpora committed under Corpus/ (the shrinking
// challenges' JSON files): cut at every byte offset, a file reads as the same case or is
// reported as a problem, never as another case.
import Foundation
import Testing
import Exploration

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
            for offset in 0..<bytes.count {
                try bytes.prefix(offset).write(to: URL(fileURLWithPath: path))
                if case .success(let entry) = cut.read(path) {
                    #expect(
                        entry.choices == whole.choices && entry.value == whole.value,
                        "\(file) cut at \(offset)")
                }
            }
            tried += bytes.count
        }
        // Every byte offset of the committed JSON corpus files (issue 25's count).
        #expect(tried == Self.expectedOffsets)
    }

    static let expectedOffsets = 2_245
}
