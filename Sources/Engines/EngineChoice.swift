// Every engine Lifeline can run by name (layer 4): the built-in engines, their mutants (built
// in the EngineMutants target, which also lists them: `EngineChoice.all`) and a team's own.
import Simulation
import World

/// An engine by the name a scenario file, `--engine` and `lifeline engines` use: a correct
/// built-in engine, a mutant (a built-in engine with one real mistake planted), or a team's
/// own engine.
public enum EngineChoice: Hashable, Sendable, CustomStringConvertible {
    case builtIn(BuiltInEngine)
    case mutant(MutantEngine)
    case custom(CustomEngine)

    /// Its name.
    public var name: String {
        switch self {
        case .builtIn(let engine): engine.rawValue
        case .mutant(let mutant): mutant.name
        case .custom(let engine): engine.name
        }
    }

    public var description: String { name }

    /// True for a mutant: the fuzzer must find it failing.
    public var isMutant: Bool { if case .mutant = self { true } else { false } }

    /// `correct`, `mutant` or `custom`, as `lifeline engines` prints it.
    public var kind: String {
        switch self {
        case .builtIn: "correct"
        case .mutant: "mutant"
        case .custom: "custom"
        }
    }

    /// The built-in engine it is, or is planted in; nil for a custom engine.
    public var base: BuiltInEngine? {
        switch self {
        case .builtIn(let engine): engine
        case .mutant(let mutant): mutant.base
        case .custom: nil
        }
    }

    /// Whether it honours `stopOnTerminate` and `startOnBoot` (R-B11, R-B12): every built-in
    /// engine but `LocationRuntime`, which restores whatever its record says.
    public var honoursLaunchRules: Bool {
        switch self {
        case .builtIn, .mutant: base != .locationRuntime
        case .custom(let engine): engine.honoursLaunchRules
        }
    }

    /// What its app declares once (`AppProfile`): the built-in engine's host app, a mutant's,
    /// or the team's own.
    public var profile: AppProfile {
        switch self {
        case .builtIn(let engine): engine.profile
        case .mutant(let mutant): mutant.profile
        case .custom(let engine): engine.profile
        }
    }

    /// One line on what it is: the engine's source, or the mistake.
    public var summary: String {
        switch self {
        case .builtIn(.locationRuntime):
            "source A's LocationRuntime: saved features restored as sessions, a monitor and "
                + "significant change at every launch"
        case .builtIn(.session):
            "source B's session engine: live updates, both sessions, a rolling wake region, "
                + "stopOnTerminate and startOnBoot"
        case .builtIn(.standard):
            "source D's standard engine: standard updates with a 3 km rest, a parked region, "
                + "swipe-away registrations"
        case .mutant(let mutant): mutant.summary
        case .custom(let engine): engine.summary
        }
    }

    /// A new engine with `launchRules` (R-B11, R-B12): the factory a world calls at every
    /// launch.
    public func make(launchRules: LaunchRules = LaunchRules()) -> any TrackingEngine {
        switch self {
        case .builtIn(let engine): engine.make(launchRules: launchRules)
        case .mutant(let mutant): mutant.make(launchRules)
        case .custom(let engine): engine.make(launchRules)
        }
    }
}
