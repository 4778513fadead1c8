// A team's own engine under a name (layer 4), so that scenarios, the fuzzer and the corpus can
// name it as they name a built-in one.

/// An engine that is not built in: a name, a line on what it is, and the factory a world calls
/// at every launch. Register it with the scenario parser and the corpus
/// (`Scenario(parsing:path:engines:)`, `FuzzCorpus(directory:engines:)`) and fuzz it with
/// `EngineChoice.custom`:
///
///     let tracker = CustomEngine(name: "my-tracker", summary: "our app's engine") { rules in
///         MyTracker(stopOnTerminate: rules.stopOnTerminate, startOnBoot: rules.startOnBoot)
///     }
///
/// Two custom engines are the same engine when their names are.
public struct CustomEngine: Sendable, Hashable, CustomStringConvertible {
    /// Its name in scenario files, the corpus folder and reports. A built-in engine's name
    /// cannot be taken.
    public let name: String
    /// One line on what it is.
    public let summary: String
    /// Whether it honours `stopOnTerminate` and `startOnBoot` (R-B11, R-B12), which the
    /// `configuration-honoured` invariant then checks; false for an engine with no such
    /// settings.
    public let honoursLaunchRules: Bool
    /// A new engine with these launch rules: the factory a world calls at every launch.
    public let make: @Sendable (LaunchRules) -> any TrackingEngine
    /// What the team's app declares once (`AppProfile`); by default the location background
    /// mode, Always asked at the first launch, tracking from the first launch, and launch rules
    /// left to each scenario.
    public var profile = AppProfile()

    /// `name` should be one word that no built-in engine, mutant or other custom engine has:
    /// where engines are registered (`LifelineCLI.main(engines:)`) a name that is not is bad
    /// input (exit 2, with every known name), never a trap; a scenario naming it would mean
    /// the built-in engine.
    public init(
        name: String, summary: String, honoursLaunchRules: Bool = true,
        make: @escaping @Sendable (LaunchRules) -> any TrackingEngine
    ) {
        self.name = name
        self.summary = summary
        self.honoursLaunchRules = honoursLaunchRules
        self.make = make
    }

    public var description: String { name }

    public static func == (left: CustomEngine, right: CustomEngine) -> Bool {
        left.name == right.name
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
