// Reading and writing durations as people write them (layer 1): `90s`, `15m`, `1h30m`, `250ms`.

/// Why a text is not a duration; names the text and what was expected.
public struct DurationParseError: Error, Equatable, CustomStringConvertible {
    /// The text that was rejected.
    public var text: String
    /// What was wrong with it, in words.
    public var reason: String

    public var description: String {
        "'\(text)' is not a duration (\(reason)); expected a form such as 90s, 15m, 1h30m, 1.5s or 250ms"
    }
}

extension VirtualDuration {
    /// The units a duration may be written in, longest name first so `ms` wins over `m`.
    static let units: [(name: String, nanoseconds: Int64)] = [
        ("ms", 1_000_000), ("us", 1_000), ("ns", 1), ("d", 86_400_000_000_000),
        ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000),
    ]

    /// Parses one or more `<number><unit>` terms (`1h30m`, `1.5s`, `250ms`); `0` alone is zero.
    /// Units: d, h, m, s, ms, us, ns. Fractions must come to a whole number of nanoseconds.
    /// - Throws: `DurationParseError` naming the text and the problem; never traps.
    public init(parsing text: String) throws {
        if text == "0" {
            self = .zero
            return
        }
        var rest = Substring(text)
        var total: Int64 = 0
        guard !rest.isEmpty else { throw DurationParseError(text: text, reason: "it is empty") }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty else {
                throw DurationParseError(text: text, reason: "expected a number at '\(rest)'")
            }
            rest = rest.dropFirst(number.count)
            guard let unit = Self.units.first(where: { rest.hasPrefix($0.name) }) else {
                throw DurationParseError(text: text, reason: "expected a unit after '\(number)'")
            }
            rest = rest.dropFirst(unit.name.count)
            let term = try Self.nanoseconds(of: number, unit: unit.nanoseconds, in: text)
            let (sum, overflow) = total.addingReportingOverflow(term)
            guard !overflow else { throw DurationParseError(text: text, reason: "it is too long") }
            total = sum
        }
        self.init(nanoseconds: total)
    }

    /// Exact nanoseconds of `number` (digits, optionally with one fraction) times `unit`.
    static func nanoseconds(of number: Substring, unit: Int64, in text: String) throws -> Int64 {
        let pieces = number.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = Int64(pieces[0].isEmpty ? "0" : pieces[0]) else {
            throw DurationParseError(text: text, reason: "'\(number)' is not a number")
        }
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow else { throw DurationParseError(text: text, reason: "it is too long") }
        guard pieces.count == 2 else { return wholeNanoseconds }
        let fractionDigits = pieces[1]
        guard !fractionDigits.isEmpty, fractionDigits.count <= 18,
            let fraction = Int64(fractionDigits)
        else { throw DurationParseError(text: text, reason: "'\(number)' is not a number") }
        var scale: Int64 = 1
        for _ in 0..<fractionDigits.count { scale *= 10 }
        // unit <= 8.64e13 and fraction < 1e18: multiply in 128 bits to stay exact.
        let product = fraction.multipliedFullWidth(by: unit)
        let (quotient, remainder) = scale.dividingFullWidth(product)
        guard remainder == 0 else {
            throw DurationParseError(text: text, reason: "'\(number)' is finer than a nanosecond")
        }
        return wholeNanoseconds + quotient
    }
}

extension VirtualDuration: CustomStringConvertible {
    /// The compact form that `init(parsing:)` reads back: `1h30m`, `11.5s`, `250ms`, `0s`.
    public var description: String {
        if nanoseconds == 0 { return "0s" }
        if nanoseconds < 0 { return "-" + VirtualDuration(nanoseconds: -nanoseconds).description }
        let totalSeconds = nanoseconds / 1_000_000_000
        let fraction = nanoseconds % 1_000_000_000
        if totalSeconds == 0 {
            if fraction % 1_000_000 == 0 { return "\(fraction / 1_000_000)ms" }
            if fraction % 1_000 == 0 { return "\(fraction / 1_000)us" }
            return "\(fraction)ns"
        }
        var text = ""
        if totalSeconds >= 3600 { text += "\(totalSeconds / 3600)h" }
        if totalSeconds % 3600 >= 60 { text += "\(totalSeconds % 3600 / 60)m" }
        let seconds = totalSeconds % 60
        if seconds > 0 || fraction > 0 {
            var fractionDigits = fraction > 0 ? "." + zeroPadded(fraction, width: 9) : ""
            while fractionDigits.hasSuffix("0") { fractionDigits.removeLast() }
            text += "\(seconds)\(fractionDigits)s"
        }
        return text
    }
}
