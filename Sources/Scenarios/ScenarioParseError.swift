// Why a scenario file cannot be read (layer 5): the file, the line, the column and what was
// expected there.

/// Why a `.scenario` file is not a scenario: where, and in words what was expected and what
/// was found (`commute.scenario:7:3: expected an event (open, leave, …), found 'forcequit'`).
///
/// Every problem of the text is one of these, thrown by `Scenario(parsing:path:)` and
/// `Scenario(contentsOfFile:)`; nothing in a file can trap. Lines and columns count from 1
/// (a column counts characters, a tab as one); a file that cannot be read has line 0.
public struct ScenarioParseError: Error, Equatable, CustomStringConvertible {
    /// The scenario file as it was named.
    public var path: String
    public var line: Int
    public var column: Int
    /// What was wrong, in words: "expected …, found …" wherever that fits.
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `text` as a message may show it: characters that do not print as themselves (controls,
    /// format characters, the replacement character) written as `\u{…}`.
    public static func escaped(_ text: String) -> String { ScenarioLexer.escaped(text) }

    /// `path:line:column: message`, or `path: message` for a file that cannot be read.
    public var description: String {
        line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)"
    }
}
