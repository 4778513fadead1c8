// The operating system's rules in a scenario (layer 5): a preset by name and overrides by key,
// checked and applied by the policy file's own code.
import World

/// The policy of a scenario: a preset (`IOSPolicy.presetNames`) and overrides of its
/// properties by key (`IOSPolicy.overrideKeys`), applied in order.
///
/// Overrides keep their values as written (`whenInUseGrace=5s`): the policy file's reader
/// checks and applies them (`IOSPolicy.applying(overrides:path:line:)`), so both formats
/// accept the same values with the same messages.
public struct ScenarioPolicy: Sendable, Equatable {
    /// One property set by key: `whenInUseGrace=5s`.
    public struct Override: Sendable, Equatable, CustomStringConvertible {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }

        public var description: String { "\(key)=\(value)" }
    }

    /// The preset's name.
    public var preset: String
    /// Overrides in the order they apply; a key appears at most once.
    public var overrides: [Override]

    public init(preset: String = "measured", overrides: [Override] = []) {
        self.preset = preset
        self.overrides = overrides
    }

    /// The policy the world runs under.
    /// - Throws: `PolicyFileError` for an unknown preset, an unknown key or a bad value.
    public func makePolicy() throws -> IOSPolicy {
        guard let base = IOSPolicy.preset(named: preset) else {
            throw PolicyFileError(
                path: "", line: 0, key: "preset",
                message:
                    "'preset' expects one of \(IOSPolicy.presetNames.joined(separator: ", ")), "
                    + "got \(preset)")
        }
        return try base.applying(
            overrides: overrides.map { ($0.key, $0.value) }, path: "", line: 0)
    }
}
