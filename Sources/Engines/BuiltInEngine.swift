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
    /// engines that have it (R-B12): the factory a world calls at every process launch.
    public func make(startOnBoot: Bool = false) -> any TrackingEngine {
        make(launchRules: LaunchRules(startOnBoot: startOnBoot))
    }

    /// A new engine of this kind with its default settings, except its launch rules
    /// (`stopOnTerminate`, R-B11, and `startOnBoot`, R-B12), which every built-in engine has.
    public func make(launchRules: LaunchRules) -> any TrackingEngine {
        switch self {
        case .locationRuntime, .standard, .session:
            var settings = SessionEngine.Settings()
            settings.launchRules = launchRules
            return SessionEngine(settings)
        }
    }

    /// The interval at which the engine records fixes with its default settings under
    /// `policy`: a gap shorter than this loses nothing.
    public func recordingInterval(under policy: IOSPolicy) -> VirtualDuration {
        switch self {
        case .locationRuntime, .session, .standard: policy.fixInterval
        }
    }
}
