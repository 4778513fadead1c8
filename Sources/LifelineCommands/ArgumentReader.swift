// Reading command-line options (the CLI layer): `--name value`, `--name=value` and flags,
// with a usage error for anything unknown, missing or malformed.
import Engines
import Fuzzing

/// A mistake in how the command was called: printed with the usage, exit code 2.
package struct UsageError: Error, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Bad input that is not a usage mistake: a scenario, corpus or route that cannot be read or
/// written. The tool prints it (it names the file, line and what was expected) and exits 2,
/// without the usage text; nothing is lost or overwritten.
package struct InputError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The arguments after the subcommand's words, consumed option by option; whatever is left at
/// `finish()` is an error, so a misspelt option is never silently ignored, and an option given
/// twice is refused unless it is repeatable.
struct ArgumentReader {
    private var remaining: [String]
    /// The team's engines the tool was started with (`LifelineCLI.main(engines:)`): every
    /// command that names an engine or reads a scenario knows them besides the built-in ones.
    let engines: [CustomEngine]

    init(_ arguments: [String], engines: [CustomEngine] = []) {
        remaining = arguments
        self.engines = engines
    }

    /// True when `--help` or `-h` was given (consumed).
    mutating func wantsHelp() -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == "--help" || $0 == "-h" }
        return remaining.count != before
    }

    /// True when the flag `name` was given (consumed).
    /// - Throws: `UsageError` when it is given more than once.
    mutating func flag(_ name: String) throws -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        try refuseRepeat(of: name)
        return true
    }

    /// Fails when option `name` is still among the arguments: it was given more than once,
    /// and only a repeatable option (`texts`) may be.
    private func refuseRepeat(of name: String) throws {
        guard has(name) else { return }
        throw UsageError("\(name) is given more than once; give it once")
    }

    /// Whether option `name` is given (`--name VALUE` or `--name=VALUE`), without consuming it.
    func has(_ name: String) -> Bool {
        remaining.contains { $0 == name || $0.hasPrefix(name + "=") }
    }

    /// The text of option `name`, if given (consumed); a missing value is an error, and so is
    /// the option given more than once (a repeatable option is read with `texts`).
    mutating func text(_ name: String) throws -> String? {
        let value = try take(name)
        if value != nil { try refuseRepeat(of: name) }
        return value
    }

    /// The text of the first occurrence of option `name`, if given (consumed).
    private mutating func take(_ name: String) throws -> String? {
        guard let index = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") })
        else { return nil }
        if remaining[index] != name {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
            throw UsageError("\(name) needs a value")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Every value of an option that may be given more than once, in order.
    mutating func texts(_ name: String) throws -> [String] {
        var values: [String] = []
        while let value = try take(name) { values.append(value) }
        return values
    }

    /// `--only` and `--skip`: which invariants to judge.
    /// - Throws: `InputError` for a name that is no invariant's, naming the valid ones.
    mutating func invariantSelection() throws -> InvariantSelection {
        let only = try texts("--only")
        let skip = try texts("--skip")
        do {
            return try InvariantSelection(only: only, skip: skip)
        } catch {
            throw InputError(
                "--\(only.contains { $0.contains(error.name) } ? "only" : "skip"): "
                    + "\(error)")
        }
    }

    /// Option `name` as an integer in `range`, or `defaultValue`.
    mutating func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int)
        throws -> Int
    {
        guard let text = try text(name) else { return defaultValue }
        let digits = text.replacingOccurrences(of: "_", with: "").replacingOccurrences(
            of: ",", with: "")
        guard let value = Int(digits), range.contains(value) else {
            throw UsageError(
                "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
            )
        }
        return value
    }

    /// Option `name` as an unsigned 64-bit integer, or `defaultValue`.
    mutating func seed(_ name: String, default defaultValue: UInt64) throws -> UInt64 {
        guard let text = try text(name) else { return defaultValue }
        guard let value = UInt64(text) else {
            throw UsageError("\(name) takes a whole number from 0 to \(UInt64.max), not '\(text)'")
        }
        return value
    }

    /// Option `name` read by `parse` (whose error becomes a usage error naming the option).
    mutating func parsed<Value>(_ name: String, _ parse: (String) throws -> Value) throws -> Value?
    {
        guard let text = try text(name) else { return nil }
        do { return try parse(text) } catch { throw UsageError("\(name): \(error)") }
    }

    /// The command's one positional argument (consumed): the first word that is not an option.
    /// Read it after every option, so that an option's value is never taken for it; without
    /// one, an option left over is the mistake reported (it is unknown), else `missing`.
    mutating func argument(missing: String) throws -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("-") }) else {
            try finish()
            throw UsageError(missing)
        }
        return remaining.remove(at: index)
    }

    /// Every positional argument left (consumed), in order: the words that are not options.
    /// Read them after every option, as `argument(missing:)`.
    mutating func arguments() -> [String] {
        let words = remaining.filter { !$0.hasPrefix("-") }
        remaining.removeAll { !$0.hasPrefix("-") }
        return words
    }

    /// Fails on any argument not consumed (but positional ones, if `allowingArguments`).
    func finish(allowingArguments: Bool = false) throws {
        guard
            let first = remaining.first(where: { !allowingArguments || $0.hasPrefix("-") })
        else { return }
        throw UsageError(
            first.hasPrefix("-") ? "unknown option '\(first)'" : "unexpected argument '\(first)'")
    }
}
