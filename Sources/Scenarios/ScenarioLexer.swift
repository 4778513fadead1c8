// The words of a scenario file (layer 5): lines split into tokens with their columns, comments
// and blank lines dropped, and a cursor over one line's tokens that names what it expected.

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

/// Splits scenario text into lines of words.
enum ScenarioLexer {
    /// The non-blank lines of `text`, and where the file ends (line and column).
    static func lines(of text: String) -> (lines: [ScenarioLine], end: (line: Int, column: Int)) {
        let pieces = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [ScenarioLine] = []
        for (index, piece) in pieces.enumerated() {
            let characters = Array(piece.hasSuffix("\r") ? piece.dropLast() : piece)
            let tokens = words(of: characters)
            guard let last = tokens.last else { continue }
            lines.append(
                ScenarioLine(
                    number: index + 1, isIndented: isBlank(characters.first ?? "x"),
                    tokens: tokens, endColumn: last.column + last.text.count))
        }
        return (lines, (pieces.count, (pieces.last?.count ?? 0) + 1))
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
        fail(token, "expected \(expected), found '\(token.text)'")
    }

    /// `message` at `token`.
    func fail(_ token: ScenarioToken, _ message: String) -> ScenarioParseError {
        ScenarioParseError(path: path, line: line.number, column: token.column, message: message)
    }
}
