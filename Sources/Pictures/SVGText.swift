// SVG elements as text (Pictures, layer 5): escaped text and attributes, and coordinates with a
// fixed number of decimals through `PlainText`, so a picture is the same bytes on every platform.
import Simulation

/// Builds SVG markup line by line. Coordinates print with one decimal (`PlainText.fixed`), text
/// and attribute values are escaped, attributes keep the order given.
struct SVGText {
    private(set) var lines: [String] = []
    private var depth = 0

    /// A coordinate or length with one decimal.
    static func number(_ value: Double) -> String { PlainText.fixed(value, digits: 1) }

    /// `text` escaped for element text and attribute values (`XMLText.escaped`).
    static func escaped(_ text: String) -> String { XMLText.escaped(text) }

    /// An attribute list: ` key="value"` for each, values escaped.
    static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }

    /// Opens an element; `close` ends it.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        append("<\(name)\(Self.attributes(attributes))>")
        depth += 1
    }

    mutating func close(_ name: String) {
        precondition(depth > 0, "an element is open")
        depth -= 1
        append("</\(name)>")
    }

    /// An element with no content, or with `title` as a tooltip (`<title>` inside it).
    mutating func element(_ name: String, _ attributes: [(String, String)], title: String? = nil) {
        guard let title else {
            append("<\(name)\(Self.attributes(attributes))/>")
            return
        }
        append(
            "<\(name)\(Self.attributes(attributes))><title>\(Self.escaped(title))</title></\(name)>"
        )
    }

    /// A text element.
    mutating func text(_ content: String, _ attributes: [(String, String)]) {
        append("<text\(Self.attributes(attributes))>\(Self.escaped(content))</text>")
    }

    private mutating func append(_ line: String) {
        lines.append(String(repeating: " ", count: depth) + line)
    }
}
