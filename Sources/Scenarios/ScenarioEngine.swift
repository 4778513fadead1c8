// The engine a scenario runs (layer 5): a built-in engine by name and the settings a scenario
// may give it, with the table that names each setting in the file format.
import Engines

/// The engine under test in a scenario: a built-in engine and its settings.
///
/// A file writes it `engine session stopOnTerminate=true startOnBoot=true`, settings only
/// where they differ from the engine's defaults. To add a setting: a `var` on `Settings`, a
/// row in `Settings.fields`, and its use in `make()`.
public struct ScenarioEngine: Sendable, Equatable {
    /// The settings of an engine that a scenario may change.
    public struct Settings: Sendable, Equatable {
        /// `stopOnTerminate` (R-B11): a launch clears the enabled flag.
        public var stopOnTerminate = false
        /// `startOnBoot` (R-B12): tracking resumes after a reboot.
        public var startOnBoot = false

        public init(stopOnTerminate: Bool = false, startOnBoot: Bool = false) {
            self.stopOnTerminate = stopOnTerminate
            self.startOnBoot = startOnBoot
        }

        /// Every setting by its name in a scenario file, in the order they print.
        static var fields: [(key: String, keyPath: WritableKeyPath<Settings, Bool>)] {
            [("stopOnTerminate", \.stopOnTerminate), ("startOnBoot", \.startOnBoot)]
        }
    }

    /// Which engine: a built-in one or a mutant.
    public var name: EngineChoice
    public var settings: Settings

    public init(_ name: EngineChoice, settings: Settings) {
        self.name = name
        self.settings = settings
    }

    public init(_ name: EngineChoice, stopOnTerminate: Bool = false, startOnBoot: Bool = false) {
        self.init(
            name, settings: Settings(stopOnTerminate: stopOnTerminate, startOnBoot: startOnBoot))
    }

    /// A built-in engine with these settings.
    public init(_ name: BuiltInEngine, stopOnTerminate: Bool = false, startOnBoot: Bool = false) {
        self.init(.builtIn(name), stopOnTerminate: stopOnTerminate, startOnBoot: startOnBoot)
    }

    /// A new engine with these settings: the factory the world calls at every launch.
    public func make() -> any TrackingEngine {
        name.make(
            launchRules: LaunchRules(
                stopOnTerminate: settings.stopOnTerminate, startOnBoot: settings.startOnBoot))
    }
}
