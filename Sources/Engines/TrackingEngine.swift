// What the built-in engines share as their host app sees them (layer 4): start and stop, the
// state query, and one stream of events.
import Simulation
import World

/// A tracking engine as its host app drives it, the face of a tracking SDK: `start`, `stop`,
/// the state query (R-B13), and its events. It is an `AppEngine` too: the world makes one per
/// process launch, and the engine does its work in the callbacks (R-B14: recording, filtering,
/// persisting and uploading go on inside the engine whether or not app code runs).
public protocol TrackingEngine: AppEngine {
    /// `start()`: the host app turns tracking on. Persisted: later launches resume it.
    func start(services: LocationServices)
    /// `stop()`: the host app turns tracking off. Persisted.
    func stop(services: LocationServices)
    /// `getState()` at `now` (R-B13).
    func state(at now: Instant) -> EngineState
    /// What this process's engine has told its host app so far, in order. Only ever appended
    /// to: a run's record reads the events told during a delivery from here after the run.
    var events: [TrackingEvent] { get }
}

extension TrackingEngine {
    /// The user turned tracking on or off with the host app's switch: `start(services:)` or
    /// `stop(services:)`. The built-in engines also record the switch for their host app
    /// (`TrackingRecord.userWantsTracking`), so that opening the app does not undo it.
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {
        if on { start(services: services) } else { stop(services: services) }
    }
}

/// `getState()` (R-B13): what the engine thinks of itself.
public struct EngineState: Sendable, Equatable, CustomStringConvertible {
    /// Tracking is on (the persisted enabled flag, as this process knows it).
    public var enabled: Bool
    /// Time since the last accepted fix, nil until the first (across processes: the last fix
    /// in the store counts).
    public var lastAcceptedFixAge: VirtualDuration?
    /// The engine's location machinery runs in this process: its updates are on and the
    /// sessions it needs are held and active.
    public var sessionEngineActive: Bool

    public init(enabled: Bool, lastAcceptedFixAge: VirtualDuration?, sessionEngineActive: Bool) {
        self.enabled = enabled
        self.lastAcceptedFixAge = lastAcceptedFixAge
        self.sessionEngineActive = sessionEngineActive
    }

    public var description: String {
        "enabled \(enabled), last fix age \(lastAcceptedFixAge.map { "\($0)" } ?? "none"), "
            + "session engine \(sessionEngineActive ? "active" : "inactive")"
    }
}

/// One event of an engine's stream, as its host app would observe it.
public enum TrackingEvent: Sendable, Equatable, CustomStringConvertible {
    /// Tracking was turned on by the host app.
    case started
    /// Tracking was turned off by the host app.
    case stopped
    /// A launch found tracking enabled and resumed it before anything slow (R-D7, R-A14).
    case resumed(launchedIn: ProcessState)
    /// A launch cleared the persisted enabled flag: `stopOnTerminate` (R-B11) or a reboot with
    /// `startOnBoot` false (R-B12).
    case disabledAtLaunch(reason: String)
    /// A reboot was detected from the boot time (R-B12).
    case rebootDetected
    /// Launched before the first unlock: the saved state is unreadable; the engine waits for
    /// the unlock (R-D9).
    case waitingForFirstUnlock
    /// Tracking is enabled but location permission is missing (R-D10, R-A13).
    case permissionMissing(Authorization)
    /// A fix was accepted and written to the store.
    case fixAccepted(Fix)
    /// A fix was filtered out, with the reason.
    case fixRejected(Fix, reason: String)
    /// What only `LocationRuntime` tells (its features, restorations, places, significant
    /// changes and session diagnostics).
    case runtime(RuntimeEvent)

    public var description: String {
        switch self {
        case .started: "started"
        case .stopped: "stopped"
        case .resumed(let state): "resumed (launched in \(state.rawValue))"
        case .disabledAtLaunch(let reason): "disabled at launch: \(reason)"
        case .rebootDetected: "reboot detected"
        case .waitingForFirstUnlock: "waiting for the first unlock"
        case .permissionMissing(let authorization):
            "permission missing: \(authorization.rawValue)"
        case .fixAccepted(let fix): "accepted \(fix)"
        case .fixRejected(let fix, let reason): "rejected \(fix): \(reason)"
        case .runtime(let event): event.description
        }
    }
}
