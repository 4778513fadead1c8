// The built-in engines by name (layer 4): what `--engine NAME` chooses.
import Simulation
import World

/// The engines Lifeline ships, by the names the command line uses.
public enum BuiltInEngine: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `LocationRuntime`, source A's exercise (000_…).
    case locationRuntime = "location-runtime"
    /// `SessionEngine`, source B's session engine (001_…).
    case session
    /// `StandardEngine`, source D's standard-updates engine (003_…).
    case standard

    public var description: String { rawValue }

    /// The names, for usage messages.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// A new engine of this kind with its default settings, except `startOnBoot` for the
    /// engines that have it (R-B12): the factory a world calls at every process launch. The
    /// `LocationRuntime`'s host app records a workout and detects commutes from its first open
    /// (`hostFeatures`); it has no `startOnBoot`: it restores whatever its record says.
    public func make(startOnBoot: Bool = false) -> any TrackingEngine {
        make(launchRules: LaunchRules(startOnBoot: startOnBoot))
    }

    /// A new engine of this kind with its default settings, except its launch rules
    /// (`stopOnTerminate`, R-B11, and `startOnBoot`, R-B12), which the session and standard
    /// engines have (`LocationRuntime` restores whatever its record says).
    public func make(launchRules: LaunchRules) -> any TrackingEngine {
        make(launchRules: launchRules, trackingStart: .atFirstLaunch)
    }

    /// A new engine of this kind whose host app starts tracking as `trackingStart` says: at
    /// its first launch (`profile`'s), or only once the user turns it on (`LocationRuntime`'s
    /// host app then starts no workout at its first open; its other features still start).
    public func make(launchRules: LaunchRules, trackingStart: TrackingStart) -> any TrackingEngine {
        switch self {
        case .locationRuntime:
            LocationRuntime(settings: Self.locationRuntimeSettings(trackingStart: trackingStart))
        case .session:
            SessionEngine(
                Self.sessionSettings(launchRules: launchRules, trackingStart: trackingStart))
        case .standard:
            StandardEngine(
                settings: Self.standardSettings(
                    launchRules: launchRules, trackingStart: trackingStart))
        }
    }

    /// The settings `make` gives `LocationRuntime`: the host app's features
    /// (`hostFeatures`), the workout only if tracking starts at the first launch.
    package static func locationRuntimeSettings(trackingStart: TrackingStart)
        -> LocationRuntimeSettings
    {
        var features = hostFeatures
        features.recordingWorkout = trackingStart == .atFirstLaunch
        return LocationRuntimeSettings(initialFeatures: features)
    }

    /// The settings `make` gives the session engine: its defaults with these launch rules.
    package static func sessionSettings(launchRules: LaunchRules, trackingStart: TrackingStart)
        -> SessionEngine.Settings
    {
        var settings = SessionEngine.Settings()
        settings.launchRules = launchRules
        settings.trackingStart = trackingStart
        return settings
    }

    /// The settings `make` gives the standard engine: its defaults with these launch rules.
    package static func standardSettings(launchRules: LaunchRules, trackingStart: TrackingStart)
        -> StandardEngine.Settings
    {
        var settings = StandardEngine.Settings()
        settings.launchRules = launchRules
        settings.trackingStart = trackingStart
        return settings
    }

    /// Its host app as the sources describe it (`AppProfile`): the location background mode
    /// and the scene-based life cycle declared, tracking from the first launch, and launch
    /// rules left to each scenario (the `engine` line). What each asks for:
    /// - `LocationRuntime` (source A's exercise): When In Use at its first open, then Always,
    ///   which its watched place and commute detection need (R-F5);
    /// - the session engine (source B): Always; the engine itself never prompts (B's host app
    ///   asks), so a run starts with the authorization its scenario gives;
    /// - the standard engine (source D): Always, asked once by `start()` while undetermined
    ///   (R-D10).
    public var profile: AppProfile {
        switch self {
        case .locationRuntime:
            AppProfile(
                authorization: AuthorizationRequest(.whenInUseThenAlways, at: .atFirstLaunch))
        case .session: AppProfile(authorization: AuthorizationRequest(.always, at: .atFirstLaunch))
        case .standard:
            AppProfile(authorization: AuthorizationRequest(.always, at: .atTrackingStart))
        }
    }

    /// The features the built-in `LocationRuntime`'s host app starts at its first open: a
    /// workout (live updates and a background activity session), a watched place where the
    /// built-in scenarios start (`hostHome`, the Places monitor) and commute detection
    /// (significant change); the place and the commute need the service session to require
    /// Always.
    public static let hostFeatures = LocationFeatures(
        recordingWorkout: true,
        watchedPlaces: [
            WatchedPlace(identifier: "home", center: hostHome, radiusMeters: hostHomeRadiusMeters)
        ],
        commuteDetection: true)

    /// Where the lifecycle matrix and the scenarios start by default (Westminster).
    public static let hostHome = Coordinate(latitude: 51.5007, longitude: -0.1246)
    /// The watched home's radius: 150 m, over the 100 m practical minimum of a region (F).
    public static let hostHomeRadiusMeters = 150.0

    /// The interval at which the engine records fixes with its default settings under
    /// `policy`: a gap shorter than this loses nothing.
    public func recordingInterval(under policy: IOSPolicy) -> VirtualDuration {
        switch self {
        case .locationRuntime, .session: policy.fixInterval
        case .standard: StandardEngine.Settings().interval
        }
    }
}
