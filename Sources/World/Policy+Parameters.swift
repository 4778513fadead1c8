// The policy's properties as research tools see them (layer 3): each file key with its kind,
// the values it may take and its unit, for `lifeline sweep` to check a range before it runs.
import Simulation

/// One property of `IOSPolicy` that a policy file sets: its key, its kind, its domain and its
/// unit, read from the file format's own table (`IOSPolicy.fields`), so the two never disagree.
public struct PolicyParameter: Sendable, Equatable {
    /// How the property is written, and so which values it takes.
    package enum Kind: Sendable, Equatable {
        /// A duration, written in seconds here; at least 0.
        case duration
        /// A real number (meters, a speed, a fraction); at least 0 and finite.
        case number
        /// A whole number within its range (a percent is `0...100`).
        case count(ClosedRange<Int>)
        /// A switch: true or false. It has no range to sweep.
        case flag
    }

    /// The key of a policy file and of a scenario's `policy` line (`whenInUseGrace`).
    package var key: String
    package var kind: Kind

    /// The unit a value is written in on the command line and in a sweep's output: `s` for a
    /// duration; for the others, the unit the key ends with (`m`, `m/s`, `%`), or empty.
    package var unit: String {
        switch kind {
        case .duration: "s"
        case .flag: ""
        case .number, .count:
            key.hasSuffix("MetersPerSecond")
                ? "m/s"
                : key.hasSuffix("Meters") || key.hasSuffix("MetersMin")
                    || key.hasSuffix("MetersMax") ? "m" : key.hasSuffix("Percent") ? "%" : ""
        }
    }

    /// Whether a range of values can be swept: every kind but a switch.
    package var isNumeric: Bool { kind != .flag }

    /// The text a policy override writes for `value` of this kind (`12.5s`, `250`, `30`), or
    /// nil when `value` is outside the kind's domain (negative, not finite, not whole, out of
    /// a count's range). The override's own checks (`IOSPolicy.applying(overrides:…)`) still
    /// apply: a zero `fixInterval` say.
    package func overrideText(_ value: Double) -> String? {
        guard value.isFinite, value >= 0 else { return nil }
        switch kind {
        case .flag: return nil
        case .duration:
            let nanoseconds = (value * 1e9).rounded()
            guard nanoseconds < 9e18 else { return nil }
            return VirtualDuration(nanoseconds: Int64(nanoseconds)).description
        case .number: return PlainText.fixed(value, digits: 9)
        case .count(let range):
            guard value == value.rounded(), let whole = Int(exactly: value), range.contains(whole)
            else { return nil }
            return String(whole)
        }
    }
}

extension IOSPolicy {
    /// Every property a policy file sets, in declaration order, with its kind and domain.
    package static var parameters: [PolicyParameter] {
        fields.map { key, field in
            switch field {
            case .duration: PolicyParameter(key: key, kind: .duration)
            case .meters: PolicyParameter(key: key, kind: .number)
            case .flag: PolicyParameter(key: key, kind: .flag)
            case .count(_, let range): PolicyParameter(key: key, kind: .count(range))
            }
        }
    }
}
