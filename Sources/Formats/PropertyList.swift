// An app's Info.plist as Lifeline reads it (file formats): the XML property list format's
// top-level dictionary, each key with its line, over the same streaming tokenizer as GPX. Only
// what an app's profile needs is kept: strings, booleans, arrays of strings, and which keys a
// nested dictionary holds; numbers, dates and data are read and kept as present.
import Foundation

/// Why a file is not an Info.plist Lifeline can read: the file, the line and what was expected.
public struct PropertyListError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String

    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
    }
}

/// The top-level dictionary of an XML property list (Apple's `plist` DTD, version 1.0), key by
/// key in file order. A binary property list is refused with the command that converts it
/// (`plutil -convert xml1`).
public struct PropertyList: Sendable, Equatable {
    /// One value of the top-level dictionary.
    public enum Value: Sendable, Equatable {
        case string(String)
        case boolean(Bool)
        /// An array; each element a string, or nil for any other kind of element, with the
        /// line of each element.
        case array([String?], lines: [Int])
        /// A dictionary, with the keys it holds (its values are not kept).
        case dictionary(keys: [String])
        /// A number, a date or data: present, not kept.
        case other
    }

    /// One key of the top-level dictionary, its value, and the line of its `<key>`.
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: Value
        public var line: Int
    }

    /// The top-level dictionary's entries, in file order.
    public var entries: [Entry]

    /// The entry for `key`, if the dictionary has one (the last, as Apple's reader keeps it).
    public func entry(_ key: String) -> Entry? { entries.last { $0.key == key } }

    /// Reads the property list at `path`.
    /// - Throws: `PropertyListError` naming the file, the line and what was expected.
    public static func read(file path: String) throws(PropertyListError) -> PropertyList {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PropertyListError(path: path, line: 0, message: "the file cannot be read")
        }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        try? handle.close()
        if head.starts(with: Array("bplist".utf8)) {
            throw PropertyListError(
                path: path, line: 0,
                message: "a binary property list; expected XML (plutil -convert xml1 FILE)")
        }
        guard let source = XMLByteSource(path: path, chunkSize: 65_536) else {
            throw PropertyListError(path: path, line: 0, message: "the file cannot be read")
        }
        return try read(source, path: path)
    }

    /// Reads a property list from `data`; `path` names it in errors.
    public static func read(data: Data, path: String) throws(PropertyListError) -> PropertyList {
        try read(XMLByteSource(data: data, chunkSize: 65_536), path: path)
    }

    private static func read(_ source: XMLByteSource, path: String) throws(PropertyListError)
        -> PropertyList
    {
        var parser = PropertyListParser(path: path, tokenizer: XMLTokenizer(source: source))
        defer { parser.tokenizer.close() }
        do {
            return try parser.run()
        } catch let error as PropertyListError {
            throw error
        } catch let error as XMLSyntaxError {
            throw PropertyListError(
                path: path, line: error.line,
                message: error.kind == .malformed
                    ? "not well-formed XML: \(error.message)" : error.message)
        } catch {
            throw PropertyListError(path: path, line: 0, message: "\(error)")
        }
    }
}

/// Reads the tokens of a `plist` document into its top-level dictionary's entries.
private struct PropertyListParser {
    let path: String
    var tokenizer: XMLTokenizer

    private func fail(_ line: Int, _ message: String) -> PropertyListError {
        PropertyListError(path: path, line: line, message: message)
    }

    /// The next start tag's name, its line and whether it closes itself; nil at an end tag.
    private mutating func nextStart() throws -> (name: String, line: Int, empty: Bool)? {
        switch try tokenizer.next() {
        case .start(let selfClosing): (tokenizer.nameText, tokenizer.tokenLine, selfClosing)
        case .end: nil
        case .endOfDocument: throw fail(tokenizer.line, "the document ends early")
        }
    }

    /// The text of the element just opened, up to its end tag (which it consumes).
    private mutating func text(of name: String, line: Int) throws -> String {
        tokenizer.text.removeAll(keepingCapacity: true)
        tokenizer.collectsText = true
        defer { tokenizer.collectsText = false }
        if try nextStart() != nil {
            throw fail(
                tokenizer.tokenLine, "expected text in <\(name)> (line \(line)), found an element")
        }
        return String(decoding: tokenizer.text, as: UTF8.self)
    }

    /// Skips the rest of the element just opened (its children and its end tag).
    private mutating func skipElement() throws {
        var depth = 1
        while depth > 0 {
            switch try tokenizer.next() {
            case .start(let selfClosing): if !selfClosing { depth += 1 }
            case .end: depth -= 1
            case .endOfDocument: throw fail(tokenizer.line, "the document ends early")
            }
        }
    }

    mutating func run() throws -> PropertyList {
        guard let root = try nextStart(), root.name == "plist" else {
            throw fail(tokenizer.tokenLine, "expected a <plist> document")
        }
        guard !root.empty, let top = try nextStart() else {
            throw fail(root.line, "expected a <dict> in <plist>")
        }
        guard top.name == "dict" else {
            throw fail(top.line, "expected the top level to be a <dict>, found <\(top.name)>")
        }
        var entries: [PropertyList.Entry] = []
        if !top.empty {
            while let keyTag = try nextStart() {
                guard keyTag.name == "key", !keyTag.empty else {
                    throw fail(keyTag.line, "expected a <key>, found <\(keyTag.name)>")
                }
                let key = try text(of: "key", line: keyTag.line)
                guard let valueTag = try nextStart() else {
                    throw fail(tokenizer.tokenLine, "expected a value after <key>\(key)</key>")
                }
                let value = try value(valueTag)
                entries.append(PropertyList.Entry(key: key, value: value, line: keyTag.line))
            }
        }
        if try nextStart() != nil {
            throw fail(tokenizer.tokenLine, "expected one <dict> in <plist>")
        }
        while case .start = try tokenizer.next() {
            throw fail(tokenizer.tokenLine, "expected the document to end after </plist>")
        }
        return PropertyList(entries: entries)
    }

    private mutating func value(_ tag: (name: String, line: Int, empty: Bool)) throws
        -> PropertyList.Value
    {
        switch tag.name {
        case "true", "false":
            if !tag.empty { try skipElement() }
            return .boolean(tag.name == "true")
        case "string":
            return .string(tag.empty ? "" : try text(of: "string", line: tag.line))
        case "array":
            var elements: [String?] = []
            var lines: [Int] = []
            if tag.empty { return .array(elements, lines: lines) }
            while let element = try nextStart() {
                lines.append(element.line)
                if element.name == "string" {
                    elements.append(
                        element.empty ? "" : try text(of: "string", line: element.line))
                } else {
                    if !element.empty { try skipElement() }
                    elements.append(nil)
                }
            }
            return .array(elements, lines: lines)
        case "dict":
            var keys: [String] = []
            if tag.empty { return .dictionary(keys: keys) }
            while let keyTag = try nextStart() {
                guard keyTag.name == "key", !keyTag.empty else {
                    throw fail(keyTag.line, "expected a <key>, found <\(keyTag.name)>")
                }
                let key = try text(of: "key", line: keyTag.line)
                keys.append(key)
                guard let inner = try nextStart() else {
                    throw fail(tokenizer.tokenLine, "expected a value after <key>\(key)</key>")
                }
                if !inner.empty { try skipElement() }
            }
            return .dictionary(keys: keys)
        case "integer", "real", "date", "data":
            if !tag.empty { try skipElement() }
            return .other
        default:
            throw fail(
                tag.line,
                "expected a value (string, true, false, array, dict, integer, real, date or "
                    + "data), found <\(tag.name)>")
        }
    }
}
