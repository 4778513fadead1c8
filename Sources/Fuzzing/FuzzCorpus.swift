// The corpus of failing scenarios (layer 5): one `.scenario` file per shrunk failure, named by
// its engine and a hash of its content, replayed before every exploration.
import Engines
import Foundation
import Scenarios
import Simulation

/// A folder of saved failures: `DIR/ENGINE/INVARIANT-HASH.scenario`. Each file is a scenario
/// in the text format, after a header of comment lines that say what it is:
///
///     # lifeline corpus 1
///     # invariant: no-fix-lost-after-restore
///     # found: lifeline fuzz --engine fix-acknowledged-before-commit --seed 1 --guided off …
///
/// The name's hash is of the scenario's text, so the same shrunk scenario found twice (by two
/// shards, say) is the same file.
public struct FuzzCorpus: Sendable {
    /// The header's first line, and the format version it carries.
    public static let formatTag = "# lifeline corpus"
    public static let formatVersion = 1
    static let invariantTag = "# invariant:"
    static let foundTag = "# found:"
    /// The file name's extension.
    public static let fileExtension = "scenario"

    /// The corpus folder.
    public let directory: String
    /// The engines besides the built-in ones that its entries may name.
    public let engines: [CustomEngine]

    public init(directory: String, engines: [CustomEngine] = []) {
        self.directory = directory
        self.engines = engines
    }

    /// One saved failure.
    public struct Entry: Sendable, Equatable {
        public var path: String
        /// The invariant it broke when it was saved.
        public var invariant: String
        public var scenario: Scenario
    }

    /// Why a corpus cannot be read or written.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        /// The line (from 1), or 0 for the file as a whole.
        public var line: Int
        /// The column (from 1), or 0 for the line as a whole.
        public var column = 0
        public var message: String

        public init(path: String, line: Int, column: Int = 0, message: String) {
            self.path = path
            self.line = line
            self.column = column
            self.message = message
        }

        public var description: String {
            let place = [path] + (line > 0 ? ["\(line)"] : []) + (column > 0 ? ["\(column)"] : [])
            return place.joined(separator: ":") + ": " + message
        }
    }

    /// The entries saved for `engine`, in file-name order (a missing folder has none).
    /// - Throws: `Problem` for an entry that cannot be read: a newer format, no invariant, or a
    ///   scenario that does not parse (its error names the file, line and column).
    public func entries(engine: String) throws -> [Entry] {
        let folder = (directory as NSString).appendingPathComponent(engine)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return []
        }
        return try names.filter { $0.hasSuffix("." + Self.fileExtension) }.sorted().map {
            try read((folder as NSString).appendingPathComponent($0))
        }
    }

    /// Reads one entry of this corpus (`FuzzCorpus.entry(atPath:)`).
    public func read(_ path: String) throws -> Entry {
        try Self.entry(atPath: path, engines: engines)
    }

    /// Reads the corpus entry at `path`, wherever it lies: its header (the format version and
    /// the invariant it broke) and its scenario. `lifeline fuzz` replays entries through this,
    /// and `lifeline replay` reads one.
    /// - Throws: `Problem` for a file that cannot be read, is not a corpus entry (no
    ///   `# lifeline corpus N` first line), was written in a newer format, records no
    ///   invariant, or holds a scenario that does not parse (naming its line and column).
    /// - Parameter engines: engines besides the built-in ones that the entry may name.
    public static func entry(atPath path: String, engines: [CustomEngine] = []) throws -> Entry {
        guard let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { throw Problem(path: path, line: 0, message: "cannot read the corpus entry") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix(Self.formatTag) else {
            throw Problem(
                path: path, line: 1,
                message: "not a corpus entry: expected '\(Self.formatTag) \(Self.formatVersion)' "
                    + "on the first line")
        }
        let versionText = first.dropFirst(Self.formatTag.count).trimmingCharacters(in: .whitespaces)
        guard let version = Int(versionText) else {
            throw Problem(path: path, line: 1, message: "expected a format version, found '\(versionText)'")
        }
        guard version <= Self.formatVersion else {
            throw Problem(
                path: path, line: 1,
                message: "written by a newer Lifeline (corpus format \(version); this one reads "
                    + "up to \(Self.formatVersion))")
        }
        guard
            let invariantLine = lines.first(where: { $0.hasPrefix(Self.invariantTag) }),
            case let invariant = invariantLine.dropFirst(Self.invariantTag.count)
                .trimmingCharacters(in: .whitespaces), !invariant.isEmpty
        else {
            throw Problem(path: path, line: 0, message: "expected a '\(Self.invariantTag)' line")
        }
        do {
            return Entry(
                path: path, invariant: invariant,
                scenario: try Scenario(parsing: text, path: path, engines: engines))
        } catch {
            throw Problem(path: path, line: error.line, column: error.column, message: error.message)
        }
    }

    /// Saves `scenario` as a failure of `invariant`; returns its path. An entry with the same
    /// content is the same file, written again with the same text.
    /// - Throws: `Problem` when the folder cannot be made or the file written.
    public func save(
        _ scenario: Scenario, engine: String, invariant: String, found: String
    ) throws -> String {
        let folder = (directory as NSString).appendingPathComponent(engine)
        let body = scenario.description
        let name = "\(invariant)-\(Self.contentHash(body)).\(Self.fileExtension)"
        let path = (folder as NSString).appendingPathComponent(name)
        let text =
            [
                "\(Self.formatTag) \(Self.formatVersion)", "\(Self.invariantTag) \(invariant)",
                "\(Self.foundTag) \(found)",
            ].joined(separator: "\n") + "\n" + body
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Problem(path: path, line: 0, message: "cannot write the corpus entry: \(error.localizedDescription)")
        }
        return path
    }

    /// Fails when the folder cannot be written, before any exploration: makes it if needed,
    /// and writes and removes a probe file.
    public func checkWritable() throws {
        let probe = (directory as NSString).appendingPathComponent(".lifeline-write-check")
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
            try Data().write(to: URL(fileURLWithPath: probe))
            try FileManager.default.removeItem(atPath: probe)
        } catch {
            throw Problem(path: directory, line: 0, message: "the corpus folder cannot be written")
        }
    }

    /// 16 hexadecimal digits of a 64-bit hash of `text`, the same on every platform.
    static func contentHash(_ text: String) -> String {
        var hash = TraceHash()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            hash.fold(line: String(line))
        }
        return hash.hexadecimal
    }
}
