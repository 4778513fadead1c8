// JSON output of the commands: arrays of flat objects, one per line, keys in the order given
// (so output is the same text on every run and platform).
import Simulation

/// `[ {…}, {…} ]` with one object per line; each field's value is already JSON text.
func jsonObjects(_ rows: [[(key: String, value: String)]]) -> String {
    "[\n" + rows.map { "  " + jsonObject($0) }.joined(separator: ",\n") + "\n]"
}

/// `{"key": value, …}` on one line, keys in the order given; each value is already JSON text.
func jsonObject(_ fields: [(key: String, value: String)]) -> String {
    "{" + fields.map { "\(PlainText.jsonQuoted($0.key)): \($0.value)" }.joined(separator: ", ")
        + "}"
}

/// `[a, b, …]` on one line; each value is already JSON text.
func jsonArray(_ values: [String]) -> String {
    "[" + values.joined(separator: ", ") + "]"
}

/// A number with three decimals, or `null`.
func jsonNumber(_ value: Double?) -> String {
    value.map { PlainText.fixed($0, digits: 3) } ?? "null"
}
