// The engine API (layer 3): what the app under test is told, and the Core Location-shaped
// services it calls. The first form (calls and callbacks that name objects by `ObjectID`) is
// `package`: the objects (`LocationManager`, the sessions, `Monitor`) and the typed handles
// (`BackgroundTaskID`, `TimerID`, `LiveUpdatesID`) are the public API.
import Simulation

/// The app code under test. A new engine is made for every process launch (in-memory state
/// dies with the process); it reacts to callbacks and calls `services` to ask for location.
public protocol AppEngine: AnyObject {
    /// `didFinishLaunching`: foreground or background, whether saved data is readable.
    func didLaunch(_ launch: LaunchContext, services: LocationServices)
    /// The process moved between foreground and background (not told of suspension).
    func lifecycleChanged(to state: ProcessState, services: LocationServices)
    /// A location from a manager or a live-updates stream.
    func didReceive(_ update: LocationUpdate, services: LocationServices)
    /// A significant-change, region, condition or visit event.
    func didReceive(_ event: MonitoringEvent, services: LocationServices)
    /// The authorization changed.
    func authorizationChanged(to authorization: Authorization, services: LocationServices)
    /// The accuracy authorization changed; told only to a process with a delegate on a
    /// `LocationManager` (Core Location tells only delegates).
    func accuracyAuthorizationChanged(
        to accuracy: AccuracyAuthorization, services: LocationServices)
    /// The first unlock after a boot made saved data readable (R-D9).
    func protectedDataDidBecomeAvailable(services: LocationServices)
    /// A background task's time is up; end it now or the process is killed (R-F1).
    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices)
    /// A commit of the store completed: its rows are durable and in `Store.rows`. Called
    /// when the process runs: a commit that completes while it is suspended is durable at
    /// once, and this callback waits for the process to run again.
    func storeDidCommit(_ commit: CommitID, services: LocationServices)
    /// An upload request ended (`urlSession(_:task:didCompleteWithError:)`): accepted by the
    /// server, failed, or cancelled because the process was suspended outside a background task
    /// (R-D13). Called when the process runs. `Uploader.didCompleteUpload` handles its own.
    func didCompleteUpload(_ task: UploadTaskID, result: UploadResult, services: LocationServices)
    /// A timer made with `LocationServices.scheduledTimer(after:)` fired. Called only while the
    /// process runs: one that came due while it was suspended fires when it runs again.
    func timerDidFire(_ timer: TimerID, services: LocationServices)
    /// `applicationWillTerminate`: the process is about to end. Called only when the user
    /// force-quits a running app (foreground, or background and not suspended) and the policy's
    /// `willTerminateOnForceQuit` holds; never for a suspended app, a memory purge (R-F3), a
    /// crash, an exit or a reboot. The requests made here go out as the process ends: those
    /// that outlive it (significant change, regions, monitor conditions, visits) take effect
    /// (R-D7); the rest end with the process. Store commits and saved-record changes made here
    /// do not reach the disk before the process ends.
    func applicationWillTerminate(services: LocationServices)
    /// The user turned tracking on (`on`) or off with the app's own switch
    /// (`UserAction.trackingOn`, `.trackingOff`). Called with the app in the foreground: the
    /// operating system brings it there first, as `open` does (launching it if it is not
    /// running, after `didLaunch`). By default nothing happens; a `TrackingEngine` calls its
    /// `start(services:)` or `stop(services:)`.
    func userDidSetTracking(_ on: Bool, services: LocationServices)
    /// The system runs the app in the background for `kind` (R-H1, R-H4): an app refresh task
    /// came due, or a silent push arrived. The app runs until it calls
    /// `services.completeWake(_:success:)` or its time is up (`appRefreshRuntime`,
    /// `remoteNotificationRuntime`). By default the wake is completed at once.
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices)
    /// An app refresh task's time is up (R-H3): complete it now or the process is killed
    /// `backgroundTaskWatchdogDelay` later. By default it is completed, unsuccessful, as the
    /// system marks a `BGTask` with no expiration handler. A silent push has no such call: its
    /// process is killed when its time is up (R-H4).
    func wakeWillExpire(_ task: WakeTaskID, services: LocationServices)
    /// A background upload (`LocationServices.urlSession.backgroundUploadTask`) ended:
    /// `urlSession(_:task:didCompleteWithError:)` (R-H5–R-H7). A running app is told as it
    /// ends; an app that was not running is told after the wake for its session
    /// (`didBeginWake` with `.backgroundURLSession`, R-H6), or when it next runs.
    func didCompleteBackgroundTransfer(
        _ event: BackgroundTransferEvent, services: LocationServices)
    /// Every event of the background session `session` was delivered after a wake for it:
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)` (R-H6). Complete the wake
    /// (the handler of `handleEventsForBackgroundURLSession`) then, if not before.
    func backgroundSessionDidFinishEvents(_ session: String, services: LocationServices)
}

extension AppEngine {
    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {}
    public func didReceive(_ update: LocationUpdate, services: LocationServices) {}
    public func didReceive(_ event: MonitoringEvent, services: LocationServices) {}
    public func authorizationChanged(to authorization: Authorization, services: LocationServices) {}
    public func accuracyAuthorizationChanged(
        to accuracy: AccuracyAuthorization, services: LocationServices
    ) {}
    public func protectedDataDidBecomeAvailable(services: LocationServices) {}
    /// By default the expiry handler ends the task, as a well-behaved app does.
    public func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        services.endBackgroundTask(task)
    }
    public func storeDidCommit(_ commit: CommitID, services: LocationServices) {}
    public func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {}
    public func timerDidFire(_ timer: TimerID, services: LocationServices) {}
    public func applicationWillTerminate(services: LocationServices) {}
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {}
    public func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        services.completeWake(task, success: true)
    }
    public func wakeWillExpire(_ task: WakeTaskID, services: LocationServices) {
        services.completeWake(task, success: false)
    }
    public func didCompleteBackgroundTransfer(
        _ event: BackgroundTransferEvent, services: LocationServices
    ) {}
    public func backgroundSessionDidFinishEvents(_ session: String, services: LocationServices) {}
}

/// The first form's callbacks that name a manager by its handle (`ObjectID`), for engines
/// inside this package that use the first form (`LocationServices.makeManager()` and the calls
/// that take its handle). A team's engine gets the same through `LocationManagerDelegate`
/// (`didFailWithError`, `monitoringDidFailFor`, `didPause…`/`didResume…`). The app process
/// calls them on an engine that conforms, before the delegates, as before.
package protocol FirstFormCallbacks: AppEngine {
    /// `didFailWithError` on a manager.
    func didFail(_ error: LocationError, manager: ObjectID, services: LocationServices)
    /// `monitoringDidFailFor` a legacy region (over the limit, or reduced accuracy; R-F8).
    func monitoringDidFail(
        for region: String, error: LocationError, manager: ObjectID, services: LocationServices)
    /// A manager's updates paused automatically (R-F4), or resumed when the app restarted them;
    /// told only for a `LocationManager` with a delegate.
    func locationUpdatesPausedChanged(
        manager: ObjectID, paused: Bool, services: LocationServices)
}

extension FirstFormCallbacks {
    package func didFail(_ error: LocationError, manager: ObjectID, services: LocationServices) {}
    package func monitoringDidFail(
        for region: String, error: LocationError, manager: ObjectID, services: LocationServices
    ) {}
    package func locationUpdatesPausedChanged(
        manager: ObjectID, paused: Bool, services: LocationServices
    ) {}
}

/// What an engine asks of the system; sent to the location daemon (and the operating system)
/// when the callback returns.
package enum AppRequest: Sendable, Equatable, CustomStringConvertible {
    case createManager(ObjectID)
    /// A `LocationManager` object was given a delegate (the first time): from now on the
    /// daemon sends it the callbacks only a delegate gets (pause and resume, accuracy).
    case setDelegate(ObjectID)
    case setAllowsBackgroundLocationUpdates(ObjectID, Bool)
    case setPausesLocationUpdatesAutomatically(ObjectID, Bool)
    case setShowsBackgroundLocationIndicator(ObjectID, Bool)
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
    /// A `ServiceSession` object: a service session with its requirement, which cannot be
    /// `denied`, and whether it requires full accuracy (R-B9).
    case beginServiceSessionRequiring(ObjectID, ServiceSessionRequirement, fullAccuracy: Bool)
    /// A session object wants its diagnostics: the daemon sends one whenever it changes.
    case observeSessionDiagnostics(ObjectID)
    case startSignificantChanges
    case stopSignificantChanges
    case openMonitor(String)
    case addCondition(monitor: String, condition: String, center: Coordinate, radiusMeters: Double)
    case removeCondition(monitor: String, condition: String)
    /// A `Monitor` object adds a condition: as `addCondition`, with the state the app assumes,
    /// and its events carry their record (state and instant).
    case addMonitorCondition(
        monitor: String, condition: String, center: Coordinate, radiusMeters: Double,
        assuming: ConditionState)
    /// A `Monitor` object was opened: the daemon sends the process the monitor's records.
    case requestMonitorRecords(String)
    case startMonitoringRegion(ObjectID, CircularRegion)
    /// After `startMonitoringRegion` from a manager whose delegate is told
    /// `didStartMonitoringFor` (R-G4): the daemon confirms the region if it now monitors it.
    case confirmMonitoringStart(ObjectID, identifier: String)
    /// `requestState(for:)` of a monitored legacy region (R-G3).
    case requestRegionState(ObjectID, identifier: String)
    /// `requestLocation()`: one fix, then the request ends (R-G1).
    case requestLocation(ObjectID)
    case stopMonitoringRegion(ObjectID, identifier: String)
    case startVisits
    case stopVisits
    case beginBackgroundTask(ObjectID)
    case endBackgroundTask(ObjectID)
    /// `requestWhenInUseAuthorization()`.
    case requestWhenInUseAuthorization
    /// `requestAlwaysAuthorization()`.
    case requestAlwaysAuthorization
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`: the operating system
    /// answers `answer`, if given (a completion waits for it), when the request completes
    /// (`SystemAnswer.temporaryFullAccuracy`).
    case requestTemporaryFullAccuracy(purposeKey: String, answer: ObjectID?)
    /// `BGTaskScheduler.getPendingTaskRequests(completionHandler:)`: the operating system
    /// answers `answer` with its pending requests (`SystemAnswer.pendingTaskRequests`).
    case getPendingTaskRequests(answer: ObjectID)
    /// `BGTaskScheduler.submit(_:)` of an app refresh request (R-H1): it replaces a pending
    /// request with the same identifier.
    /// `dated`: the request had an `earliestBeginDate` (without one, `earliestBegin` is the
    /// instant it was submitted, and `getPendingTaskRequests` hands back none).
    case submitAppRefresh(identifier: String, earliestBegin: Instant, dated: Bool)
    /// `cancel(taskRequestWithIdentifier:)`, or `cancelAllTaskRequests()` (nil): app refresh
    /// and processing requests alike.
    case cancelAppRefresh(identifier: String?)
    /// `BGTaskScheduler.submit(_:)` of a processing request (R-H10).
    case submitProcessing(
        identifier: String, earliestBegin: Instant, dated: Bool, requiresNetwork: Bool,
        requiresPower: Bool)
    /// `setTaskCompleted(success:)`, or a fetch completion handler called (R-H3, R-H4).
    case completeWake(WakeTaskID, success: Bool)
    /// The app reads its background time (`UIApplication.backgroundTimeRemaining`): from now
    /// on the operating system tells the app's processes each change of it (R-F1,
    /// `WorldMessage.backgroundTime`).
    case watchBackgroundTime

    package var description: String {
        switch self {
        case .createManager(let id): "create manager \(id)"
        case .setDelegate(let id): "manager \(id) delegate set"
        case .setAllowsBackgroundLocationUpdates(let id, let allowed):
            "manager \(id) allows background \(allowed)"
        case .setPausesLocationUpdatesAutomatically(let id, let pauses):
            "manager \(id) pauses automatically \(pauses)"
        case .setShowsBackgroundLocationIndicator(let id, let shows):
            "manager \(id) shows background indicator \(shows)"
        case .setDesiredAccuracy(let id, let meters):
            "manager \(id) desired accuracy \(PlainText.fixed(meters, digits: 1))m"
        case .setDistanceFilter(let id, let meters):
            "manager \(id) distance filter \(PlainText.fixed(meters, digits: 1))m"
        case .setActivityType(let id, let type): "manager \(id) activity type \(type.rawValue)"
        case .startUpdatingLocation(let id): "manager \(id) start updating"
        case .stopUpdatingLocation(let id): "manager \(id) stop updating"
        case .startLiveUpdates(let id, let configuration):
            "live updates \(id) start \(configuration.rawValue)"
        case .stopLiveUpdates(let id): "live updates \(id) stop"
        case .beginBackgroundActivitySession(let id): "background activity session \(id) begin"
        case .invalidateBackgroundActivitySession(let id):
            "background activity session \(id) invalidate"
        case .beginServiceSession(let id, let authorization):
            "service session \(id) begin \(authorization.rawValue)"
        case .invalidateServiceSession(let id): "service session \(id) invalidate"
        case .beginServiceSessionRequiring(let id, let requirement, let fullAccuracy):
            "service session \(id) begin requiring \(requirement.rawValue)"
                + (fullAccuracy ? " with full accuracy" : "")
        case .observeSessionDiagnostics(let id): "session \(id) diagnostics observed"
        case .startSignificantChanges: "significant changes start"
        case .stopSignificantChanges: "significant changes stop"
        case .openMonitor(let name): "monitor \(name) open"
        case .addCondition(let monitor, let condition, let center, let radius):
            "monitor \(monitor) add \(condition) at \(center) radius \(PlainText.fixed(radius, digits: 1))m"
        case .removeCondition(let monitor, let condition): "monitor \(monitor) remove \(condition)"
        case .addMonitorCondition(let monitor, let condition, let center, let radius, let state):
            "monitor \(monitor) add \(condition) at \(center) radius "
                + "\(PlainText.fixed(radius, digits: 1))m assuming \(state.rawValue)"
        case .requestMonitorRecords(let monitor): "monitor \(monitor) records requested"
        case .startMonitoringRegion(let id, let region):
            "manager \(id) monitor region \(region.identifier) at \(region.center) radius "
                + "\(PlainText.fixed(region.radiusMeters, digits: 1))m"
        case .stopMonitoringRegion(let id, let identifier):
            "manager \(id) stop monitoring region \(identifier)"
        case .confirmMonitoringStart(let id, let identifier):
            "manager \(id) confirm monitoring region \(identifier)"
        case .requestRegionState(let id, let identifier):
            "manager \(id) request state of region \(identifier)"
        case .requestLocation(let id): "manager \(id) request location"
        case .startVisits: "visits start"
        case .stopVisits: "visits stop"
        case .beginBackgroundTask(let id): "background task \(id) begin"
        case .endBackgroundTask(let id): "background task \(id) end"
        case .requestWhenInUseAuthorization: "request when-in-use authorization"
        case .requestAlwaysAuthorization: "request always authorization"
        case .requestTemporaryFullAccuracy(let key, _): "request temporary full accuracy \(key)"
        case .getPendingTaskRequests(let answer): "get pending task requests (answer \(answer))"
        case .submitAppRefresh(let identifier, let earliestBegin, _):
            "submit app refresh \(identifier) earliest \(earliestBegin)"
        case .cancelAppRefresh(let identifier): "cancel app refresh \(identifier ?? "all")"
        case .submitProcessing(let identifier, let earliestBegin, _, let network, let power):
            "submit processing \(identifier) earliest \(earliestBegin)"
                + (network ? " requiring network" : "") + (power ? " requiring power" : "")
        case .completeWake(let task, let success): "\(task) completed \(success)"
        case .watchBackgroundTime: "watch background time"
        }
    }
}

extension AppRequest {
    /// True for a registration that outlives the process that made it (significant change,
    /// visits, monitor conditions, legacy regions, R-A10).
    var outlivesProcess: Bool {
        switch self {
        case .startSignificantChanges, .stopSignificantChanges, .startVisits, .stopVisits,
            .addCondition, .removeCondition, .addMonitorCondition, .startMonitoringRegion,
            .stopMonitoringRegion:
            true
        default: false
        }
    }

    /// True for `beginBackgroundTask` and `endBackgroundTask`.
    var isBackgroundTaskRequest: Bool {
        switch self {
        case .beginBackgroundTask, .endBackgroundTask: true
        default: false
        }
    }

    /// True for the requests the operating system handles (background tasks and authorization
    /// prompts); the location daemon handles the rest.
    var isOperatingSystemRequest: Bool {
        switch self {
        case .beginBackgroundTask, .endBackgroundTask, .requestWhenInUseAuthorization,
            .requestAlwaysAuthorization, .requestTemporaryFullAccuracy, .submitAppRefresh,
            .cancelAppRefresh, .completeWake, .submitProcessing, .watchBackgroundTime,
            .getPendingTaskRequests:
            true
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
///
/// A call to an API that the modelled iOS version lacks (`CoreLocationAPI`) does nothing and
/// leaves an error in the app's log, naming the API and the version that introduced it.
///
/// The app's own data is here too: `openStore()` (a durable store, modelled on SQLite) and
/// `userDefaults` (a small saved record); see `Store` and `SavedRecord`.
public final class LocationServices {
    /// What the engine asked for so far in this callback.
    private var asked = CallbackRequests()
    /// The requests made so far in this callback.
    package var requests: [AppRequest] { asked.requests }
    /// The assertion that ended the process, if one did.
    package var crashReason: String? { assertionMessage }
    // Not public itself, so that the compiler sees every access and checks them statically.
    private var assertionMessage: String? {
        didSet { storage.halted = assertionMessage != nil }
    }
    /// Calls made in this callback to APIs the modelled iOS version lacks.
    package var unavailableCalls: [CoreLocationAPI] { asked.unavailableCalls }
    /// The saved record, like `UserDefaults.standard`: read at once, written to disk
    /// `savedRecordWriteDelay` after a change; empty before the first unlock (R-D9).
    public let userDefaults: SavedRecord
    private let capabilities: AppCapabilities
    /// The modelled iOS major version (`IOSPolicy.systemVersion`).
    package let systemVersion: Int
    /// The process's number among the app's processes (its generation: 1 for the first
    /// launch), LifelineKit's deterministic stand-in for a process identifier.
    package internal(set) var processNumber = 0
    private var nextObjectID: Int
    /// This process's side of its data, shared with its store and saved record.
    let storage: ProcessStorage
    private var store: Store?
    /// The store this process opened, if any (its open transaction dies with the process).
    var openedStore: Store? { store }
    /// What the system keeps for the app across its processes (`SystemRecord`), owned by the
    /// app-process actor: read only.
    let system: SystemRecord
    /// The `LocationManager` objects made in this process, in creation order. The services
    /// keep each for the life of the process (Core Location stops a manager the app lets go
    /// of; keep a reference anyway, as an iOS app must).
    package private(set) var locationManagers: [LocationManager] = []
    /// What the app process sets before each callback: the facts below, in one value so that
    /// setting them is one write (`AppProcess.call`).
    var moment = CallbackMoment()
    /// `authorizationStatus` as the app sees it now: from the launch, then each
    /// authorization callback.
    public var authorizationStatus: Authorization { moment.authorizationStatus }
    /// `accuracyAuthorization` as the app sees it now: the one at launch (the launch context's),
    /// then each change the system has sent the app (sent once a manager has a delegate).
    public var accuracyAuthorization: AccuracyAuthorization { moment.accuracyAuthorization }
    /// `ProcessInfo.isLowPowerModeEnabled` now (`UserAction.setLowPowerMode`; off at the
    /// start). While it is on Background App Refresh is off (`isBackgroundRefreshEnabled`,
    /// R-H13); the world models no effect of it on location services.
    public var isLowPowerModeEnabled: Bool { moment.isLowPowerModeEnabled }
    /// Whether Background App Refresh is on for the app (`UIApplication.backgroundRefreshStatus`
    /// is `.available`): as the user last set it (`UserAction.setBackgroundRefresh`, on at the
    /// start, R-H12), and off while Low Power Mode is on (R-H13). While it is off, task
    /// requests are refused and none runs.
    public var isBackgroundRefreshEnabled: Bool { moment.isBackgroundRefreshEnabled }
    /// `UIApplication.backgroundTimeRemaining` for a process in the background: the app's
    /// background time left at this callback (R-F1), as the operating system counts it; nil
    /// while it is unlimited (not on borrowed time: kept running by location or a test host).
    /// Exact once the app has asked for it (`watchBackgroundTime`); before the first report of
    /// a process, the policy's `backgroundTaskBudget`.
    package var backgroundTimeRemaining: VirtualDuration? {
        moment.backgroundTime.remaining(at: moment.now)
    }
    /// Asks the operating system to tell this app's processes their background time from now
    /// on (`backgroundTimeRemaining`). Only a process that reads it asks, so no other run
    /// carries the messages.
    package func watchBackgroundTime() { record(.watchBackgroundTime) }
    /// The boot time as `sysctl kern.boottime` gives it: fixed for a boot, the same across
    /// relaunches, new after a reboot (an engine detects a reboot by comparing it). Being the
    /// wall clock less the uptime, it moves when the clock is adjusted (`adjustClock`).
    public var bootTime: BootTime { moment.bootTime }
    /// `ProcessInfo.systemUptime`: the time since the boot, less the time the device slept
    /// (`DeviceSleep`: while its screen is locked, and from a boot to the unlock), at the
    /// instant of the callback. So `now - uptime` is not the boot time: an engine that detects
    /// a reboot from it sees one after every long lock (source B, R-B12).
    public var uptime: VirtualDuration { moment.uptime }
    /// The virtual instant of the callback, the instant fixes carry. It stands for `Date()`,
    /// except that `UserAction.adjustClock` moves only `bootTime`, not this.
    public var now: Instant { moment.now }
    /// `UIBackgroundModes` of the app's Info.plist, as `Bundle.main` reads it: `["location"]`
    /// when the location background mode is declared, empty otherwise. An engine that sets
    /// `allowsBackgroundLocationUpdates` checks it first (R-A9).
    public var backgroundModes: [String] {
        capabilities.backgroundModes ?? (capabilities.locationBackgroundMode ? ["location"] : [])
    }
    /// `BGTaskSchedulerPermittedIdentifiers` as `Bundle.main` reads it, nil when the app's
    /// profile does not say (every identifier is then permitted, R-H11).
    public var permittedTaskIdentifiers: [String]? { capabilities.permittedTaskIdentifiers }
    /// The process's upload session, like `URLSession.shared`: requests made on it go to the
    /// network when the callback returns.
    public let urlSession: UploadSession
    /// The app's files on the device (its container), which outlive the process.
    package var files: DeviceFiles?
    /// The device's motion coprocessor (R-M1), for Core Motion's shapes.
    package var motion: MotionCoprocessor?
    /// The device's battery (R-B1, R-B2), for `UIDevice`.
    package var battery: Battery?
    /// The beacons along the route (R-L45), for Core Location's beacon shapes.
    package var beacons: BeaconField?

    init(
        capabilities: AppCapabilities, systemVersion: Int, nextObjectID: Int,
        system: SystemRecord = SystemRecord()
    ) {
        self.system = system
        self.capabilities = capabilities
        self.systemVersion = systemVersion
        self.nextObjectID = nextObjectID
        storage = ProcessStorage()
        userDefaults = SavedRecord(storage: storage)
        urlSession = UploadSession(storage: storage, system: system)
    }

    /// Opens the app's store (one connection per process: every call returns the same one).
    /// - Throws: `StoreError.protectedDataUnavailable` before the first unlock after a boot
    ///   (R-D9): the app's container cannot be opened until then.
    public func openStore() throws -> Store {
        guard storage.protectedDataAvailable else {
            storage.ask { $0.openFailures.append(.protectedDataUnavailable) }
            throw StoreError.protectedDataUnavailable
        }
        if let store { return store }
        let opened = Store(storage: storage)
        store = opened
        return opened
    }

    /// True when the engine asked for anything in this callback.
    var hasRequests: Bool {
        !asked.requests.isEmpty || !asked.unavailableCalls.isEmpty
            || !asked.timerRequests.isEmpty || !asked.newPathWatchers.isEmpty
    }

    /// Hands the app process what the engine asked for in the callback that returned, and
    /// forgets it; object ids keep counting (within a process).
    func takeRequests() -> CallbackRequests {
        var taken = CallbackRequests()
        swap(&taken, &asked)
        return taken
    }

    func record(_ request: AppRequest) {
        if crashReason == nil { ask { $0.requests.append(request) } }
    }

    /// Runs `change` on the callback's requests moved out and back: no call runs inside an
    /// access to `asked`, so Swift checks every access to it statically (an append inside the
    /// access made the compiler check them all at run time, at every callback).
    private func ask(_ change: (inout CallbackRequests) -> Void) {
        var moved = CallbackRequests()
        swap(&moved, &asked)
        change(&moved)
        swap(&moved, &asked)
    }

    /// Registers a new `LocationManager` object (called by its initializer).
    func register(_ manager: LocationManager) { locationManagers.append(manager) }

    /// The session objects made in this process, in creation order (kept for the life of the
    /// process, so their diagnostics can reach them).
    private(set) var sessions: [any DiagnosedSession] = []
    /// The `Monitor` objects opened in this process, one per name, in the order opened.
    package private(set) var monitors: [Monitor] = []

    /// Registers a new session object (called by its initializer).
    func register(_ session: any DiagnosedSession) { sessions.append(session) }

    /// The session object with handle `id`, if this process made one.
    func session(_ id: ObjectID) -> (any DiagnosedSession)? { sessions.first { $0.id == id } }

    /// `CLMonitor(name)`: the monitor named `name`, opened the first time it is asked for in
    /// this process (the same object after that). Opening it listens for its events, those
    /// held for a relaunched app included (R-A12), and asks the daemon for its records.
    public func monitor(named name: String) -> Monitor {
        if let opened = monitors.first(where: { $0.name == name }) { return opened }
        let opened = Monitor(name: name, services: self)
        monitors.append(opened)
        return opened
    }

    /// The `LocationManager` object with handle `id`, if this process made one.
    package func locationManager(_ id: ObjectID) -> LocationManager? {
        locationManagers.first { $0.id == id }
    }

    /// A new `LocationManager` object, like `CLLocationManager()`: the same as
    /// `LocationManager(services: self)`.
    public func makeLocationManager() -> LocationManager { LocationManager(services: self) }

    /// Records `request` if `api` exists on the modelled version; otherwise notes the misuse.
    func record(_ request: AppRequest, using api: CoreLocationAPI) {
        guard crashReason == nil else { return }
        if api.isAvailable(onVersion: systemVersion) {
            ask { $0.requests.append(request) }
        } else {
            ask { $0.unavailableCalls.append(api) }
        }
    }

    /// Records `request`, which follows a call to `api` already noted, only if `api` exists on
    /// the modelled version (a misuse is noted once, by that call).
    func recordIfAvailable(_ request: AppRequest, _ api: CoreLocationAPI) {
        if isAvailable(api) { record(request) }
    }

    /// True when `api` exists on the modelled iOS version.
    func isAvailable(_ api: CoreLocationAPI) -> Bool { api.isAvailable(onVersion: systemVersion) }

    /// The completions of this process's requests still waiting for the system's answer, in
    /// the order asked (`SystemAnswers.swift`).
    private var awaitedAnswers: [(request: ObjectID, receive: (SystemAnswer) -> Void)] = []

    /// A new request handle whose answer (`receiveAnswer`) goes to `receive`.
    func awaitAnswer(_ receive: @escaping (SystemAnswer) -> Void) -> ObjectID {
        let request = newObject()
        if crashReason == nil { awaitedAnswers.append((request, receive)) }
        return request
    }

    /// The system answered `request`: its completion runs, once; a network path watcher's
    /// runs at every answer (R-N47).
    func receiveAnswer(_ request: ObjectID, _ answer: SystemAnswer) {
        if case .networkPath(let satisfied) = answer {
            pathWatchers.first { $0.watcher == request }?.receive(satisfied)
            return
        }
        guard let index = awaitedAnswers.firstIndex(where: { $0.request == request }) else {
            return
        }
        let receive = awaitedAnswers.remove(at: index).receive
        receive(answer)
    }

    /// The process's network path watchers (`watchNetworkPath`), in the order made.
    private(set) var pathWatchers: [(watcher: ObjectID, receive: (Bool) -> Void)] = []

    /// `NWPathMonitor.start(queue:)` (R-N47): `receive` runs with whether the network is up,
    /// in a later callback, soon after this one, then at every change while the process runs
    /// (a change while it is suspended reaches it when it runs again), until
    /// `stopWatchingNetworkPath`.
    /// - Returns: the watcher, to stop it.
    package func watchNetworkPath(_ receive: @escaping (Bool) -> Void) -> ObjectID {
        let watcher = newObject()
        guard crashReason == nil else { return watcher }
        pathWatchers.append((watcher, receive))
        ask { $0.newPathWatchers.append(watcher) }
        return watcher
    }

    /// `NWPathMonitor.cancel()`: `watcher`'s receive never runs again.
    package func stopWatchingNetworkPath(_ watcher: ObjectID) {
        pathWatchers.removeAll { $0.watcher == watcher }
    }

    /// `CLLocationManager.locationServicesEnabled()` now: whether the user has Location
    /// Services on for the whole phone (R-L40; `UserAction.setLocationServices`, on at the
    /// start).
    public var locationServicesEnabled: Bool { moment.locationServicesEnabled }

    private func newObject() -> ObjectID {
        defer { nextObjectID += 1 }
        return ObjectID(nextObjectID)
    }

    /// A new `CLLocationManager` (background updates off, R-A8; automatic pause on, R-F4).
    package func makeManager() -> ObjectID {
        let id = newObject()
        record(.createManager(id))
        return id
    }

    /// `allowsBackgroundLocationUpdates`; true without the background mode aborts (R-A9).
    package func setAllowsBackgroundLocationUpdates(_ manager: ObjectID, _ allowed: Bool) {
        guard crashReason == nil else { return }
        if allowed && !capabilities.locationBackgroundMode {
            raiseAssertion(
                "*** Assertion failure in -[CLLocationManager setAllowsBackgroundLocationUpdates:] "
                    + "(UIBackgroundModes lacks location)")
            return
        }
        record(.setAllowsBackgroundLocationUpdates(manager, allowed))
    }

    /// A system framework's assertion in the app's own call (on iOS an
    /// `NSInternalInconsistencyException`): the process crashes when the callback returns, and
    /// the app's log names `message` (`no-capability-trap` reports it). The first one counts.
    /// R-A9 above; LifelineKit's `BGTaskScheduler` raises one for a launch handler registered
    /// after the app finished launching (R-H14).
    package func raiseAssertion(_ message: String) {
        guard crashReason == nil else { return }
        assertionMessage = message
    }

    package func setPausesLocationUpdatesAutomatically(_ manager: ObjectID, _ pauses: Bool) {
        record(.setPausesLocationUpdatesAutomatically(manager, pauses))
    }
    /// `showsBackgroundLocationIndicator` (false by default, R-A8): it matters only for an
    /// Always app, which shows the blue background location indicator while this manager
    /// delivers in the background only if it is true (R-B8). When In Use apps always show it.
    package func setShowsBackgroundLocationIndicator(_ manager: ObjectID, _ shows: Bool) {
        record(.setShowsBackgroundLocationIndicator(manager, shows))
    }
    /// `desiredAccuracy` in metres (`kCLLocationAccuracyBest` is the default; 3000 is
    /// `kCLLocationAccuracyThreeKilometers`): it chooses the source of the fixes.
    package func setDesiredAccuracy(_ manager: ObjectID, meters: Double) {
        record(.setDesiredAccuracy(manager, meters: meters))
    }
    /// `distanceFilter` in metres (none by default).
    package func setDistanceFilter(_ manager: ObjectID, meters: Double) {
        record(.setDistanceFilter(manager, meters: meters))
    }
    /// `activityType` (`.other` by default).
    package func setActivityType(_ manager: ObjectID, _ type: ActivityType) {
        record(.setActivityType(manager, type))
    }
    package func startUpdatingLocation(_ manager: ObjectID) {
        record(.startUpdatingLocation(manager))
    }
    package func stopUpdatingLocation(_ manager: ObjectID) {
        record(.stopUpdatingLocation(manager))
    }

    /// Starts iterating `CLLocationUpdate.liveUpdates(configuration)`.
    public func startLiveUpdates(_ configuration: LiveConfiguration = .default) -> LiveUpdatesID {
        let id = newObject()
        record(.startLiveUpdates(id, configuration), using: .liveUpdates)
        return LiveUpdatesID(id)
    }
    /// Stops the stream `stream` (the iteration of `liveUpdates` ends).
    public func stopLiveUpdates(_ stream: LiveUpdatesID) {
        record(.stopLiveUpdates(stream.object), using: .liveUpdates)
    }

    /// Creates and holds a `CLBackgroundActivitySession` (R-C5).
    package func beginBackgroundActivitySession() -> ObjectID {
        beginBackgroundActivitySession(observed: false)
    }

    /// A background activity session; `observed` also asks for its diagnostics (a
    /// `BackgroundActivitySession` object).
    func beginBackgroundActivitySession(observed: Bool) -> ObjectID {
        let id = newObject()
        record(.beginBackgroundActivitySession(id), using: .backgroundActivitySession)
        if observed {
            recordIfAvailable(.observeSessionDiagnostics(id), .backgroundActivitySession)
        }
        return id
    }

    /// A `ServiceSession` object's session: its requirement and its diagnostics.
    func beginServiceSession(requiring requirement: ServiceSessionRequirement, fullAccuracy: Bool)
        -> ObjectID
    {
        let id = newObject()
        record(
            .beginServiceSessionRequiring(id, requirement, fullAccuracy: fullAccuracy),
            using: .serviceSession)
        recordIfAvailable(.observeSessionDiagnostics(id), .serviceSession)
        return id
    }
    package func invalidateBackgroundActivitySession(_ session: ObjectID) {
        record(.invalidateBackgroundActivitySession(session), using: .backgroundActivitySession)
    }

    /// Creates and holds a `CLServiceSession` (R-B9).
    package func beginServiceSession(authorization: Authorization) -> ObjectID {
        let id = newObject()
        record(.beginServiceSession(id, authorization), using: .serviceSession)
        return id
    }
    package func invalidateServiceSession(_ session: ObjectID) {
        record(.invalidateServiceSession(session), using: .serviceSession)
    }

    public func startMonitoringSignificantLocationChanges() { record(.startSignificantChanges) }
    public func stopMonitoringSignificantLocationChanges() { record(.stopSignificantChanges) }

    /// Opens `CLMonitor(name)` and starts reading its events: a relaunched app must do this with
    /// the same name to receive the event that woke it (R-A12).
    package func openMonitor(_ name: String) { record(.openMonitor(name), using: .monitor) }

    /// Adds a `CircularGeographicCondition` to the monitor `monitor` (R-F8).
    package func addCondition(
        monitor: String, condition: String, center: Coordinate, radiusMeters: Double
    ) {
        record(
            .addCondition(
                monitor: monitor, condition: condition, center: center, radiusMeters: radiusMeters),
            using: .monitor)
    }
    package func removeCondition(monitor: String, condition: String) {
        record(.removeCondition(monitor: monitor, condition: condition), using: .monitor)
    }

    /// `startMonitoring(for:)` with a `CLCircularRegion` on `manager` (R-B6): the region
    /// persists across launches and relaunches the app on exit; a region with the same
    /// identifier replaces the old one. Over `regionCountMax` regions and conditions, or with
    /// reduced accuracy, the manager gets `monitoringDidFailFor` (R-F8, R-F10).
    package func startMonitoring(_ manager: ObjectID, for region: CircularRegion) {
        record(.startMonitoringRegion(manager, region))
    }
    /// `stopMonitoring(for:)` by the region's identifier.
    package func stopMonitoring(_ manager: ObjectID, regionIdentifier: String) {
        record(.stopMonitoringRegion(manager, identifier: regionIdentifier))
    }

    /// The system's most recent location, as `CLLocationManager.location` reads it: the last
    /// fix the location daemon produced for this app (delivered, held or withheld), kept by the
    /// system across launches, so a freshly launched process reads it before any fix of its
    /// own (R-G2). Nil before the first fix and while the app is not authorized.
    public var cachedLocation: Fix? {
        authorizationStatus == .always || authorizationStatus == .whenInUse
            ? system.lastFix : nil
    }

    /// The legacy regions the system monitors for this app (`monitoredRegions`, R-G5): those
    /// any process of the app registered and did not stop, in the order registered, less
    /// those the daemon refused (`monitoringDidFailFor`). It survives relaunches and reboots.
    public var monitoredRegions: [CircularRegion] {
        SystemRecord.regions(system.regions, after: asked.requests)
    }

    /// Visit monitoring (R-F9): it outlives the process, and a relaunched app receives visits
    /// without starting it again once it has a manager (F).
    public func startMonitoringVisits() { record(.startVisits) }
    public func stopMonitoringVisits() { record(.stopVisits) }

    /// `beginBackgroundTask` (R-F1).
    public func beginBackgroundTask() -> BackgroundTaskID {
        let id = newObject()
        record(.beginBackgroundTask(id))
        return BackgroundTaskID(id)
    }
    /// `endBackgroundTask(_:)`.
    public func endBackgroundTask(_ task: BackgroundTaskID) {
        record(.endBackgroundTask(task.object))
    }

    /// `BGTaskScheduler.submit(_:)` with a `BGAppRefreshTaskRequest` (R-H1): the system runs
    /// the app in the background no earlier than `earliestBegin` (now when nil or past), and
    /// hands the engine `didBeginWake` with `.appRefresh(identifier:)`. A request with the same
    /// identifier replaces the pending one. The request outlives the process.
    /// - Returns: false, and nothing is submitted, when the Info.plist does not permit it:
    ///   `fetch` missing from the background modes, or the identifier from the permitted task
    ///   identifiers (R-H11, `BGTaskScheduler.Error.Code.notPermitted`), or Background App
    ///   Refresh is off (R-H12, `unavailable`).
    @discardableResult
    public func submitAppRefresh(identifier: String, earliestBegin: Instant?) -> Bool {
        guard capabilities.permitsTask(identifier, mode: "fetch"), isBackgroundRefreshEnabled
        else { return false }
        record(
            .submitAppRefresh(
                identifier: identifier, earliestBegin: earliestBegin ?? now,
                dated: earliestBegin != nil))
        return true
    }
    /// `BGTaskScheduler.submit(_:)` with a `BGProcessingTaskRequest` (R-H10): the system runs
    /// the app in the background (`didBeginWake` with `.processing(identifier:)`) no earlier than
    /// `earliestBegin`, once the app is not in the foreground, with the network up when
    /// `requiresNetworkConnectivity`; never when `requiresExternalPower` (the modelled device is
    /// never on external power). It runs for `processingTaskRuntime`, then expires as an app
    /// refresh does (R-H3). A request with the same identifier replaces the pending one.
    /// - Returns: false, and nothing is submitted, when the Info.plist does not permit it
    ///   (`processing` mode, permitted identifiers, R-H11), or Background App Refresh is off
    ///   (R-H12).
    @discardableResult
    public func submitProcessing(
        identifier: String, earliestBegin: Instant?, requiresNetworkConnectivity: Bool = false,
        requiresExternalPower: Bool = false
    ) -> Bool {
        guard capabilities.permitsTask(identifier, mode: "processing"), isBackgroundRefreshEnabled
        else { return false }
        record(
            .submitProcessing(
                identifier: identifier, earliestBegin: earliestBegin ?? now,
                dated: earliestBegin != nil, requiresNetwork: requiresNetworkConnectivity,
                requiresPower: requiresExternalPower))
        return true
    }
    /// `cancel(taskRequestWithIdentifier:)`; nil cancels every pending request
    /// (`cancelAllTaskRequests()`).
    public func cancelAppRefresh(identifier: String?) {
        record(.cancelAppRefresh(identifier: identifier))
    }
    /// `BGTask.setTaskCompleted(success:)`, or a silent push's fetch completion handler: the
    /// wake no longer keeps the app running (R-H3, R-H4). A second call does nothing.
    public func completeWake(_ task: WakeTaskID, success: Bool) {
        record(.completeWake(task, success: success))
    }

    /// `requestWhenInUseAuthorization()`: while the authorization is not determined and the app
    /// is in the foreground, the user answers the prompt (`AuthorizationAnswers.whenInUse`)
    /// after `responseDelay`, and a change reaches the app as an authorization callback.
    public func requestWhenInUseAuthorization() { record(.requestWhenInUseAuthorization) }

    /// `requestAlwaysAuthorization()`, once per app (later requests are ignored): from not
    /// determined it shows the When-in-Use prompt; from When in Use, the Always prompt
    /// (`AuthorizationAnswers`). Only in the foreground.
    public func requestAlwaysAuthorization() { record(.requestAlwaysAuthorization) }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)` (ios-facts: Reduced
    /// accuracy): with reduced accuracy and the app in the foreground, the user answers
    /// (`AuthorizationAnswers.temporaryFullAccuracy`) after `responseDelay`; granted, accuracy
    /// is full until the process ends, and the change reaches the managers' delegates. In the
    /// background the request fails: nothing changes. With full accuracy it does nothing.
    public func requestTemporaryFullAccuracy(purposeKey: String) {
        record(.requestTemporaryFullAccuracy(purposeKey: purposeKey, answer: nil))
    }

    /// A one-shot timer, like `Timer.scheduledTimer(withTimeInterval:repeats: false)` on the
    /// main run loop: the engine's `timerDidFire` runs `delay` from now, through the mailbox.
    /// A suspended process runs no run loop, so a timer that comes due while it is suspended
    /// fires when the process runs again (as a run-loop timer whose fire date has passed). The
    /// timer is the process's own: it ends with the process, whatever the cause, and the app's
    /// log records that it never fired (`timerEnded`).
    /// - Returns: the timer's handle, which `timerDidFire` carries.
    @discardableResult
    public func scheduledTimer(after delay: VirtualDuration) -> TimerID {
        let id = newObject()
        if crashReason == nil { ask { $0.timerRequests.append(.schedule(id, after: delay)) } }
        return TimerID(id)
    }

    /// `invalidate()`: the timer will not fire (nothing happens if it already has).
    public func invalidateTimer(_ timer: TimerID) {
        if crashReason == nil { ask { $0.timerRequests.append(.invalidate(timer.object)) } }
    }
}

/// The app's upload session, shaped like `URLSession`: an upload task sends one batch to the
/// server (`Network`), and its completion reaches the engine's `didCompleteUpload` through the
/// app's mailbox. Tasks are numbered within the process and die with it.
///
/// A request takes `uploadLatency`. One in flight when the process is suspended is cancelled
/// (a suspended app runs no code) unless a background task keeps the process running (R-D13);
/// one in flight when the process ends is lost with it (R-A1). `Uploader` builds the serial,
/// idempotent queue an engine needs on top of this.
public final class UploadSession {
    private let storage: ProcessStorage
    /// What the system keeps across processes: the numbering of background tasks.
    private let system: SystemRecord
    private var taskCount = 0
    /// Requests made in this callback, in order.
    private(set) var requests: [UploadRequest] = []
    /// Background uploads made in this callback, in order (`BackgroundTransfers.swift`).
    private(set) var backgroundRequests: [BackgroundUploadRequest] = []
    /// Background tasks the app cancelled in this callback, in order.
    private(set) var backgroundCancellations: [BackgroundTransferID] = []
    /// True when the callback made requests of any of the three kinds above: one flag that the
    /// app process reads after every callback, where reading three arrays of a class cost a
    /// run-time exclusivity check each (`lifeline bench day`).
    private(set) var hasRequests = false

    init(storage: ProcessStorage, system: SystemRecord) {
        self.storage = storage
        self.system = system
    }

    /// An upload task of the background session `session`
    /// (`URLSessionConfiguration.background(withIdentifier:)`; `uploadTask(with:fromFile:)`, or
    /// `uploadTask(with:from:)` when `fromFile` is false, then `resume()`): the system's
    /// transfer service carries it on while the app is suspended and after iOS ends the app
    /// (R-H5), waits for the network (R-H8), and after `earliestBeginAfter` (and a
    /// discretionary delay, R-H9) delivers `batch` to the same server as `uploadTask`. A
    /// force-quit cancels it (R-H7); an upload from data fails when its process ends (R-H5).
    /// Its end reaches `AppEngine.didCompleteBackgroundTransfer` (R-H6).
    /// - Returns: the task, numbered by the system across the app's processes.
    @discardableResult
    public func backgroundUploadTask(
        session: String, with batch: UploadBatch, fromFile: Bool = true,
        options: BackgroundTransferOptions = BackgroundTransferOptions(),
        earliestBeginAfter delay: VirtualDuration = .zero
    ) -> BackgroundTransferID {
        let task = makeBackgroundTaskID(session: session)
        backgroundUploadTask(
            task, with: batch, fromFile: fromFile, options: options, earliestBeginAfter: delay)
        return task
    }

    /// A new background task of `session`, numbered by the system, not yet handed to it
    /// (LifelineKit's `uploadTask` numbers a task before its `resume()`).
    package func makeBackgroundTaskID(session: String) -> BackgroundTransferID {
        precondition(!session.isEmpty, "a background session's identifier is not empty")
        return BackgroundTransferID(
            session: session, taskIdentifier: system.nextBackgroundTaskIdentifier())
    }

    /// Hands the system `task`, made by `makeBackgroundTaskID(session:)`.
    package func backgroundUploadTask(
        _ task: BackgroundTransferID, with batch: UploadBatch, fromFile: Bool,
        options: BackgroundTransferOptions, earliestBeginAfter delay: VirtualDuration,
        taskDescription: String? = nil, requestURL: String? = nil
    ) {
        guard !storage.halted else { return }
        var request = BackgroundUploadRequest(
            task: task, batch: batch, earliestBeginDelay: delay, options: options,
            fromFile: fromFile)
        request.taskDescription = taskDescription
        request.requestURL = requestURL
        backgroundRequests.append(request)
        hasRequests = true
    }

    /// `URLSessionTask.cancel()` of a background task handed to the system: the transfer
    /// service ends it with `UploadError.cancelledByApp` unless it has already reached the
    /// server (its end, accepted, is then on its way).
    package func cancelBackgroundTask(_ task: BackgroundTransferID) {
        guard !storage.halted else { return }
        backgroundCancellations.append(task)
        hasRequests = true
    }

    /// `uploadTask(with:from:)` and `resume()`: sends `batch`, beginning after
    /// `earliestBeginAfter` (`earliestBeginDate`). Returns the task's identifier, which its
    /// completion carries.
    @discardableResult
    public func uploadTask(
        with batch: UploadBatch, earliestBeginAfter delay: VirtualDuration = .zero
    ) -> UploadTaskID {
        enqueue { task in UploadRequest(task: task, batch: batch, earliestBeginDelay: delay) }
    }

    /// Numbers a new task and, unless the process is halted, appends the request `make` makes
    /// of it.
    private func enqueue(_ make: (UploadTaskID) -> UploadRequest) -> UploadTaskID {
        taskCount += 1
        let task = UploadTaskID(taskCount)
        guard !storage.halted else { return task }
        // Appended moved out and back, for the reason of `LocationServices.ask`.
        var moved: [UploadRequest] = []
        swap(&moved, &requests)
        moved.append(make(task))
        swap(&moved, &requests)
        hasRequests = true
        return task
    }

    /// A fetch (`dataTask(with:)` of a `GET`, R-N45) of the server's resource at `path`,
    /// beginning after `earliestBeginAfter`: the process's own request, as `uploadTask` (R-D13),
    /// that stores nothing; its end (`UploadResult.answered`, 200 with the resource or 404)
    /// carries the returned identifier.
    @discardableResult
    public func fetchTask(path: String, earliestBeginAfter delay: VirtualDuration = .zero)
        -> UploadTaskID
    {
        enqueue { task in
            UploadRequest(
                task: task, batch: UploadBatch(key: Self.fetchKey, rows: []),
                earliestBeginDelay: delay, fetchPath: path)
        }
    }

    /// The key of a fetch's empty batch (it names no rows, and the server stores none).
    static let fetchKey = UploadBatchKey(firstRowIndex: 0, rowCount: 0)

    /// The background tasks of `session` the system holds for the app, whose end has not yet
    /// reached it, by any process, with those handed over in this callback, in the order
    /// handed over (`URLSession.getAllTasks`): each with its `taskDescription` and request URL.
    package func pendingBackgroundTasks(session: String) -> [BackgroundUploadRequest] {
        (system.backgroundTransfers + backgroundRequests).filter { $0.task.session == session }
    }

    /// Hands the app process the background tasks cancelled in the callback that returned.
    func takeBackgroundCancellations() -> [BackgroundTransferID] {
        var taken: [BackgroundTransferID] = []
        swap(&taken, &backgroundCancellations)
        hasRequests = false  // the app process takes all three kinds together
        return taken
    }

    /// Hands the app process the background uploads made in the callback that returned.
    func takeBackgroundRequests() -> [BackgroundUploadRequest] {
        var taken: [BackgroundUploadRequest] = []
        swap(&taken, &backgroundRequests)
        hasRequests = false  // the app process takes all three kinds together
        return taken
    }

    /// Hands the app process the requests made in the callback that returned, and forgets
    /// them.
    func takeRequests() -> [UploadRequest] {
        var taken: [UploadRequest] = []
        swap(&taken, &requests)
        hasRequests = false  // the app process takes all three kinds together
        return taken
    }
}
