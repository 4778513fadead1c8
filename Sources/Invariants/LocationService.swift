// The location services a process holds (layer 5), as its requests to the daemon start and end
// them: what `restore-exactly-what-was-running` compares across a termination.
import World

/// A kind of location service an engine holds within its process and must recreate after a
/// relaunch (R-A12, R-B10), in the order `RunRecord` reports them.
public enum LocationService: String, Sendable, CaseIterable, CustomStringConvertible {
    case serviceSession = "service session"
    case backgroundActivitySession = "background activity session"
    case liveUpdates = "live updates"
    case standardUpdates = "standard updates"
    case significantChanges = "significant change"

    public var description: String { rawValue }

    /// True for the two sessions, which R-B10 wants recreated first.
    public var isSession: Bool { self == .serviceSession || self == .backgroundActivitySession }

    /// The service `request` starts, if it starts one.
    package static func started(by request: AppRequest) -> LocationService? {
        switch request {
        case .beginServiceSession, .beginServiceSessionRequiring: .serviceSession
        case .beginBackgroundActivitySession: .backgroundActivitySession
        case .startLiveUpdates: .liveUpdates
        case .startUpdatingLocation: .standardUpdates
        case .startSignificantChanges: .significantChanges
        default: nil
        }
    }

    /// True for a request that starts delivering or monitoring anything, sessions aside: the
    /// requests R-B10 wants after the sessions.
    static func startsNonSessionService(_ request: AppRequest) -> Bool {
        switch request {
        case .startLiveUpdates, .startUpdatingLocation, .startSignificantChanges, .openMonitor,
            .addCondition, .addMonitorCondition, .startMonitoringRegion, .startVisits:
            true
        default: false
        }
    }
}

/// The services one process holds, replayed from its requests in order.
struct HeldServices {
    private var objects: [(service: LocationService, object: ObjectID?)] = []
    /// The names of the monitors opened, in opening order (a monitor stays open for the rest
    /// of its process: the API has no close).
    private(set) var monitorNames: [String] = []
    /// How many times the services held may have changed (`apply` started or ended one): while
    /// it stays the same, so does `held`.
    private(set) var changeCount = 0

    mutating func apply(_ request: AppRequest) {
        if LocationService.started(by: request) != nil || Self.mayEnd(request) { changeCount += 1 }
        switch request {
        case .beginServiceSession(let id, _), .beginServiceSessionRequiring(let id, _, _):
            objects.append((.serviceSession, id))
        case .invalidateServiceSession(let id): end(.serviceSession, id)
        case .beginBackgroundActivitySession(let id):
            objects.append((.backgroundActivitySession, id))
        case .invalidateBackgroundActivitySession(let id): end(.backgroundActivitySession, id)
        case .startLiveUpdates(let id, _): objects.append((.liveUpdates, id))
        case .stopLiveUpdates(let id): end(.liveUpdates, id)
        case .startUpdatingLocation(let id):
            if !objects.contains(where: { $0.service == .standardUpdates && $0.object == id }) {
                objects.append((.standardUpdates, id))
            }
        case .stopUpdatingLocation(let id): end(.standardUpdates, id)
        case .startSignificantChanges:
            if !held.contains(.significantChanges) { objects.append((.significantChanges, nil)) }
        case .stopSignificantChanges: objects.removeAll { $0.service == .significantChanges }
        case .openMonitor(let name) where !monitorNames.contains(name): monitorNames.append(name)
        default: break
        }
    }

    /// True for the requests that may end a service `apply` holds.
    private static func mayEnd(_ request: AppRequest) -> Bool {
        switch request {
        case .invalidateServiceSession, .invalidateBackgroundActivitySession, .stopLiveUpdates,
            .stopUpdatingLocation, .stopSignificantChanges:
            true
        default: false
        }
    }

    /// The kinds held, in `LocationService`'s order.
    var held: [LocationService] {
        LocationService.allCases.filter { service in objects.contains { $0.service == service } }
    }

    private mutating func end(_ service: LocationService, _ object: ObjectID) {
        objects.removeAll { $0.service == service && $0.object == object }
    }
}
