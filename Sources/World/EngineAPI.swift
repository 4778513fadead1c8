// The engine API, first form (layer 3): what the app under test is told, and the Core
// Location-shaped services it calls. The engines issue completes it.

/// The app code under test. A new engine is made for every process launch (in-memory state
/// dies with the process); it reacts to callbacks and calls `services` to ask for location.
public protocol AppEngine: AnyObject {
    /// `didFinishLaunching`: foreground or background, whether saved data is readable.
    func didLaunch(_ launch: LaunchContext, services: LocationServices)
    /// The process moved between foreground and background (not told of suspension).
    func lifecycleChanged(to state: ProcessState, services: LocationServices)
    /// A location from a manager or a live-updates stream.
    func didReceive(_ update: LocationUpdate, services: LocationServices)
    /// `didFailWithError` on a manager.
    func didFail(_ error: LocationError, manager: ObjectID, services: LocationServices)
    /// A significant-change, condition or visit event.
    func didReceive(_ event: MonitoringEvent, services: LocationServices)
    /// The authorization changed.
    func authorizationChanged(to authorization: Authorization, services: LocationServices)
    /// The first unlock after a boot made saved data readable (R-D9).
    func protectedDataDidBecomeAvailable(services: LocationServices)
    /// A background task's time is up; end it now or the process is killed (R-F1).
    func backgroundTaskWillExpire(_ task: ObjectID, services: LocationServices)
}

extension AppEngine {
    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {}
    public func didReceive(_ update: LocationUpdate, services: LocationServices) {}
    public func didFail(_ error: LocationError, manager: ObjectID, services: LocationServices) {}
    public func didReceive(_ event: MonitoringEvent, services: LocationServices) {}
    public func authorizationChanged(to authorization: Authorization, services: LocationServices) {}
    public func protectedDataDidBecomeAvailable(services: LocationServices) {}
    /// By default the expiry handler ends the task, as a well-behaved app does.
    public func backgroundTaskWillExpire(_ task: ObjectID, services: LocationServices) {
        services.endBackgroundTask(task)
    }
}

/// What an engine asks of the system; sent to the location daemon (and the operating system)
/// when the callback returns.
public enum AppRequest: Sendable, Equatable {
    case createManager(ObjectID)
    case setAllowsBackgroundLocationUpdates(ObjectID, Bool)
    case setPausesLocationUpdatesAutomatically(ObjectID, Bool)
    case setDesiredAccuracy(ObjectID, meters: Double)
    case setDistanceFilter(ObjectID, meters: Double)
    case setActivityType(ObjectID, ActivityType)
    case startUpdatingLocation(ObjectID)
    case stopUpdatingLocation(ObjectID)
    case startLiveUpdates(ObjectID, LiveConfiguration)
    case stopLiveUpdates(ObjectID)
    case beginBackgroundActivitySession(ObjectID)
    case invalidateBackgroundActivitySession(ObjectID)
    case beginServiceSession(ObjectID, Authorization)
    case invalidateServiceSession(ObjectID)
    case startSignificantChanges
    case stopSignificantChanges
    case openMonitor(String)
    case addCondition(monitor: String, condition: String, center: Coordinate, radiusMeters: Double)
    case removeCondition(monitor: String, condition: String)
    case startVisits
    case stopVisits
    case beginBackgroundTask(ObjectID)
    case endBackgroundTask(ObjectID)
}

extension AppRequest {
    /// True for `beginBackgroundTask` and `endBackgroundTask`, which the operating system
    /// handles; the location daemon handles the rest.
    var isBackgroundTaskRequest: Bool {
        switch self {
        case .beginBackgroundTask, .endBackgroundTask: true
        default: false
        }
    }
}

/// Core Location as an engine sees it: managers, live updates, sessions, monitors, and
/// background tasks. Calls are recorded and take effect when the callback returns, in order.
///
/// Setting `allowsBackgroundLocationUpdates` to true without the location background mode
/// fails an assertion at once and ends the process, whatever the authorization (R-A9): every
/// later call is ignored.
public final class LocationServices {
    /// The requests made so far in this callback.
    public private(set) var requests: [AppRequest] = []
    /// The assertion that ended the process, if one did.
    public private(set) var crashReason: String?
    private let capabilities: AppCapabilities
    private var nextObjectID: Int

    init(capabilities: AppCapabilities, nextObjectID: Int) {
        self.capabilities = capabilities
        self.nextObjectID = nextObjectID
    }

    /// Forgets the requests sent after a callback; object ids keep counting (within a process).
    func clearRequests() { requests.removeAll(keepingCapacity: true) }

    private func record(_ request: AppRequest) {
        if crashReason == nil { requests.append(request) }
    }

    private func newObject() -> ObjectID {
        defer { nextObjectID += 1 }
        return ObjectID(nextObjectID)
    }

    /// A new `CLLocationManager` (background updates off, R-A8; automatic pause on, R-F4).
    public func makeManager() -> ObjectID {
        let id = newObject()
        record(.createManager(id))
        return id
    }

    /// `allowsBackgroundLocationUpdates`; true without the background mode aborts (R-A9).
    public func setAllowsBackgroundLocationUpdates(_ manager: ObjectID, _ allowed: Bool) {
        guard crashReason == nil else { return }
        if allowed && !capabilities.locationBackgroundMode {
            crashReason =
                "*** Assertion failure in -[CLLocationManager setAllowsBackgroundLocationUpdates:] "
                + "(UIBackgroundModes lacks location)"
            return
        }
        record(.setAllowsBackgroundLocationUpdates(manager, allowed))
    }

    public func setPausesLocationUpdatesAutomatically(_ manager: ObjectID, _ pauses: Bool) {
        record(.setPausesLocationUpdatesAutomatically(manager, pauses))
    }
    /// `desiredAccuracy` in metres (`kCLLocationAccuracyBest` is the default; 3000 is
    /// `kCLLocationAccuracyThreeKilometers`): it chooses the source of the fixes.
    public func setDesiredAccuracy(_ manager: ObjectID, meters: Double) {
        record(.setDesiredAccuracy(manager, meters: meters))
    }
    /// `distanceFilter` in metres (none by default).
    public func setDistanceFilter(_ manager: ObjectID, meters: Double) {
        record(.setDistanceFilter(manager, meters: meters))
    }
    /// `activityType` (`.other` by default).
    public func setActivityType(_ manager: ObjectID, _ type: ActivityType) {
        record(.setActivityType(manager, type))
    }
    public func startUpdatingLocation(_ manager: ObjectID) {
        record(.startUpdatingLocation(manager))
    }
    public func stopUpdatingLocation(_ manager: ObjectID) { record(.stopUpdatingLocation(manager)) }

    /// Starts iterating `CLLocationUpdate.liveUpdates(configuration)`.
    public func startLiveUpdates(_ configuration: LiveConfiguration = .default) -> ObjectID {
        let id = newObject()
        record(.startLiveUpdates(id, configuration))
        return id
    }
    public func stopLiveUpdates(_ stream: ObjectID) { record(.stopLiveUpdates(stream)) }

    /// Creates and holds a `CLBackgroundActivitySession` (R-C5).
    public func beginBackgroundActivitySession() -> ObjectID {
        let id = newObject()
        record(.beginBackgroundActivitySession(id))
        return id
    }
    public func invalidateBackgroundActivitySession(_ session: ObjectID) {
        record(.invalidateBackgroundActivitySession(session))
    }

    /// Creates and holds a `CLServiceSession` (R-B9).
    public func beginServiceSession(authorization: Authorization) -> ObjectID {
        let id = newObject()
        record(.beginServiceSession(id, authorization))
        return id
    }
    public func invalidateServiceSession(_ session: ObjectID) {
        record(.invalidateServiceSession(session))
    }

    public func startMonitoringSignificantLocationChanges() { record(.startSignificantChanges) }
    public func stopMonitoringSignificantLocationChanges() { record(.stopSignificantChanges) }

    /// Opens `CLMonitor(name)` and starts reading its events: a relaunched app must do this with
    /// the same name to receive the event that woke it (R-A12).
    public func openMonitor(_ name: String) { record(.openMonitor(name)) }

    /// Adds a `CircularGeographicCondition` to the monitor `monitor` (R-F8).
    public func addCondition(
        monitor: String, condition: String, center: Coordinate, radiusMeters: Double
    ) {
        record(
            .addCondition(
                monitor: monitor, condition: condition, center: center, radiusMeters: radiusMeters))
    }
    public func removeCondition(monitor: String, condition: String) {
        record(.removeCondition(monitor: monitor, condition: condition))
    }

    public func startMonitoringVisits() { record(.startVisits) }
    public func stopMonitoringVisits() { record(.stopVisits) }

    /// `beginBackgroundTask` (R-F1).
    public func beginBackgroundTask() -> ObjectID {
        let id = newObject()
        record(.beginBackgroundTask(id))
        return id
    }
    public func endBackgroundTask(_ task: ObjectID) { record(.endBackgroundTask(task)) }
}
