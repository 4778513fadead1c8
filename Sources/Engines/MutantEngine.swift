// A built-in engine with one mistake planted, as the engines-by-name see it (layer 4). The
// mutants themselves are built outside the reference engines, in the EngineMutants target.

/// A mutant under its name: the built-in engine it is planted in, the mistake in one line, its
/// host app and its factory. `EngineMutants` makes one for each of its mutants
/// (`Mutant.engine`); two are the same mutant when their names are.
public struct MutantEngine: Sendable, Hashable, CustomStringConvertible {
    /// Its name in scenario files, the corpus folder and reports.
    public let name: String
    /// The correct built-in engine the mistake is planted in.
    public let base: BuiltInEngine
    /// The mistake in one line, for `lifeline engines`.
    public let summary: String
    /// What its app declares once (`AppProfile`).
    public let profile: AppProfile
    /// A new engine with these launch rules: the factory a world calls at every launch.
    public let make: @Sendable (LaunchRules) -> any TrackingEngine

    public init(
        name: String, base: BuiltInEngine, summary: String, profile: AppProfile,
        make: @escaping @Sendable (LaunchRules) -> any TrackingEngine
    ) {
        self.name = name
        self.base = base
        self.summary = summary
        self.profile = profile
        self.make = make
    }

    public var description: String { name }

    public static func == (left: MutantEngine, right: MutantEngine) -> Bool {
        left.name == right.name
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
