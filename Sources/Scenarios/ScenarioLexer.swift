// The words of a scenario file (layer 5): bytes split into lines as they arrive (a leading
// byte-order mark dropped; LF, CRLF and CR each end a line), lines split into tokens with
// their columns, comments and blank lines dropped, and a cursor over one line's tokens that
// names what it expected.

/// One word of a line and the column of its first character (from 1).
struct ScenarioToken {
    var text: String
    var column: Int
}

/// One line that holds something: its number (from 1), whether it is indented (a route
/// segment or an event), and its words up to a comment (a word starting with `#`).
struct ScenarioLine {
    var number: Int
    var isIndented: Bool
    // invariant: not empty
    var tokens: [ScenarioToken]
    /// The column just past the line's last word, where "the end of the line" is.
    var endColumn: Int
}

/// Splits scenario bytes into lines as they arrive, so that a file is read as a stream: at
/// most one line is held (plus the chunk being split), and each line is handed on as soon as
/// it ends. A UTF-8 byte-order mark at the very start is dropped; a line ends at LF, CRLF or a
/// lone CR, so files written on Windows or old Macs number their lines as an editor does.
/// A line longer than `Scenario.lineBytesMax` is an error at once (memory stays bounded by
/// that, not by the file's size), as are bytes that are not UTF-8 and control characters.
struct ScenarioLineSplitter {
    let path: String
    /// The bytes of the line being read.
    private var pending: [UInt8] = []
    /// The number of the line being read (from 1).
    private(set) var lineNumber = 1
    /// Bytes seen so far, to recognise a byte-order mark at the very start.
    private var offset = 0
    /// The last byte was a CR: a LF right after it ends nothing more.
    private var afterCarriageReturn = false
    /// Whether the last line ended with a line break (known once the bytes end).
    private(set) var endsWithLineBreak = true

    init(path: String) { self.path = path }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Splits `bytes`, the next part of the file, calling `line` for each line that ends in it.
    mutating func add(
        _ bytes: some Sequence<UInt8>,
        _ line: (ScenarioLine) throws(ScenarioParseError) -> Void
    ) throws(ScenarioParseError) {
        for byte in bytes {
            defer { offset += 1 }
            if offset < 3, pending.count == offset, Self.byteOrderMark[offset] == byte {
                pending.append(byte)
                if offset == 2 { pending.removeAll() }
                continue
            }
            if byte == 0x0A, afterCarriageReturn {
                afterCarriageReturn = false
                continue
            }
            afterCarriageReturn = byte == 0x0D
            if byte == 0x0A || byte == 0x0D {
                if let words = try ScenarioLexer.line(
                    number: lineNumber, bytes: pending, path: path)
                {
                    try line(words)
                }
                pending.removeAll(keepingCapacity: true)
                lineNumber += 1
                endsWithLineBreak = true
                continue
            }
            endsWithLineBreak = false
            pending.append(byte)
            guard pending.count <= Scenario.lineBytesMax else {
                throw ScenarioParseError(
                    path: path, line: lineNumber, column: 1,
                    message: "expected a line of at most \(Scenario.lineBytesMax) bytes, found "
                        + "a longer one (is this a scenario file?)")
            }
        }
    }

    /// Ends the bytes: the last line, if it holds anything, and where the file ends.
    mutating func finish(_ line: (ScenarioLine) throws(ScenarioParseError) -> Void)
        throws(ScenarioParseError) -> (line: Int, column: Int)
    {
        guard !endsWithLineBreak else { return (lineNumber, 1) }
        if let last = try ScenarioLexer.line(number: lineNumber, bytes: pending, path: path) {
            try line(last)
        }
        let column = String(decoding: pending, as: UTF8.self).count + 1
        return (lineNumber, column)
    }
}

/// Splits one line of a scenario file into words.
enum ScenarioLexer {
    /// One line of bytes (without its line break) as words, or nil when it holds none.
    /// - Throws: at the first byte that is not UTF-8, or a control character other than tab.
    static func line(number: Int, bytes: [UInt8], path: String) throws(ScenarioParseError)
        -> ScenarioLine?
    {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let (column, byte) = firstInvalidByte(bytes)
            throw ScenarioParseError(
                path: path, line: number, column: column,
                message: "expected UTF-8 text, found the byte \\x\(hex(byte)) (is this a scenario "
                    + "file?)")
        }
        let characters = Array(text)
        if let index = characters.firstIndex(where: isControl) {
            throw ScenarioParseError(
                path: path, line: number, column: index + 1,
                message: "expected printable text, found '\(escaped(String(characters[index])))'")
        }
        let tokens = words(of: characters)
        guard let last = tokens.last else { return nil }
        return ScenarioLine(
            number: number, isIndented: isBlank(characters.first ?? "x"),
            tokens: tokens, endColumn: last.column + last.text.count)
    }

    /// `text` with every character that does not print as itself (controls, the replacement
    /// character, a byte-order mark, other format characters) written as `\u{…}`, so that an
    /// error message never carries raw bytes to a terminal.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            let invisible =
                scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .unassigned
                || scalar.properties.generalCategory == .privateUse
                || scalar.properties.generalCategory == .surrogate || scalar == "\u{FFFD}"
            if invisible && scalar != "\t" {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The column (in characters, from 1) and value of the first byte of `bytes` that is not
    /// part of valid UTF-8.
    private static func firstInvalidByte(_ bytes: [UInt8]) -> (column: Int, byte: UInt8) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var consumed = 0
        var column = 1
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
            consumed += scalar.count
            column += 1
        }
        return (column, bytes[min(consumed, bytes.count - 1)])
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func isControl(_ character: Character) -> Bool {
        character != "\t"
            && character.unicodeScalars.contains {
                $0.properties.generalCategory == .control
            }
    }

    /// The words of one line, up to a comment.
    private static func words(of characters: [Character]) -> [ScenarioToken] {
        var tokens: [ScenarioToken] = []
        var index = 0
        while index < characters.count {
            if isBlank(characters[index]) {
                index += 1
                continue
            }
            if characters[index] == "#" { break }
            let start = index
            while index < characters.count, !isBlank(characters[index]) { index += 1 }
            tokens.append(
                ScenarioToken(text: String(characters[start..<index]), column: start + 1))
        }
        return tokens
    }

    private static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }
}

/// A cursor over one line's words after its first, for the parser: each read names what it
/// expected, so a missing or extra word is an error at its column.
struct ScenarioTokenReader {
    let line: ScenarioLine
    let path: String
    private(set) var index = 1

    init(_ line: ScenarioLine, path: String) {
        self.line = line
        self.path = path
    }

    /// The next word, if any, without moving.
    var peek: ScenarioToken? { index < line.tokens.count ? line.tokens[index] : nil }

    /// The next word.
    /// - Throws: "expected `expected`, found the end of the line" when there is none.
    mutating func next(_ expected: String) throws(ScenarioParseError) -> ScenarioToken {
        guard let token = peek else {
            throw ScenarioParseError(
                path: path, line: line.number, column: line.endColumn,
                message: "expected \(expected), found the end of the line")
        }
        index += 1
        return token
    }

    /// Moves past the next word if it is `word`.
    mutating func skip(_ word: String) -> Bool {
        guard peek?.text == word else { return false }
        index += 1
        return true
    }

    /// Checks that no word is left.
    func expectEnd(_ expected: String = "the end of the line") throws(ScenarioParseError) {
        if let token = peek { throw fail(token, expected: expected) }
    }

    /// "expected `expected`, found 'word'" at `token`.
    func fail(_ token: ScenarioToken, expected: String) -> ScenarioParseError {
        fail(token, "expected \(expected), found '\(ScenarioLexer.escaped(token.text))'")
    }

    /// `message` at `token`.
    func fail(_ token: ScenarioToken, _ message: String) -> ScenarioParseError {
        ScenarioParseError(path: path, line: line.number, column: token.column, message: message)
    }
}
