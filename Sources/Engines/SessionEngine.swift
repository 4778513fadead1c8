// The session engine of source B (layer 4): live updates, a background activity session, a
// service session recreated synchronously at launch, a rolling wake region and significant
// change; filtering, the store and uploads inside the engine.
import Simulation
import World

/// A tracking engine after source B's session engine (001_…), the one whose lifecycle matrix
/// (`LifecycleMatrix`) source B measured on a device:
/// - `CLLocationUpdate.liveUpdates` deliver while moving and pause while parked (R-C2), instead
///   of being stopped;
/// - a `BackgroundActivitySession` keeps the app eligible for background location (R-C5; the
///   blue indicator is its price, R-B8);
/// - a `ServiceSession` declares the standing authorization need (R-B9), so iOS relaunches the
///   app after a memory kill or a force-quit (R-B3, R-B4);
/// - at every launch the sessions are recreated synchronously, before anything slow, so that
///   iOS counts them as a continuation of the grant (R-B10);
/// - a rolling wake region around the last accepted fix and significant change are the second
///   line of defence: they outlive the process and relaunch it (R-B6, R-B7, R-A10).
///
/// Fixes pass the accuracy filter and go to the store and the uploader inside the engine
/// (R-B14). `stopOnTerminate` and `startOnBoot` are honoured at the next launch (R-B11, R-B12),
/// and `state(at:)` answers source B's "did it really come back" (R-B13).
///
/// A new engine is made for every process: everything it knows across processes is in the
/// saved record (`TrackingRecord`) and the store.
public final class SessionEngine: RecordingEngine, LocationManagerDelegate, PushesEngineEvents {
    /// The engine's settings, with source B's defaults where it states them.
    public struct Settings: Sendable, Equatable {
        /// `stopOnTerminate` and `startOnBoot` (R-B11, R-B12: both false by default, B).
        public var launchRules = LaunchRules()
        /// The host app calls `start()` when the user opens it and tracking is off (source B:
        /// "your app sees state.enabled == false on the next ready() and has to call start()
        /// again").
        public var startsWhenOpened = true
        /// Whether the host app tracks from its first launch or waits for the user's switch
        /// (`AppProfile.trackingStart`): with `.onUserToggle`, opening the app starts nothing
        /// until the user turns tracking on. Either way, once the user has used the switch,
        /// opening the app starts tracking only if the user left it on
        /// (`TrackingRecord.hostStartsWhenOpened`).
        public var trackingStart = TrackingStart.atFirstLaunch
        /// The live-updates configuration (R-C3; B does not say which: the default).
        public var liveConfiguration = LiveConfiguration.default
        /// The service session's requirement (R-B9: Always, which relaunches need, R-F5).
        public var serviceSessionRequirement = ServiceSessionRequirement.always
        /// Fixes less accurate than this are dropped (the filter; B does not give its number:
        /// 100 m, source D's `minAccuracyM` default).
        public var minimumAccuracyMeters = 100.0
        /// Radius of the rolling wake region (B does not give it: 100 m, the practical minimum
        /// for a region, F).
        public var wakeRegionRadiusMeters = 100.0
        /// The wake region moves to the last accepted fix once the device is this far from its
        /// centre (inside the region, so the move comes before the exit).
        public var wakeRegionRollDistanceMeters = 50.0
        /// The identifier of the wake region.
        public var wakeRegionIdentifier = "session.wake"
        /// How uploads batch and retry (R-D13): `UploaderConfiguration.batched`.
        public var uploader = UploaderConfiguration.batched

        public init() {}
    }

    public let settings: Settings
    public var events: [TrackingEvent] { told }
    /// The persisted enabled flag, as this process knows it (nil until read).
    public private(set) var isEnabled: Bool?
    /// The sessions and stream this process holds while tracking runs.
    public private(set) var serviceSession: ServiceSession?
    public private(set) var backgroundActivitySession: BackgroundActivitySession?
    public var liveUpdates: LiveUpdatesID? { liveStream }
    /// The manager that holds significant change and the wake region.
    public var manager: LocationManager? { regionManager }
    /// The wake region's centre, while it is monitored.
    public var wakeRegionCenter: Coordinate? { wakeCenter }
    // The state behind `events`, `liveUpdates`, `manager` and `wakeRegionCenter`, which every
    // fix reads: a public stored property is checked at run time at every access (another
    // module may reach it), a private one statically, as long as no call runs inside an
    // access to it (the events are appended moved out and back, `tell`).
    private var told: [TrackingEvent] = []
    /// Whether `told` keeps what this engine tells (`EngineNarration`).
    private let narrates = EngineNarration.isKept
    /// Told after every event this engine keeps (`PushesEngineEvents`).
    package weak var eventListener: (any EngineEventListener)?
    private var liveStream: LiveUpdatesID?
    private var regionManager: LocationManager?
    private var wakeCenter: Coordinate?
    /// Distances to `wakeCenter`, its latitude's cosine computed once.
    private var wakeProbe: DistanceProbe?
    /// `settings.wakeRegionRollDistanceMeters`, compared with many times.
    private let wakeRollThreshold: DistanceThreshold
    /// Stores the fixes and uploads them (R-B14, R-D13).
    public let recorder: FixRecorder
    private var launchState = ProcessState.foreground
    /// Foreground or background, as UIKit last told this process.
    private var appState = ProcessState.foreground
    /// Its decisions (`Seams`): the defaults, unless another target of the package built it.
    let seams: Seams
    /// The timer of the launch work before resuming (`Seams.slowWorkBeforeResuming`).
    private var slowWork: TimerID?
    /// True while a background launch restores (its launch or unlock callback): the one time
    /// the background activity session may be begun in the background, as a rejoin (R-C5,
    /// R-B10). Otherwise it waits for the next foreground.
    private var restoring = false

    public convenience init(_ settings: Settings = Settings()) {
        self.init(settings, seams: Seams())
    }

    /// An engine with some of its decisions replaced (`Seams`).
    package init(_ settings: Settings, seams: Seams) {
        self.settings = settings
        self.seams = seams
        recorder = FixRecorder(uploader: settings.uploader)
        wakeRollThreshold = DistanceThreshold(settings.wakeRegionRollDistanceMeters)
    }

    // MARK: The host app's calls

    /// `start()`: persists the enabled flag and starts the sessions and updates. A background
    /// activity session begun in the background is deferred by iOS to the next foreground
    /// (R-C5): the host app calls this in the foreground.
    public func start(services: LocationServices) {
        if seams.startPersistsEnabledFlag { TrackingRecord(services).isEnabled = true }
        isEnabled = true
        tell(.started)
        startMachinery(services: services)
    }

    /// `stop()`: persists the flag and lets go of every session, stream and registration.
    public func stop(services: LocationServices) {
        TrackingRecord(services).isEnabled = false
        isEnabled = false
        tell(.stopped)
        serviceSession?.invalidate()
        backgroundActivitySession?.invalidate()
        if let liveStream { services.stopLiveUpdates(liveStream) }
        regionManager?.stopMonitoringSignificantLocationChanges()
        stopWakeRegion()
        serviceSession = nil
        backgroundActivitySession = nil
        liveStream = nil
    }

    /// The user's switch in the host app: recorded for the host app
    /// (`TrackingRecord.userWantsTracking`), then `start()` or `stop()`.
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {
        TrackingRecord(services).userWantsTracking = on
        if on { start(services: services) } else { stop(services: services) }
    }

    /// `getState()` (R-B13): the session engine is active while its stream runs and both
    /// sessions are held and active.
    public func state(at now: Instant) -> EngineState {
        let sessionsActive =
            serviceSession?.diagnostic?.isActive == true
            && backgroundActivitySession?.diagnostic?.isActive == true
        return EngineState(
            enabled: isEnabled ?? false, lastAcceptedFixAge: recorder.lastAcceptedFixAge(at: now),
            sessionEngineActive: liveStream != nil && sessionsActive)
    }

    /// Appends to the events moved out and back: no call runs inside an access to them.
    private func tell(_ event: TrackingEvent) {
        guard narrates else { return }
        var moved: [TrackingEvent] = []
        swap(&moved, &told)
        moved.appendGrowingGently(event)
        swap(&moved, &told)
        eventListener?.engineDidTell()
    }

    private func tell(contentsOf newEvents: [TrackingEvent]) {
        guard narrates, !newEvents.isEmpty else { return }
        var moved: [TrackingEvent] = []
        swap(&moved, &told)
        moved += newEvents
        swap(&moved, &told)
        eventListener?.engineDidTell()
    }

    // MARK: Launch

    public func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        launchState = launch.state
        appState = launch.state
        guard launch.protectedDataAvailable else {
            // The saved record reads empty before the first unlock: waiting is the only
            // answer that cannot be wrong (R-D9).
            tell(.waitingForFirstUnlock)
            return
        }
        restoring = launch.state == .background
        defer { restoring = false }
        resumeAtLaunch(services: services)
    }

    public func protectedDataDidBecomeAvailable(services: LocationServices) {
        guard isEnabled == nil else { return }
        restoring = launchState == .background
        defer { restoring = false }
        resumeAtLaunch(services: services)
    }

    /// Clears the flag as the launch rules say (R-B11, R-B12), then resumes before anything
    /// slow (R-B10), or starts if the user opened the app: at this launch, or since a
    /// background launch that waited for the first unlock (the user's open comes before the
    /// unlock's callback).
    private func resumeAtLaunch(services: LocationServices) {
        if seams.resumesBeforeLaunchRules, TrackingRecord(services).isEnabled {
            startMachinery(services: services)
        }
        let (enabled, launchEvents) = TrackingRecord(services).applyAtLaunch(
            settings.launchRules, services: services,
            bootFromUptime: seams.bootTimeFromUptime)
        isEnabled = enabled
        tell(contentsOf: launchEvents)
        if enabled {
            tell(.resumed(launchedIn: launchState))
            if let launchWork = seams.slowWorkBeforeResuming {
                slowWork = services.scheduledTimer(after: launchWork)
            } else {
                startMachinery(services: services)
            }
        } else if appState == .foreground && settings.startsWhenOpened
            && TrackingRecord(services).hostStartsWhenOpened(settings.trackingStart)
        {
            start(services: services)
        } else {
            clearRegistrations(services: services)
        }
        recorder.resume(services: services)
    }

    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        appState = state
        // A session deferred to the foreground begins now (R-C5).
        if isEnabled == true, liveStream != nil || seams.lifecycleChecksSessionWithoutStream {
            beginActivitySessionIfDue(services: services)
        }
        guard state == .foreground, isEnabled == false, settings.startsWhenOpened,
            TrackingRecord(services).hostStartsWhenOpened(settings.trackingStart)
        else { return }
        start(services: services)
    }

    public func timerDidFire(_ timer: TimerID, services: LocationServices) {
        guard !recorder.timerDidFire(timer, services: services), timer == slowWork else { return }
        slowWork = nil
        startMachinery(services: services)
    }

    // MARK: The machinery

    /// Sessions first, then the stream, then the registrations that outlive the process.
    /// Nothing starts without permission (R-A13, R-D10).
    private func startMachinery(services: LocationServices) {
        let authorization = services.authorizationStatus
        guard authorization == .whenInUse || authorization == .always else {
            tell(.permissionMissing(authorization))
            return
        }
        if serviceSession == nil {
            serviceSession = ServiceSession(
                services: services, authorization: settings.serviceSessionRequirement)
        }
        beginActivitySessionIfDue(services: services)
        if liveStream == nil {
            liveStream = services.startLiveUpdates(settings.liveConfiguration)
        }
        let manager = madeRegionManager(services: services)
        manager.startMonitoringSignificantLocationChanges()
        if let last = recorder.lastAcceptedFix { moveWakeRegion(to: last.coordinate) }
    }

    /// Begins the background activity session if this process lacks one and may begin it now:
    /// in the foreground, or while a background launch restores (R-C5, R-B10;
    /// `Seams.activitySessionDue`).
    private func beginActivitySessionIfDue(services: LocationServices) {
        guard backgroundActivitySession == nil, seams.activitySessionDue(appState, restoring)
        else { return }
        backgroundActivitySession = BackgroundActivitySession(services: services)
    }

    public func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        guard isEnabled == true, liveStream == nil else { return }
        startMachinery(services: services)
    }

    // MARK: Fixes

    public func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let stream = update.liveUpdates, stream == liveStream else { return }
        guard let fix = update.fix else {
            if seams.updateWithoutLocationEndsStream {
                // The reading loop ended, and the engine still thinks it runs.
                services.stopLiveUpdates(stream)
            }
            return
        }
        // With Precise Location off every fix is approximate (R-F10): keep what iOS gives.
        guard
            fix.horizontalAccuracyMeters <= settings.minimumAccuracyMeters
                || services.accuracyAuthorization == .reduced
        else {
            tell(.fixRejected(fix, reason: "accuracy over the minimum"))
            return
        }
        if seams.storesAcceptedFixes { recorder.accept(fix, services: services) }
        tell(.fixAccepted(fix))
        if let probe = wakeProbe, probe.isNearer(than: wakeRollThreshold, to: fix.coordinate) {
            return
        }
        moveWakeRegion(to: fix.coordinate)
    }

    /// Monitors the wake region around `center` (the same identifier replaces the old one).
    private func moveWakeRegion(to center: Coordinate) {
        guard let manager = regionManager else { return }
        wakeCenter = center
        wakeProbe = DistanceProbe(center)
        manager.startMonitoring(
            for: CircularRegion(
                identifier: settings.wakeRegionIdentifier, center: center,
                radiusMeters: settings.wakeRegionRadiusMeters))
    }

    /// The process's manager, made at its first use with the engine as its delegate, whichever
    /// path makes it: the delegate is how the engine hears that the user turned Precise
    /// Location off while it runs (R-D11, R-F10): without it (a manager made by the launch
    /// that clears registrations, say) the engine would reject every approximate fix until
    /// the next launch.
    private func madeRegionManager(services: LocationServices) -> LocationManager {
        if let regionManager { return regionManager }
        let manager = services.makeLocationManager()
        manager.delegate = self
        regionManager = manager
        return manager
    }

    /// Tracking is off at launch: the registrations an earlier process left in the daemon
    /// (significant change, the wake region) would only relaunch the app for nothing.
    private func clearRegistrations(services: LocationServices) {
        let manager = madeRegionManager(services: services)
        manager.stopMonitoringSignificantLocationChanges()
        manager.stopMonitoring(
            for: CircularRegion(
                identifier: settings.wakeRegionIdentifier,
                center: Coordinate(latitude: 0, longitude: 0),
                radiusMeters: settings.wakeRegionRadiusMeters))
    }

    private func stopWakeRegion() {
        guard let manager = regionManager, let center = wakeCenter else { return }
        manager.stopMonitoring(
            for: CircularRegion(
                identifier: settings.wakeRegionIdentifier, center: center,
                radiusMeters: settings.wakeRegionRadiusMeters))
        wakeCenter = nil
        wakeProbe = nil
    }
}
