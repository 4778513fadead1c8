// Reading the values of a scenario file's words (layer 5): durations, numbers, switches,
// choices among names and `key=value` pairs, each failing with what it expected.
import Simulation

extension ScenarioTokenReader {
    /// What a duration looks like, for messages.
    static let durationForms = "a duration such as 90s, 5m or 1h30m"

    /// `token` as a duration of at most `limit` (`Scenario.durationMax` unless given; one
    /// check, so a value over both limits names the one that applies). `tooLong` is what a
    /// longer one fails with.
    func duration(
        _ token: ScenarioToken, _ what: String = durationForms,
        atMost limit: VirtualDuration = Scenario.durationMax, tooLong: String? = nil
    ) throws(ScenarioParseError) -> VirtualDuration {
        guard let duration = try? VirtualDuration(parsing: token.text) else {
            throw fail(token, expected: what)
        }
        guard duration <= limit else {
            throw fail(token, expected: tooLong ?? "a duration of at most \(limit)")
        }
        return duration
    }

    /// `token` as a duration with a sign (`+5m`, `-90s`; no sign is forward).
    func signedDuration(_ token: ScenarioToken, _ what: String) throws(ScenarioParseError)
        -> VirtualDuration
    {
        let negative = token.text.hasPrefix("-")
        let hasSign = negative || token.text.hasPrefix("+")
        var magnitudeToken = token
        magnitudeToken.text = String(token.text.dropFirst(hasSign ? 1 : 0))
        do {
            let magnitude = try duration(magnitudeToken, what)
            return negative ? .zero - magnitude : magnitude
        } catch {
            throw fail(token, expected: what)
        }
    }

    /// `token` as a finite number.
    func number(_ token: ScenarioToken, _ what: String) throws(ScenarioParseError) -> Double {
        guard let value = Double(token.text), value.isFinite else {
            throw fail(token, expected: what)
        }
        return value
    }

    /// `token` as `true` or `false`.
    func flag(_ token: ScenarioToken) throws(ScenarioParseError) -> Bool {
        try choice(token, "true or false", [("true", true), ("false", false)], listed: false)
    }

    /// The value named by `token` among `options`; the message lists the names when `listed`.
    func choice<Value>(
        _ token: ScenarioToken, _ what: String, _ options: [(name: String, value: Value)],
        listed: Bool = true
    ) throws(ScenarioParseError) -> Value {
        guard let option = options.first(where: { $0.name == token.text }) else {
            let names = options.map(\.name).joined(separator: ", ")
            throw fail(token, expected: listed ? "\(what) (\(names))" : what)
        }
        return option.value
    }

    /// `token` split at its first `=`: the key, and the value as a token at its own column.
    func keyValue(_ token: ScenarioToken, _ what: String) throws(ScenarioParseError)
        -> (key: ScenarioToken, value: ScenarioToken)
    {
        guard let equals = token.text.firstIndex(of: "=") else {
            throw fail(token, expected: what)
        }
        let key = String(token.text[..<equals])
        let value = String(token.text[token.text.index(after: equals)...])
        return (
            ScenarioToken(text: key, column: token.column),
            ScenarioToken(text: value, column: token.column + key.count + 1)
        )
    }

    /// The remaining words, each read as `key=value` with a key seen at most once.
    mutating func keyValues(_ what: String) throws(ScenarioParseError)
        -> [(key: ScenarioToken, value: ScenarioToken)]
    {
        var pairs: [(key: ScenarioToken, value: ScenarioToken)] = []
        while let token = peek {
            _ = try next(what)
            let pair = try keyValue(token, what)
            if pairs.contains(where: { $0.key.text == pair.key.text }) {
                throw fail(pair.key, "expected each key once, found a second '\(pair.key.text)'")
            }
            pairs.append(pair)
        }
        return pairs
    }
}
