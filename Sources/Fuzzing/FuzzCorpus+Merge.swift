// Folding corpus folders together (layer 5): the corpora of the shards of one search, or of
// several machines, copied into one, with the entries they share kept once.
import Foundation

extension FuzzCorpus {
    /// What a merge did.
    public struct MergeSummary: Sendable, Equatable {
        /// The entries copied in, as `ENGINE/NAME.scenario`, in the order copied.
        public var copied: [String]
        /// Entries left out because this corpus, or an earlier source, had them already.
        public var duplicateCount: Int
    }

    /// Copies every entry of the corpus folders `sources` (`ENGINE/NAME.scenario`; other files
    /// are not entries and are left out) into this corpus, making its folder if needed.
    ///
    /// An entry's name holds a hash of its scenario, so two folders that found the same shrunk
    /// scenario hold the same name. An entry whose name is taken already, here or by an
    /// earlier source, is a duplicate and left out when its text is the same apart from its
    /// `# found:` line (which only says which run found it; the first one kept wins). A taken
    /// name with another text is a conflict: nothing at all is written, and the error names
    /// both files. Sources are read in the order given, engines and entries in name order.
    /// - Throws: `Problem` for a source that is not a folder, a file that is not a corpus
    ///   entry, a conflict, or a destination that cannot be written.
    public func merge(from sources: [String]) throws -> MergeSummary {
        var planned: [String: (path: String, text: String)] = [:]  // lookups only
        var order: [String] = []
        var duplicateCount = 0
        for source in sources {
            for (name, path) in try Self.entryFiles(in: source) {
                let text = try Self.entryText(atPath: path)
                if let kept = try planned[name] ?? existingEntry(name) {
                    guard Self.sameEntry(kept.text, text) else {
                        throw Problem(
                            path: path, line: 0,
                            message: "differs from \(kept.path), which has the same name: "
                                + "not merged, nothing was written")
                    }
                    duplicateCount += 1
                    continue
                }
                planned[name] = (path, text)
                order.append(name)
            }
        }
        try checkWritable()
        for name in order {
            try Self.write(
                planned[name]!.text, toPath: (directory as NSString).appendingPathComponent(name))
        }
        return MergeSummary(copied: order, duplicateCount: duplicateCount)
    }

    // MARK: - Merging

    /// The path and text of this corpus's entry `name` (`ENGINE/NAME.scenario`), if it has one.
    func existingEntry(_ name: String) throws -> (path: String, text: String)? {
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return (path, try Self.entryText(atPath: path))
    }

    /// The entry files of the corpus folder `folder`: (`ENGINE/NAME.scenario`, path), engines
    /// and names in order.
    static func entryFiles(in folder: String) throws -> [(String, String)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            throw Problem(path: folder, line: 0, message: "not a corpus folder")
        }
        let engines = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var files: [(String, String)] = []
        for engine in engines.sorted() where !engine.hasPrefix(".") {
            let engineFolder = (folder as NSString).appendingPathComponent(engine)
            guard FileManager.default.fileExists(atPath: engineFolder, isDirectory: &isFolder),
                isFolder.boolValue
            else { continue }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: engineFolder)) ?? []
            for name in names.sorted() where name.hasSuffix("." + fileExtension) {
                files.append(
                    (engine + "/" + name, (engineFolder as NSString).appendingPathComponent(name)))
            }
        }
        return files
    }

    /// The text of the entry at `path`, checked to be a corpus entry by its first line.
    static func entryText(atPath path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { throw Problem(path: path, line: 0, message: "cannot read the corpus entry") }
        guard text.hasPrefix(formatTag) else {
            throw Problem(
                path: path, line: 1,
                message: "not a corpus entry: expected '\(formatTag) \(formatVersion)' on the "
                    + "first line")
        }
        return text
    }

    /// Whether two entry texts are the same apart from their `# found:` lines.
    static func sameEntry(_ left: String, _ right: String) -> Bool {
        func withoutFound(_ text: String) -> [Substring] {
            text.split(separator: "\n", omittingEmptySubsequences: false).filter {
                !$0.hasPrefix(foundTag)
            }
        }
        return left == right || withoutFound(left) == withoutFound(right)
    }
}
