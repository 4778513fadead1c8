// The corpus (layer 2): failing cases saved as files, one per case, replayed before new ones.
import Foundation
import Simulation

/// A problem with one corpus file: it is reported by name and skipped, and the run goes on.
public struct CorpusProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// The saved failing cases of one property: `<directory>/<property>/<hash>.json`.
///
/// Each file holds the engine's format and version, the property's name, the value as it was
/// rendered, and the choice sequence that rebuilds it. Its name is the FNV-1a hash of its
/// content, it is written atomically (a temporary file, then a rename), and it never replaces
/// a different file. Files are read in name order. A truncated, foreign or unreadable file is
/// reported by name and skipped; nothing is ever deleted.
///
///     {
///       "choices" : [1, 0, 1, 1, 0],
///       "format" : "lifeline-corpus",
///       "property" : "reverse",
///       "value" : "[0, 1]",
///       "version" : 1
///     }
public struct PropertyCorpus: Sendable {
    /// The format name and version this engine writes and reads.
    public static let format = "lifeline-corpus"
    public static let version = 1

    /// The folder of this property's files.
    public let directory: String
    /// The property's name, as written in its files.
    public let property: String

    /// The corpus of `property` under `root` (a folder per property, its name made safe).
    public init(root: String, property: String) {
        let safe = String(
            property.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        directory = (root as NSString).appendingPathComponent(safe)
        self.property = property
    }

    /// One saved case.
    public struct Entry: Equatable, Sendable {
        public var path: String
        public var choices: [UInt64]
        public var value: String
    }

    struct FileContent: Codable {
        var format: String
        var version: Int
        var property: String
        var value: String
        var choices: [UInt64]
    }

    /// Every readable entry, in file-name order, and a problem for each file that is not one.
    public func entries() -> (entries: [Entry], problems: [CorpusProblem]) {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return ([], []) }
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
            return ([], [CorpusProblem(path: directory, reason: "the folder cannot be read")])
        }
        var entries: [Entry] = []
        var problems: [CorpusProblem] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            switch read(path) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): problems.append(problem)
            }
        }
        return (entries, problems)
    }

    /// Reads one file.
    public func read(_ path: String) -> Result<Entry, CorpusProblem> {
        guard FileManager.default.isReadableFile(atPath: path),
            let data = FileManager.default.contents(atPath: path)
        else {
            return .failure(CorpusProblem(path: path, reason: "the file cannot be read"))
        }
        let content: FileContent
        do {
            content = try JSONDecoder().decode(FileContent.self, from: data)
        } catch {
            return .failure(
                CorpusProblem(
                    path: path,
                    reason: "not a corpus file (expected a JSON object with "
                        + "format, version, property, value and choices): \(describeDecoding(error))"
                ))
        }
        guard content.format == Self.format else {
            return .failure(
                CorpusProblem(
                    path: path, reason: "format '\(content.format)', expected '\(Self.format)'"))
        }
        guard content.version == Self.version else {
            return .failure(
                CorpusProblem(
                    path: path,
                    reason: "version \(content.version), this engine reads \(Self.version)"))
        }
        guard content.property == property else {
            return .failure(
                CorpusProblem(
                    path: path,
                    reason: "saved for property '\(content.property)', not '\(property)'"))
        }
        return .success(Entry(path: path, choices: content.choices, value: content.value))
    }

    /// Saves a failing case; returns its path. Saving the same case again changes nothing.
    @discardableResult
    public func save(choices: [UInt64], value: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let content = FileContent(
            format: Self.format, version: Self.version, property: property, value: value,
            choices: choices)
        let data = try encoder.encode(content) + Data("\n".utf8)
        var hash = FNV1a64()
        for byte in data { hash.combine(byte: byte) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = (directory as NSString).appendingPathComponent(
            PlainText.hexadecimal16(hash.value) + ".json")
        if manager.fileExists(atPath: path) {
            if manager.contents(atPath: path) == data { return path }
            throw CorpusProblem(
                path: path, reason: "a different file already has this name; it was left as it is")
        }
        let temporary = (directory as NSString).appendingPathComponent(
            ".\(PlainText.hexadecimal16(hash.value)).tmp")
        guard manager.createFile(atPath: temporary, contents: data) else {
            throw CorpusProblem(path: temporary, reason: "the file cannot be written")
        }
        do {
            try manager.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? manager.removeItem(atPath: temporary)
            if manager.contents(atPath: path) == data { return path }
            throw CorpusProblem(
                path: path, reason: "the file cannot be written: \(error.localizedDescription)")
        }
        return path
    }
}

/// A decoding error in a few words, naming the key where it can.
func describeDecoding(_ error: Error) -> String {
    switch error as? DecodingError {
    case .keyNotFound(let key, _): return "the key '\(key.stringValue)' is missing"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
    case .dataCorrupted(let context):
        return context.codingPath.isEmpty
            ? "the JSON is malformed or truncated"
            : "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is malformed"
    default: return String(describing: error)
    }
}
