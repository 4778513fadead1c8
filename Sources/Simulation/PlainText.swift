// Numbers and strings as text (layer 1), computed without Foundation's formatters so that
// traces, tables and JSON read the same on every platform.

/// Text that reads the same on every platform, for traces, tables and JSON: decimals computed
/// in integers, hexadecimal hashes, and JSON string literals (no Foundation formatter, no
/// locale). XML escaping, which only the pictures need, is `XMLText` in Pictures.
public enum PlainText {
    /// `value` in fixed notation with `digits` decimals (0 to 9), rounded half away from zero;
    /// no sign on a value that rounds to zero.
    public static func fixed(_ value: Double, digits: Int) -> String {
        precondition((0...9).contains(digits), "0 to 9 decimals")
        guard value.isFinite else { return String(value) }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        guard scaled < 9.2e18 else { return String(value) }
        let units = Int64(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(units) }
        return sign + String(units / scale) + "." + zeroPadded(units % scale, width: digits)
    }

    /// `count` and its noun, singular for exactly one: "1 corpus entry", "0 runs", "3 fixes".
    /// The plural is `singular` with an s unless given.
    public static func counted(_ count: Int, _ singular: String, plural: String? = nil)
        -> String
    {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// `value` as 16 lowercase hexadecimal digits.
    public static func hexadecimal16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
    public static func jsonQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}

/// `value` with leading zeros to `width` digits.
func zeroPadded(_ value: Int64, width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
        ? digits : String(repeating: "0", count: width - digits.count) + digits
}
