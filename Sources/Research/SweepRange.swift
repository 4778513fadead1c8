// One swept policy parameter (layer 5): `NAME=FROM...TO[:STEP]` read and checked against the
// parameter's kind and domain before anything runs.
import Fuzzing
import Simulation
import World

/// The values one policy parameter takes in a sweep: `whenInUseGrace=0...30:5` is 0, 5, …,
/// 30 seconds. Durations are written in seconds, the other kinds in their own unit
/// (`PolicyParameter.unit`); the step defaults to 1.
///
/// Each value is `from + i × step` (never a running sum, so no error piles up), printed with
/// as many decimals as the widest of FROM, TO and STEP was written with.
package struct SweepRange: Sendable, Equatable {
    /// Why a range cannot be swept; the message names the parameter.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        /// The parameter named (as written), or the whole argument when no name could be read.
        package var parameter: String
        package var message: String
        package var description: String { message }
    }

    package var parameter: PolicyParameter
    /// In increasing order; at least one.
    package var values: [Double]
    /// Decimals to print a value with.
    package var decimals: Int

    /// Values at most per parameter: a typo in a step is caught, not run for hours.
    package static let valueCountMax = 1_000

    /// Reads `NAME=FROM...TO[:STEP]`.
    /// - Throws: `Problem` naming the parameter: an unknown name (listing the sweepable ones),
    ///   a switch, a bound or step that is not a number, an empty range (FROM > TO), a step
    ///   of zero or less, too many values, or a value outside the parameter's domain (a
    ///   negative duration, a percent over 100, a zero fix interval).
    package init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw Problem(
                parameter: text, message: "'\(text)' is not NAME=FROM...TO[:STEP]")
        }
        let name = String(text[..<equals])
        let body = String(text[text.index(after: equals)...])
        func fail(_ message: String) -> Problem {
            Problem(parameter: name, message: "--param \(name): \(message)")
        }
        guard let parameter = IOSPolicy.parameters.first(where: { $0.key == name }) else {
            throw Problem(
                parameter: name,
                message: "--param: no policy parameter is called '\(name)'; the sweepable ones: "
                    + Self.sweepable.map(\.key).joined(separator: ", "))
        }
        guard parameter.isNumeric else {
            throw fail("'\(name)' is a switch (true or false), not a number: it has no range")
        }
        let rangeAndStep = body.split(separator: ":", omittingEmptySubsequences: false)
        let bounds = rangeAndStep[0].components(separatedBy: "...")
        guard rangeAndStep.count <= 2, bounds.count == 2 else {
            throw fail("'\(body)' is not FROM...TO[:STEP]")
        }
        let texts = bounds + (rangeAndStep.count == 2 ? [String(rangeAndStep[1])] : [])
        var numbers: [Double] = []
        for part in texts {
            guard let number = Double(part), number.isFinite, Self.isPlainDecimal(part) else {
                throw fail("'\(part)' is not a number (\(Self.kindText(parameter)))")
            }
            numbers.append(number)
        }
        let (from, to, step) = (numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : 1)
        guard from <= to else {
            throw fail("the range \(texts[0])...\(texts[1]) is empty: FROM is above TO")
        }
        guard step > 0 else { throw fail("the step must be above 0, not \(texts[2])") }
        let steps = ((to - from) / step * (1 + 1e-12)).rounded(.down)
        guard steps < Double(Self.valueCountMax) else {
            throw fail("\(Int(steps) + 1) values; at most \(Self.valueCountMax)")
        }
        let values = (0...Int(steps)).map { from + Double($0) * step }
        let decimals = texts.map { $0.split(separator: ".").dropFirst().first?.count ?? 0 }.max()!
        for value in values {
            guard let override = parameter.overrideText(value) else {
                throw fail(
                    "\(Self.text(value, decimals: decimals)) is outside its domain (\(Self.kindText(parameter)))"
                )
            }
            do {
                _ = try IOSPolicy.measured.applying(
                    overrides: [(name, override)], path: "--param", line: 0)
            } catch let error as PolicyFileError {
                throw fail(error.message)
            }
        }
        self.parameter = parameter
        self.values = values
        self.decimals = decimals
    }

    /// The parameters a range can be swept over: every one but the switches.
    package static var sweepable: [PolicyParameter] { IOSPolicy.parameters.filter(\.isNumeric) }

    /// `value` as this range prints it.
    package func text(_ value: Double) -> String { Self.text(value, decimals: decimals) }

    /// The override a scenario's policy takes for `value`.
    package func override(_ value: Double) -> (key: String, value: String) {
        (parameter.key, parameter.overrideText(value)!)
    }

    static func text(_ value: Double, decimals: Int) -> String {
        PlainText.fixed(value, digits: min(decimals, 9))
    }

    /// Digits with at most one point and an optional sign: no exponents, no `inf`, no hex.
    static func isPlainDecimal(_ text: String) -> Bool {
        let digits = text.drop { $0 == "-" || $0 == "+" }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && digits.count(where: { $0 == "." }) <= 1
    }

    static func kindText(_ parameter: PolicyParameter) -> String {
        switch parameter.kind {
        case .duration: "a duration in seconds, at least 0"
        case .number:
            "a number at least 0" + (parameter.unit.isEmpty ? "" : ", in \(parameter.unit)")
        case .count(let range):
            "a whole number from \(range.lowerBound) to \(range.upperBound)"
                + (parameter.unit.isEmpty ? "" : ", in \(parameter.unit)")
        case .flag: "true or false"
        }
    }
}
