// A reader for flat JSON objects (file formats) that keeps each key's line and each value's exact
// type, for policy files: errors name the line, and `true` is never confused with `1`.

/// One value of a flat JSON object.
public enum FlatJSONValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The value as JSON writes it (`"iOS99"`, `5`, `true`, `null`), for error messages.
    public var description: String {
        switch self {
        case .string(let text): "\"" + text + "\""
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15
                ? String(Int64(number)) : String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }

    /// The value's kind in words, for error messages.
    public var kind: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

/// Why a file is not a flat JSON object.
public struct FlatJSONError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

/// Reads `{"key": value, …}` where every value is a string, number, boolean or null; returns
/// the entries in file order with the line of each key. Duplicate keys are an error.
public func readFlatJSONObject(_ text: String) throws -> [(
    key: String, value: FlatJSONValue, line: Int
)] {
    var bytes = Array(text.utf8)
    // A UTF-8 byte-order mark, as some editors write, is not part of the text.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    var reader = FlatJSONReader(bytes: bytes)
    return try reader.object()
}

private struct FlatJSONReader {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func object() throws -> [(key: String, value: FlatJSONValue, line: Int)] {
        skipSpace()
        try expect(UInt8(ascii: "{"), "expected '{' to open the object")
        var entries: [(key: String, value: FlatJSONValue, line: Int)] = []
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                let keyLine = line
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let key = try string()
                if entries.contains(where: { $0.key == key }) {
                    throw FlatJSONError(line: keyLine, message: "the key '\(key)' appears twice")
                }
                skipSpace()
                try expect(UInt8(ascii: ":"), "expected ':' after the key '\(key)'")
                skipSpace()
                entries.append((key, try value(for: key), keyLine))
                skipSpace()
                if peek() == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "expected ',' or '}' after the value of '\(key)'")
                break
            }
        }
        skipSpace()
        guard index == bytes.count else { throw error("expected nothing after the object") }
        return entries
    }

    mutating func value(for key: String) throws -> FlatJSONValue {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try word("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try word("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try word("null")
            return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw error(
                "the value of '\(key)' must be a string, number or boolean, not a nested object or array"
            )
        default:
            let start = index
            while let byte = peek(),
                (48...57).contains(byte) || [43, 45, 46, 69, 101].contains(byte)
            { index += 1 }
            guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
                index > start
            else {
                throw error("expected a value for '\(key)'")
            }
            return .number(number)
        }
    }

    mutating func string() throws -> String {
        index += 1
        var scalars: [UInt8] = []
        while let byte = peek() {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek() else { break }
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): scalars.append(10)
                case UInt8(ascii: "t"): scalars.append(9)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                    scalars.append(escaped)
                default: throw error("unsupported escape in a string")
                }
            case 10, 13: throw error("a string does not end on its line")
            case 0..<32, 127:
                throw error("a control character (byte \(byte)) in a string; write it escaped")
            default: scalars.append(byte)
            }
        }
        throw error("a string is not closed")
    }

    mutating func word(_ text: String) throws {
        for byte in text.utf8 {
            guard peek() == byte else { throw error("expected \(text)") }
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8, _ message: String) throws {
        guard peek() == byte else { throw error(message) }
        index += 1
    }

    mutating func skipSpace() {
        while let byte = peek(), byte == 32 || byte == 9 || byte == 10 || byte == 13 {
            // LF, CRLF and a lone CR each end a line.
            if byte == 10 || (byte == 13 && index + 1 < bytes.count && bytes[index + 1] != 10)
                || (byte == 13 && index + 1 == bytes.count)
            {
                line += 1
            }
            index += 1
        }
    }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func error(_ message: String) -> FlatJSONError {
        FlatJSONError(
            line: line, message: index < bytes.count ? message : message + " (the file ends here)")
    }
}
