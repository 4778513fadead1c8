// Replay tokens (layer 2): a failing case's choice sequence as one short line to paste.

/// A choice sequence written as one line: `lifeline1:` then the choices as LEB128 varints in
/// base64url. Replaying it rebuilds the same value, in any process.
///
///     let token = ReplayToken(choices: [1, 0, 1, 1, 0])
///     token.text                       // "lifeline1:AQABAQA"
///     try ReplayToken(parsing: token.text).choices == [1, 0, 1, 1, 0]
public struct ReplayToken: Hashable, Sendable, CustomStringConvertible {
    /// The choices to replay.
    public var choices: [UInt64]

    /// The token format: how choices are written, and how generators draw them. A change to
    /// either (a generator drawing its value from different choices) takes a new version, so
    /// that an older token is reported as such instead of building a different value.
    static let version = 1
    static let prefix = "lifeline\(version):"

    /// The version of a `lifeline<digits>:` token other than this build's, if `text` is one.
    static func otherVersion(_ text: String) -> Int? {
        guard text.hasPrefix("lifeline"), let colon = text.firstIndex(of: ":") else { return nil }
        let digits = text[text.index(text.startIndex, offsetBy: 8)..<colon]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }),
            digits.count <= 9,
            let version = Int(digits), version != Self.version
        else { return nil }
        return version
    }

    public init(choices: [UInt64]) { self.choices = choices }

    /// Why a text is not a replay token.
    public struct ParseError: Error, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String { "'\(text.prefix(40))' is not a replay token: \(reason)" }
    }

    /// Reads a token printed by `text`.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        if let version = Self.otherVersion(trimmed) {
            throw ParseError(
                text: text,
                reason: "it is a format \(version) token ('lifeline\(version):'); this build reads "
                    + "format \(Self.version) only, so it is not replayed rather than replayed wrongly"
            )
        }
        guard trimmed.hasPrefix(Self.prefix) else {
            throw ParseError(text: text, reason: "expected it to start with '\(Self.prefix)'")
        }
        guard let bytes = base64URLDecode(trimmed.dropFirst(Self.prefix.count)) else {
            throw ParseError(text: text, reason: "its body is not base64url")
        }
        var choices: [UInt64] = []
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            // The tenth byte of a varint may carry only the 64th bit.
            guard shift < 63 || (shift == 63 && byte & 0x7E == 0) else {
                throw ParseError(text: text, reason: "a choice has more than 64 bits")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                choices.append(value)
                value = 0
                shift = 0
            } else {
                shift += 7
            }
        }
        guard shift == 0 else {
            throw ParseError(text: text, reason: "it ends in the middle of a choice")
        }
        self.choices = choices
    }

    /// The one-line form.
    public var text: String {
        var bytes: [UInt8] = []
        for choice in choices {
            var rest = choice
            repeat {
                let low = UInt8(rest & 0x7F)
                rest >>= 7
                bytes.append(rest == 0 ? low : low | 0x80)
            } while rest != 0
        }
        return Self.prefix + base64URLEncode(bytes)
    }

    public var description: String { text }
}

private let base64URLAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

/// Base64url without padding.
func base64URLEncode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let chunk = bytes[index..<min(index + 3, bytes.count)]
        var word: UInt32 = 0
        for (offset, byte) in chunk.enumerated() {
            word |= UInt32(byte) << (16 - 8 * UInt32(offset))
        }
        for sextet in 0...chunk.count {
            output.append(base64URLAlphabet[Int(word >> (18 - 6 * UInt32(sextet)) & 0x3F)])
        }
        index += 3
    }
    return String(decoding: output, as: UTF8.self)
}

/// Bytes of unpadded base64url text, or nil when it is not base64url.
func base64URLDecode(_ text: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    var word: UInt32 = 0
    var bits = 0
    for character in text.utf8 {
        guard let value = base64URLAlphabet.firstIndex(of: character) else { return nil }
        word = word << 6 | UInt32(value)
        bits += 6
        if bits >= 8 {
            bits -= 8
            bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(bits)))
        }
    }
    return bits >= 6 ? nil : bytes
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end =
            scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) }
            ?? start
        return String(scalars[start..<end])
    }
}
