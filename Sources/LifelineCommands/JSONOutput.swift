// JSON output of the commands: arrays of flat objects, one per line, keys in the order given
// (so output is the same text on every run and platform).
import Simulation

/// `[ {…}, {…} ]` with one object per line; each field's value is already JSON text.
func jsonObjects(_ rows: [[(key: String, value: String)]]) -> String {
    "[\n"
        + rows.map { fields in
            "  {"
                + fields.map { "\(PlainText.jsonQuoted($0.key)): \($0.value)" }.joined(
                    separator: ", ")
                + "}"
        }.joined(separator: ",\n") + "\n]"
}

/// A number with three decimals, or `null`.
func jsonNumber(_ value: Double?) -> String {
    value.map { PlainText.fixed($0, digits: 3) } ?? "null"
}
