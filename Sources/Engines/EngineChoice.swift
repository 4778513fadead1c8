// Every engine Lifeline can run by name (layer 4): the built-in engines and their mutants.
import Simulation
import World

/// An engine by the name a scenario file, `--engine` and `lifeline engines` use: a correct
/// built-in engine, a mutant (a built-in engine with one real mistake planted), or a team's
/// own engine.
public enum EngineChoice: Hashable, Sendable, CustomStringConvertible {
    case builtIn(BuiltInEngine)
    case mutant(Mutant)
    case custom(CustomEngine)

    /// Every engine, the correct ones first, each group in its declared order.
    public static var all: [EngineChoice] {
        BuiltInEngine.allCases.map(EngineChoice.builtIn) + Mutant.allCases.map(EngineChoice.mutant)
    }

    /// The engine called `name`, if any: a built-in engine, a mutant, or one of `custom`.
    public init?(name: String, custom: [CustomEngine] = []) {
        if let engine = BuiltInEngine(rawValue: name) {
            self = .builtIn(engine)
        } else if let mutant = Mutant(rawValue: name) {
            self = .mutant(mutant)
        } else if let engine = custom.first(where: { $0.name == name }) {
            self = .custom(engine)
        } else {
            return nil
        }
    }

    /// Its name.
    public var name: String {
        switch self {
        case .builtIn(let engine): engine.rawValue
        case .mutant(let mutant): mutant.rawValue
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
        case .mutant(let mutant): mutant.make(launchRules: launchRules)
        case .custom(let engine): engine.make(launchRules)
        }
    }
}

extension Mutant {
    /// The mistake in one line, for `lifeline engines`.
    public var summary: String {
        switch self {
        case .sessionFromBackground:
            "session: begins its background activity session in the background (R-C5)"
        case .restoreAfterSlowWork:
            "session: recreates its sessions after slow launch work, not at once (R-B10)"
        case .noRegionOnTerminate:
            "standard: sets no region and no significant change at termination (R-D7)"
        case .fixAcknowledgedBeforeCommit:
            "session: acknowledges fixes before their commit, committing every few"
        case .retryWithoutIdempotency:
            "session: retries an upload under a fresh key (R-D13)"
        case .backgroundWithoutCapability:
            "standard: enables background updates without the Info.plist mode (R-A9)"
        case .rebootByUptime:
            "session: detects a reboot from the uptime, which pauses in sleep (R-B12)"
        case .startsUndetermined:
            "location-runtime: starts services with undetermined authorization (R-A13)"
        case .stopOnTerminateAfterResume:
            "session: clears the stopOnTerminate flag after resuming (R-B11)"
        case .monitorRenamed:
            "location-runtime: reopens its monitor under another name at a relaunch (R-A12)"
        case .nilLocationEndsStream:
            "session: stops reading live updates at an update without a location (R-C1)"
        case .storesNothing:
            "session: says every fix is accepted and writes none to the store"
        case .forgetsEnabledFlag:
            "session: keeps its enabled flag in memory only, so a relaunch resumes nothing"
        }
    }
}
