// LocationRuntime (layer 4): source A's exercise. It turns `restorations(for:authorizedAlways:)`
// into live objects at every launch and holds each exactly as long as the features need it.
import Simulation
import World

/// The object an app delegate owns to run its location features (source A, "Restoring on
/// launch", and its exercise): a workout (live updates kept running by a background activity
/// session), watched places (the "Places" monitor) and commute detection (significant change),
/// under one service session.
///
/// - **Saved record** (R-A14): the features are saved (`LocationFeatures.savedText`) whenever
///   one starts or stops.
/// - **Every launch, in any state**: it reads them and recreates exactly the objects
///   `restorations(for:authorizedAlways:)` lists, in that order, sessions first and before
///   anything slow (the store and the uploader come after). With nothing saved it starts
///   nothing. Before the first unlock the record reads empty (R-D9): it does not take that for
///   "nothing saved", tells `.waitingForFirstUnlock` and restores at
///   `protectedDataDidBecomeAvailable`.
/// - **Authorization**: it starts nothing while the authorization is undetermined (R-A13) and
///   starts at the authorization callback; a denied app still holds its sessions, whose
///   diagnostics say `authorizationDenied` (R-B9).
/// - **Holding**: stopping a feature invalidates its session, removes its conditions or stops
///   significant change, and nothing else. A grant of Always replaces a When In Use service
///   session by an Always one when the features need it.
///
/// `TrackingEngine`'s `start` and `stop` start and stop a workout; `state(at:)` reports the
/// workout as `enabled`. Its events are one stream (`events`, `onEvent`): fixes, starts and
/// stops, and `.runtime(_)` for the rest (`RuntimeEvent`).
public final class LocationRuntime: RecordingEngine, PushesEngineEvents {
    /// Saved-record key of the features' text (`LocationFeatures.savedText`).
    public static let featuresKey = "runtime.features"
    /// Saved-record key of the places registered with the system's monitor (escaped
    /// identifiers, comma-separated): a condition outlives the process (R-A10), so this is
    /// what a later process removes when its place is no longer watched.
    public static let registeredPlacesKey = "runtime.registeredPlaces"

    public let settings: LocationRuntimeSettings
    /// The features as this process knows them (empty until the saved record is read).
    public private(set) var features = LocationFeatures()
    /// Every event told so far by this process's runtime, in order.
    public private(set) var events: [TrackingEvent] = []
    /// Whether `events` keeps what this engine tells (`EngineNarration`); `onEvent` hears it
    /// either way.
    private let narrates = EngineNarration.isKept
    /// Told after every event this engine keeps (`PushesEngineEvents`).
    package weak var eventListener: (any EngineEventListener)?
    /// Called with each event as it is told.
    public var onEvent: ((TrackingEvent) -> Void)?
    /// The host app's code at each foreground (a foreground launch, or a return), after the
    /// runtime restored what it could: where a host app starts and stops features.
    public var onForeground: ((LocationRuntime, LocationServices) -> Void)?

    /// What this launch recreated from the saved features, in order (R-A14); empty when
    /// nothing was saved, and until the unlock (R-D9) or the authorization (R-A13) let it run.
    public private(set) var restored: [Restoration] = []
    /// The service session, while the features need one.
    public private(set) var serviceSession: ServiceSession?
    /// The workout's background activity session, while a workout is recorded.
    public private(set) var backgroundActivitySession: BackgroundActivitySession?
    /// The workout's live-updates stream, while a workout is recorded.
    public private(set) var liveUpdates: LiveUpdatesID?
    /// The "Places" monitor, while a place is watched.
    public private(set) var placesMonitor: Monitor?
    /// The manager that runs significant change, while commute detection is on.
    public private(set) var significantChangeManager: LocationManager?
    /// Stores the workout's fixes and uploads them (R-B14, R-D13).
    public let recorder: FixRecorder

    public convenience init(settings: LocationRuntimeSettings = LocationRuntimeSettings()) {
        self.init(settings: settings, seams: Seams())
    }

    /// Its decisions (`Seams`): the defaults, unless another target of the package built it.
    let seams: Seams

    /// A runtime with some of its decisions replaced (`Seams`).
    package init(settings: LocationRuntimeSettings, seams: Seams) {
        self.settings = settings
        self.seams = seams
        recorder = FixRecorder(uploader: settings.uploader)
    }

    // MARK: - The host app's face

    /// Starts recording a workout (saved; R-A14).
    public func startWorkout(services: LocationServices) {
        change(services) { $0.recordingWorkout = true }
        tell(.started)
    }

    /// Stops recording the workout: its session and live updates end (saved).
    public func stopWorkout(services: LocationServices) {
        change(services) { $0.recordingWorkout = false }
        tell(.stopped)
    }

    /// Watches `place` (one with the same identifier is replaced; saved).
    public func watch(_ place: WatchedPlace, services: LocationServices) {
        change(services) { features in
            if let index = features.watchedPlaces.firstIndex(where: {
                $0.identifier == place.identifier
            }) {
                features.watchedPlaces[index] = place
            } else {
                features.watchedPlaces.append(place)
            }
        }
    }

    /// Stops watching the place `identifier` (saved).
    public func unwatch(identifier: String, services: LocationServices) {
        change(services) { $0.watchedPlaces.removeAll { $0.identifier == identifier } }
    }

    /// Turns commute detection (significant change) on or off (saved).
    public func setCommuteDetection(_ enabled: Bool, services: LocationServices) {
        change(services) { $0.commuteDetection = enabled }
    }

    /// `TrackingEngine.start`: starts a workout.
    public func start(services: LocationServices) { startWorkout(services: services) }

    /// `TrackingEngine.stop`: stops the workout (other features go on).
    public func stop(services: LocationServices) { stopWorkout(services: services) }

    /// R-B13: `enabled` is the workout; `sessionEngineActive` holds when the features need at
    /// least one session and every session they need exists with an active diagnostic.
    public func state(at now: Instant) -> EngineState {
        EngineState(
            enabled: features.recordingWorkout,
            lastAcceptedFixAge: recorder.lastAcceptedFixAge(at: now),
            sessionEngineActive: sessionsActive)
    }

    /// Every session the features need (for the authorization last known) exists and is
    /// active; false when they need none.
    public var sessionsActive: Bool {
        let sessions = restorations(for: features, authorizedAlways: authorization == .always)
            .filter { $0 != .significantChanges && $0 != .monitor(name: monitorName) }
        guard !sessions.isEmpty else { return false }
        return sessions.allSatisfy { step in
            switch step {
            case .serviceSession(let always):
                serviceSession.map {
                    $0.authorization == (always ? .always : .whenInUse)
                        && $0.diagnostic?.isActive == true
                } ?? false
            case .backgroundActivitySession:
                backgroundActivitySession?.diagnostic?.isActive == true
            case .monitor, .significantChanges: true
            }
        }
    }

    // MARK: - Launch and the callbacks that let it go on

    public func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        launchedIn = launch.state
        appState = launch.state
        authorization = services.authorizationStatus
        guard launch.protectedDataAvailable else {
            tell(.waitingForFirstUnlock)
            return
        }
        restoring = launch.state == .background
        defer { restoring = false }
        resume(services)
    }

    public func protectedDataDidBecomeAvailable(services: LocationServices) {
        authorization = services.authorizationStatus
        if featuresLoaded {
            recorder.resume(services: services)
        } else {
            restoring = launchedIn == .background
            defer { restoring = false }
            resume(services)
        }
    }

    public func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        self.authorization = authorization
        reconcile(services)
        if appState == .foreground { requestAuthorizationIfNeeded(services) }
    }

    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        appState = state
        guard state == .foreground else { return }
        if featuresLoaded, !featuresFromRecord { takeFirstOpenFeatures(services) }
        reconcile(services)  // a background activity session waits for the foreground (R-C5)
        requestAuthorizationIfNeeded(services)
        onForeground?(self, services)
    }

    public func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let stream = update.liveUpdates, stream == liveUpdates,
            let fix = update.fix
        else { return }
        recorder.accept(fix, services: services)
        tell(.fixAccepted(fix))
    }

    // MARK: - State of this process

    private var monitorName: String { LocationFeatures.placesMonitorName }
    private var launchedIn = ProcessState.notRunning
    private var appState = ProcessState.notRunning
    private var authorization = Authorization.notDetermined
    /// The saved record has been read (it cannot be before the first unlock, R-D9).
    private var featuresLoaded = false
    /// The features came from the saved record (not the host app's first-open ones).
    private var featuresFromRecord = false
    /// The first pass allowed to create objects has run in this process.
    private var launchPassDone = false
    /// True while a background launch restores (in its launch or unlock callback): the one
    /// time a background activity session may be begun in the background, as a rejoin (R-C5,
    /// R-B10). Otherwise it waits for the foreground.
    private var restoring = false
    /// Changes the host app made before the saved record could be read, applied after it.
    private var pendingChanges: [(inout LocationFeatures) -> Void] = []
    /// Prompts already asked for by this process (each at most once).
    private var requested: [Authorization] = []
    private var permissionMissingTold = false

    /// Reads the saved features (or takes the first-open ones), recreates what they need,
    /// then does the slow work (the store, uploads).
    private func resume(_ services: LocationServices) {
        let defaults = services.userDefaults
        if let text = defaults.string(forKey: Self.featuresKey) {
            if let saved = LocationFeatures(savedText: text) {
                features = saved
                featuresFromRecord = true
            } else {
                tell(.runtime(.savedFeaturesUnreadable))
            }
        } else if appState == .foreground {
            takeFirstOpenFeatures(services)
        }
        featuresLoaded = true
        if !pendingChanges.isEmpty {
            for change in pendingChanges { change(&features) }
            pendingChanges.removeAll()
            save(services)
        }
        reconcile(services)
        recorder.resume(services: services)
        if appState == .foreground {
            requestAuthorizationIfNeeded(services)
            onForeground?(self, services)
        }
    }

    /// The host app's first-open features, when the user opens an app that has saved none:
    /// at a foreground launch, after a background launch that waited for the first unlock
    /// (the open comes before the unlock's callback), or when the user opens a process the
    /// system launched in the background.
    private func takeFirstOpenFeatures(_ services: LocationServices) {
        guard !settings.initialFeatures.isEmpty,
            services.userDefaults.string(forKey: Self.featuresKey) == nil
        else { return }
        features = settings.initialFeatures
        save(services)
    }

    /// Applies a host app's change: saved at once, then the objects follow.
    private func change(
        _ services: LocationServices, _ body: @escaping (inout LocationFeatures) -> Void
    ) {
        guard featuresLoaded else {
            pendingChanges.append(body)
            return
        }
        var updated = features
        body(&updated)
        // Saved even when unchanged while nothing is saved yet: otherwise a later foreground
        // launch takes the first-open features again (a `tracking off` forgotten).
        let nothingSaved = services.userDefaults.string(forKey: Self.featuresKey) == nil
        guard updated != features || nothingSaved else { return }
        features = updated
        save(services)
        reconcile(services)
        if appState == .foreground { requestAuthorizationIfNeeded(services) }
    }

    private func save(_ services: LocationServices) {
        services.userDefaults.set(features.savedText, forKey: Self.featuresKey)
        tell(.runtime(.featuresSaved(features)))
    }

    private func tell(_ event: TrackingEvent) {
        if narrates {
            events.appendGrowingGently(event)
            eventListener?.engineDidTell()
        }
        onEvent?(event)
    }

    /// In the foreground: When In Use while undetermined, then Always for features that need
    /// it, each asked once by this process (the system shows each prompt once anyway).
    private func requestAuthorizationIfNeeded(_ services: LocationServices) {
        guard settings.requestsAuthorization, featuresLoaded, !features.isEmpty else { return }
        switch authorization {
        case .notDetermined where !requested.contains(.whenInUse):
            requested.append(.whenInUse)
            services.requestWhenInUseAuthorization()
            tell(.runtime(.authorizationRequested(.whenInUse)))
        case .whenInUse where features.needsAlways && !requested.contains(.always):
            requested.append(.always)
            services.requestAlwaysAuthorization()
            tell(.runtime(.authorizationRequested(.always)))
        default: break
        }
    }

    // MARK: - Holding exactly what the features need

    /// Ends the objects the features no longer need, then creates those they need and this
    /// process lacks, in R-A14's order. Nothing while the authorization is undetermined.
    private func reconcile(_ services: LocationServices) {
        guard featuresLoaded else { return }
        guard authorization != .notDetermined || !seams.waitsForAuthorization else {
            if !features.isEmpty && !permissionMissingTold {
                permissionMissingTold = true
                tell(.permissionMissing(.notDetermined))
            }
            return
        }
        let needed = restorations(for: features, authorizedAlways: authorization == .always)
        end(objectsNotIn: needed, services)
        var made: [Restoration] = []
        for step in needed where make(step, services) { made.append(step) }
        if let placesMonitor { syncPlaces(placesMonitor, services) }
        guard !launchPassDone else { return }
        launchPassDone = true
        guard featuresFromRecord else { return }
        restored = made
        if !made.isEmpty {
            // Tracking, to its host app, is the workout (`state(at:)`): a launch that restores
            // only places or commute detection resumes no tracking.
            if features.recordingWorkout { tell(.resumed(launchedIn: launchedIn)) }
            tell(.runtime(.restored(made)))
        }
    }

    private func end(objectsNotIn needed: [Restoration], _ services: LocationServices) {
        if !needed.contains(.significantChanges), let manager = significantChangeManager {
            manager.stopMonitoringSignificantLocationChanges()
            significantChangeManager = nil
        }
        if !needed.contains(.monitor(name: monitorName)), let monitor = placesMonitor {
            syncPlaces(monitor, services)  // removes every registered place
            monitor.delegate = nil
            placesMonitor = nil
        }
        if !needed.contains(.backgroundActivitySession), let session = backgroundActivitySession {
            session.invalidate()
            if let liveUpdates { services.stopLiveUpdates(liveUpdates) }
            backgroundActivitySession = nil
            liveUpdates = nil
        }
        if let session = serviceSession,
            !needed.contains(.serviceSession(always: session.authorization == .always))
        {
            session.invalidate()
            serviceSession = nil
        }
    }

    /// Creates the object of `step` if this process lacks it; true when it did.
    private func make(_ step: Restoration, _ services: LocationServices) -> Bool {
        switch step {
        case .serviceSession(let always):
            guard serviceSession == nil else { return false }
            let session = ServiceSession(
                services: services, authorization: always ? .always : .whenInUse)
            session.diagnosticHandler = { [weak self] in
                self?.tell(.runtime(.sessionDiagnostic(.service, $0)))
            }
            serviceSession = session
        case .backgroundActivitySession:
            guard backgroundActivitySession == nil, appState == .foreground || restoring else {
                return false
            }
            let session = BackgroundActivitySession(services: services)
            session.diagnosticHandler = { [weak self] in
                self?.tell(.runtime(.sessionDiagnostic(.backgroundActivity, $0)))
            }
            backgroundActivitySession = session
            liveUpdates = services.startLiveUpdates(settings.workoutConfiguration)
        case .monitor(let name):
            guard placesMonitor == nil else { return false }
            let monitor = services.monitor(
                named: featuresFromRecord ? seams.restoredMonitorName(name) : name)
            monitor.delegate = self
            placesMonitor = monitor
        case .significantChanges:
            guard significantChangeManager == nil else { return false }
            let manager = LocationManager(services: services)
            manager.delegate = self
            manager.startMonitoringSignificantLocationChanges()
            significantChangeManager = manager
        }
        return true
    }

    /// Makes the monitor's conditions the watched places: removes each registered place (by
    /// this or an earlier process, or known from the system's records) no longer watched, and
    /// adds each watched place not registered yet. A relaunch adds nothing that was registered:
    /// the conditions outlive the process (R-A10), and re-adding would reset their records.
    private func syncPlaces(_ monitor: Monitor, _ services: LocationServices) {
        let watched = features.watchedPlaces
        let saved = services.userDefaults.string(forKey: Self.registeredPlacesKey) ?? ""
        var registered = saved.split(separator: ",").compactMap { SavedText.unescape($0) }
        for identifier in monitor.identifiers where !registered.contains(identifier) {
            registered.append(identifier)
        }
        var kept: [String] = []
        for identifier in registered {
            if watched.contains(where: { $0.identifier == identifier }) {
                kept.append(identifier)
            } else {
                monitor.remove(identifier)
            }
        }
        for place in watched where !kept.contains(place.identifier) {
            monitor.add(
                CircularGeographicCondition(center: place.center, radius: place.radiusMeters),
                identifier: place.identifier)
            kept.append(place.identifier)
        }
        let text = kept.map(SavedText.escape).joined(separator: ",")
        if text != saved { services.userDefaults.set(text, forKey: Self.registeredPlacesKey) }
    }
}

extension LocationRuntime: MonitorDelegate {
    /// A watched place's exit or entry (R-F8), the one that woke a relaunch included (R-A12).
    public func monitor(_ monitor: Monitor, didReceive event: MonitorEvent) {
        tell(.runtime(.place(event)))
    }
}

extension LocationRuntime: LocationManagerDelegate {
    /// The significant changes of the commute manager (it starts nothing else).
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        guard manager === significantChangeManager else { return }
        for fix in locations { tell(.runtime(.significantChange(fix))) }
    }
}
