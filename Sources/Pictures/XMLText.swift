// XML escaping for the SVG pictures (Pictures, layer 5) and `lifeline sweep --svg`'s chart:
// the only XML Lifeline writes, so it lives here rather than in the kernel's `PlainText`.

/// Text for XML element text or attribute values.
public enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
