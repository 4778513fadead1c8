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
    /// - Throws: `Problem` for the first entry that cannot be read (`load(engine:)` says why).
    public func entries(engine: String) throws -> [Entry] {
        let loaded = try load(engine: engine, strict: true)
        return loaded.entries
    }

    /// The entries saved for `engine` that can be read, in file-name order, and a warning for
    /// each one that cannot: a file that cannot be read (with the reason: a symlink loop, no
    /// permission), is not an entry, was written by a newer Lifeline, holds a scenario that
    /// does not parse (an engine that no longer exists among them), whose content hash is
    /// not the one in its name (edited or cut short: it would run as another scenario), or
    /// whose `engine` line names another engine than its folder. A missing folder has none.
    /// - Throws: `Problem` for the first of those when `strict`, or when the folder exists but
    ///   cannot be listed.
    public func load(engine: String, strict: Bool = false) throws
        -> (entries: [Entry], warnings: [Problem])
    {
        let folder = (directory as NSString).appendingPathComponent(engine)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            return ([], [])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw Problem(
                path: folder, line: 0,
                message: "cannot list the corpus folder: \(Self.reason(error))")
        }
        var entries: [Entry] = []
        var warnings: [Problem] = []
        for name in names.filter({ $0.hasSuffix("." + Self.fileExtension) }).sorted() {
            do {
                let entry = try read((folder as NSString).appendingPathComponent(name))
                let named = entry.scenario.engine.name.name
                guard named == engine else {
                    throw Problem(
                        path: entry.path, line: 0,
                        message: "its engine line names '\(named)' but it lies in the folder of "
                            + "'\(engine)': replayed there it would judge '\(named)' as if it "
                            + "were '\(engine)'")
                }
                entries.append(entry)
            } catch let problem as Problem {
                if strict { throw problem }
                warnings.append(problem)
            }
        }
        return (entries, warnings)
    }

    /// The folders of the corpus that hold entries but are named for no engine in `known` (an
    /// engine renamed or removed): their entries are never replayed, so each is a warning
    /// (folders of other files, such as the shrinking challenges' `.json`, are not). A missing
    /// corpus has none.
    public func unknownEngineFolders(known: [String]) -> [Problem] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return []
        }
        return names.sorted().compactMap { name in
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard !name.hasPrefix("."), !known.contains(name),
                FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue,
                let files = try? FileManager.default.contentsOfDirectory(atPath: path),
                files.contains(where: { $0.hasSuffix("." + Self.fileExtension) })
            else { return nil }
            return Problem(
                path: path, line: 0,
                message: "no engine is named '\(name)' (`lifeline engines` lists them): its "
                    + "entries are not replayed")
        }
    }

    /// Why the file at `path` cannot be opened for reading, in the system's words (`Too many
    /// levels of symbolic links`, `Permission denied`, `Is a directory`), or nil if it can.
    static func openFailure(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor < 0 else {
            var status = stat()
            let isDirectory = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            close(descriptor)
            return isDirectory ? "it is a directory" : nil
        }
        return String(cString: strerror(errno))
    }

    /// Why a file operation failed, in words: the system's reason (`Too many levels of
    /// symbolic links`, `Permission denied`) when it gives one.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(error.code))
        {
            return POSIXError(code).localizedDescription
        }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return reason(underlying)
        }
        return error.localizedDescription
    }

    /// Reads one entry of this corpus (`FuzzCorpus.entry(atPath:)`).
    public func read(_ path: String) throws -> Entry {
        try Self.entry(atPath: path, engines: engines)
    }

    /// Reads the corpus entry at `path`, wherever it lies: its header (the format version and
    /// the invariant it broke) and its scenario. `lifeline fuzz` replays entries through this,
    /// and `lifeline replay` reads one. A byte-order mark and CRLF or CR line endings are read
    /// as meant. A name that ends in `-HASH.scenario` (as saved) must carry the scenario's
    /// content hash, so an entry edited or cut short is refused rather than run as another
    /// scenario; any other name needs the scenario's closing `end`.
    /// - Throws: `Problem` for a file that cannot be read (with the reason), is not a corpus
    ///   entry (no `# lifeline corpus N` first line), was written in a newer format, records no
    ///   invariant, holds a scenario that does not parse (naming its line and column), or whose
    ///   content hash is not its name's.
    /// - Parameter engines: engines besides the built-in ones that the entry may name.
    public static func entry(atPath path: String, engines: [CustomEngine] = []) throws -> Entry {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Problem(
                path: path, line: 0,
                message: "cannot read the corpus entry: \(openFailure(path) ?? reason(error))")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw Problem(path: path, line: 0, message: "cannot read the corpus entry: not UTF-8")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // LF, CRLF ("\r\n" is one Character) and CR all end a line.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.first, first.hasPrefix(Self.formatTag) else {
            throw Problem(
                path: path, line: 1,
                message: "not a corpus entry: expected '\(Self.formatTag) \(Self.formatVersion)' "
                    + "on the first line")
        }
        let versionText = first.dropFirst(Self.formatTag.count).trimmingCharacters(in: .whitespaces)
        guard let version = Int(versionText) else {
            throw Problem(
                path: path, line: 1,
                message:
                    "expected a format version, found '\(ScenarioParseError.escaped(versionText))'")
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
        let namedHash = nameHash(path)
        let scenario: Scenario
        do {
            scenario = try Scenario(
                parsing: text, path: path, engines: engines, requiresEnd: namedHash == nil)
        } catch {
            throw Problem(
                path: path, line: error.line, column: error.column, message: error.message)
        }
        if let namedHash, case let hash = contentHash(scenario.description), hash != namedHash {
            throw Problem(
                path: path, line: 0,
                message: "the content hash in the name is \(namedHash) but the scenario's is "
                    + "\(hash): edited or cut short, it would replay another scenario")
        }
        return Entry(path: path, invariant: invariant, scenario: scenario)
    }

    /// The content hash a saved entry's name ends with (`…-0123456789abcdef.scenario`), if any.
    static func nameHash(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasSuffix("." + fileExtension) else { return nil }
        let stem = name.dropLast(fileExtension.count + 1)
        let hash = stem.suffix(16)
        guard hash.count == 16, stem.dropLast(16).last == "-",
            hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        else { return nil }
        return String(hash)
    }

    /// Where `save` puts `scenario` as a failure of `invariant` found in `engine`: known before
    /// the write, so that a failure is printed with its replay command first.
    public func entryPath(_ scenario: Scenario, engine: String, invariant: String) -> String {
        let folder = (directory as NSString).appendingPathComponent(engine)
        let name = "\(invariant)-\(Self.contentHash(scenario.description)).\(Self.fileExtension)"
        return (folder as NSString).appendingPathComponent(name)
    }

    /// Saves `scenario` as a failure of `invariant`; returns its path (`entryPath`). An entry
    /// with the same content is the same file, written again with the same text.
    /// - Throws: `Problem` when the folder cannot be made or the file written.
    public func save(
        _ scenario: Scenario, engine: String, invariant: String, found: String
    ) throws -> String {
        let path = entryPath(scenario, engine: engine, invariant: invariant)
        try Self.write(Self.entryText(scenario, invariant: invariant, found: found), toPath: path)
        return path
    }

    /// Writes an entry's `text` to `path` atomically, making its folders.
    /// - Throws: `Problem` when a folder cannot be made or the file written, with the system's
    ///   reason (`No space left on device`).
    public static func write(_ text: String, toPath path: String) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: parent(of: path), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw Problem(
                path: path, line: 0, message: "cannot write the corpus entry: \(reason(error))")
        }
    }

    /// A corpus entry's whole text: the header, then the scenario.
    public static func entryText(_ scenario: Scenario, invariant: String, found: String)
        -> String
    {
        [
            "\(formatTag) \(formatVersion)", "\(invariantTag) \(invariant)", "\(foundTag) \(found)",
        ].joined(separator: "\n") + "\n" + scenario.description
    }

    /// Fails when the folder cannot be written, before any exploration, without making it:
    /// the folder, or the nearest folder above it that exists, must be a writable folder.
    /// The corpus folder itself is made only when an entry is saved.
    public func checkWritable() throws {
        var path = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            path = Self.parent(of: path)
        }
        guard isDirectory.boolValue else {
            throw Problem(
                path: directory, line: 0,
                message: "the corpus folder cannot be written: \(path) is a file")
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw Problem(
                path: directory, line: 0,
                message: "the corpus folder cannot be written: \(path) is not writable")
        }
    }

    /// The folder that holds `path`: `.` for a relative name with no folder, `/` for a name in
    /// the root, so that walking up always ends at a folder that exists. Plain string work:
    /// Foundation's `deletingLastPathComponent` traps on some one-character paths on Linux.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// 16 hexadecimal digits of a 64-bit hash of `text`, the same on every platform.
    /// The closing `end` line is left out, so entries saved before the format had it keep
    /// their names (it can only be the last line of a scenario's text).
    static func contentHash(_ text: String) -> String {
        var hash = TraceHash()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false)
        where line != "end" {
            hash.fold(line: String(line))
        }
        return hash.hexadecimal
    }
}
