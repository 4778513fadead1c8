// The location daemon as an actor (layer 3): every location service and its registrations,
// including those that outlive the app's process and the boot; what reaches the app and when.
import Simulation

/// `locationd`, for the one app under test.
///
/// Per process (they die with it): managers (standard updates), live-updates streams,
/// background activity sessions, service sessions, open monitors. Outliving the process:
/// significant-change registration, monitor conditions and visit monitoring (R-A10), and a
/// session relaunch armed when the app ended with live updates and a held session (R-B3,
/// R-B4). Significant change and conditions also outlive a reboot (R-B7); conditions run only
/// after the first unlock (R-F6).
///
/// Delivery (R-A2–R-A7): everything for the app goes to the app's mailbox (`AppMailbox`), which
/// holds it for a suspended app (R-A2) or a process that has not yet recreated the listening
/// service (R-A12). The daemon decides only whether iOS lets a location reach the app at all:
/// in the foreground, always; in the background, when a manager allowed in the background or
/// a held background activity session keeps the app's location running (process-wide, R-A7),
/// while a Live Activity is active (R-C4), with Always, or within the When In Use grace (R-A4,
/// R-A5); otherwise the fix goes to the
/// mailbox withheld, and is dropped there with its rule. An event for an app that is not
/// running also asks the operating system to wake or relaunch it (R-A10, R-F2).
final class LocationDaemon: SimulationActor {
    let policy: IOSPolicy
    let capabilities: AppCapabilities
    let route: Route
    let fixPhase: VirtualDuration
    let os: ActorID
    let app: ActorID
    var noise: Xoshiro256StarStar
    /// The route's leg of the last fix made (`Route.state(at:leg:)`).
    var routeLeg = 0
    /// The last fix's true latitude and its cosine: a still device's fixes reuse it.
    var latitudeCosine: (latitude: Double, cosine: Double)?

    // What it knows of the process and the device.
    var processState = ProcessState.notRunning
    var generation = 0
    var authorization: Authorization
    var accuracy: AccuracyAuthorization
    /// The accuracy authorization the app was last told of (at first the configuration's,
    /// which it starts with). It is told only once a manager has a delegate.
    var accuracyTold: AccuracyAuthorization
    var unlockedSinceBoot = true
    /// A Live Activity of the app is active (R-C4). Set by the scenario; it belongs to the
    /// device, not the process (it outlives a termination, and does not relaunch the app).
    var liveActivityActive = false
    /// When the current process was launched into the background (a relaunch), if it was.
    var relaunchInstant: Instant?
    /// The process the operating system was last told registered a service: it is told once
    /// per process, which is all it needs (`endsIdleBackgroundLaunch`).
    var registeredGenerationTold: Int?

    // Per-process objects, in the order created.
    struct Manager {
        var id: ObjectID
        var allowsBackground = false
        var pausesAutomatically = true
        /// `showsBackgroundLocationIndicator` (R-A8: false by default).
        var showsBackgroundIndicator = false
        /// `kCLLocationAccuracyBest` (R-A8 defaults, F).
        var desiredAccuracyMeters = -1.0
        var distanceFilterMeters = 0.0
        var activityType = ActivityType.other
        var lastDelivered: Coordinate?
        var updating = false
        var pausedBySystem = false
        var stillSince: Instant?
        /// When it was last given a fix under reduced accuracy (R-F10's slower rate).
        var reducedFixAt: Instant?
        /// A `LocationManager` object with a delegate: it is told of pause and resume (R-F4).
        var hasDelegate = false
        /// A `requestLocation()` waits for its one fix (R-G1), until `requestTimer` fires.
        var requestedLocation = false
        var requestTimer: EventHandle?
    }
    struct LiveStream {
        var id: ObjectID
        var configuration: LiveConfiguration
        var paused = false
        var stillSince: Instant?
        /// When it was last given a fix under reduced accuracy (R-F10's slower rate).
        var reducedFixAt: Instant?
        /// The reason its locations are kept from the app that it has been told of, with one
        /// update without a location (R-C1): told once, until the reason changes.
        var suspendedFor: LocationDiagnostics?
    }
    /// A service session and what it requires (R-B9). The first form's
    /// `beginServiceSession(authorization:)` requires what it names; its `.notDetermined` and
    /// `.denied` (which it wrongly accepts) count as `.none`.
    struct ServiceSessionEntry {
        var id: ObjectID
        var requirement: ServiceSessionRequirement
        var fullAccuracy: Bool
    }
    /// The current process's objects. They change only through `changeObjects`; read them
    /// through the properties below.
    struct ProcessObjects {
        var managers: [Manager] = []
        var liveStreams: [LiveStream] = []
        var activitySessions: [ObjectID] = [] { didSet { sessionChanges &+= 1 } }
        /// Sessions begun in the background outside the rejoin window: ignored until the next
        /// foreground (R-C5, R-B10).
        var deferredSessions: [ObjectID] = [] { didSet { sessionChanges &+= 1 } }
        var serviceSessions: [ServiceSessionEntry] = [] { didSet { sessionChanges &+= 1 } }
        /// Session objects that observe their diagnostics, in the order begun, with the
        /// diagnostic the process was last sent (`SessionDiagnostic`).
        var observedSessions: [(id: ObjectID, told: SessionDiagnostic?)] = [] {
            didSet { sessionChanges &+= 1 }
        }
        /// Counts the changes to the four session lists above: the session diagnostics need
        /// no new look while it, the process and the authorization stay the same.
        private(set) var sessionChanges = 0
    }
    private(set) var objects = ProcessObjects()
    var managers: [Manager] { objects.managers }
    var liveStreams: [LiveStream] { objects.liveStreams }
    var activitySessions: [ObjectID] { objects.activitySessions }
    var deferredSessions: [ObjectID] { objects.deferredSessions }
    var serviceSessions: [ServiceSessionEntry] { objects.serviceSessions }
    var observedSessions: [(id: ObjectID, told: SessionDiagnostic?)] {
        objects.observedSessions
    }

    /// Runs `change` on the process's objects moved out of the daemon and then moved back: no
    /// call runs inside an access to `objects`, so Swift checks every access to it statically
    /// (an array appended to, or changed in place, through the class made the compiler check
    /// every read of it at run time, and the daemon reads them after every message).
    /// `change` must not read the daemon's objects: they are moved out while it runs.
    func changeObjects<Result>(_ change: (inout ProcessObjects) -> Result) -> Result {
        var moved = ProcessObjects()
        swap(&moved, &objects)
        defer { swap(&moved, &objects) }
        return change(&moved)
    }

    /// What the session diagnostics were last worked out from (`reportSessionDiagnostics`):
    /// the process and its state, the authorization, and the sessions' changes.
    var sessionDiagnosticsBasis:
        (
            generation: Int, exists: Bool, authorization: Authorization,
            accuracy: AccuracyAuthorization, sessionChanges: Int
        )?

    // Registrations that outlive the process.
    var significantChangeRegistered = false
    /// Where the last event was, and when, if it was a movement event (the cached location at
    /// start starts no five-minute interval).
    var significantChangeLast: (coordinate: Coordinate, instant: Instant?)?
    var significantChangeTimer: EventHandle?
    /// An event was sent while no process ran: the next process to start significant change
    /// gets that event, not a cached one.
    var significantChangeEventAwaitingProcess = false
    /// A monitor condition or a legacy region: they share the limit (R-F8).
    struct Condition {
        var key: RegionKey
        var center: Coordinate
        var radiusMeters: Double
        var inside: Bool
        var timer: EventHandle?
        /// The record of a monitor condition (`Monitor.record(for:)`): its last state and the
        /// instant it was determined (nil while it is the state assumed at the add).
        var lastState = ConditionState.unknown
        var lastChange: Instant?
        /// Added through a `Monitor` object: its events carry their record
        /// (`MonitoringEvent.conditionChanged`) instead of the first form's exit and entry.
        var reportsRecords = false
    }
    var conditions: [Condition] = []
    var visitsRegistered = false
    var visitArrival: Coordinate?
    var visitTimer: EventHandle?
    var sessionRelaunchArmed = false

    // Delivery state.
    var graceTimer: EventHandle?
    var graceExpired = false
    var deniedTimers: [EventHandle] = []
    var fixTimer: EventHandle?
    /// The device's battery, which drains faster while GNSS runs for the app (R-B1).
    let battery: Battery?
    var motionTimer: EventHandle?
    var keepAliveSent = false
    /// Every change of the blue background location indicator, in order (R-B8).
    var indicatorChanges: [LocationIndicatorChange] = []
    /// Boots seen so far: events carry it, so that the app's mailbox can drop one from before
    /// a reboot that crossed it (R-B7).
    var bootCount = 0
    /// When this boot's relaunch without movement is due (R-B7), until the first unlock: a
    /// relaunch that came before it is repeated then (`rebootRelaunchAgainAtFirstUnlock`).
    var bootRelaunchDue: Instant?
    /// Requests of a process whose launch has not reached the daemon yet, in arrival order.
    var earlyRequests: [(generation: Int, requests: [AppRequest])] = []

    init(
        policy: IOSPolicy, capabilities: AppCapabilities, route: Route, fixPhase: VirtualDuration,
        authorization: Authorization, accuracy: AccuracyAuthorization, os: ActorID, app: ActorID,
        seed: Seed, battery: Battery? = nil
    ) {
        self.battery = battery
        self.policy = policy
        self.capabilities = capabilities
        self.route = route
        self.fixPhase = fixPhase
        self.authorization = authorization
        self.accuracy = accuracy
        accuracyTold = accuracy
        self.os = os
        self.app = app
        self.noise = Xoshiro256StarStar(seed: seed)
    }

    func receive(_ message: WorldMessage, context: inout Scheduler<WorldMessage>) {
        switch message {
        case .processChanged(let state, let generation, let cause):
            processChanged(to: state, generation: generation, cause: cause, &context)
        case .authorizationChanged(let authorization, let accuracy):
            self.authorization = authorization
            self.accuracy = accuracy
            if processState.exists && managers.contains(where: \.hasDelegate) {
                tellAccuracy(&context)
            }
        case .requests(let requests, let generation):
            receiveRequests(requests, from: generation, &context)
        case .conditionAbandoned(let key): removeCondition(key, &context)
        case .deviceBooted: deviceBooted(&context)
        case .liveActivity(let active): liveActivityChanged(active, &context)
        case .firstUnlock:
            unlockedSinceBoot = true
            relaunchAgainAtFirstUnlock(&context)
            for index in conditions.indices { scheduleConditionCrossing(index, &context) }
        case .daemonTimer(let timer): handle(timer, &context)
        default: break
        }
        reconsiderGrace(&context)
        updateKeepAlive(&context)
        reconsiderFixes(&context)
        noteIndicator(at: context.now)
        reportSessionDiagnostics(&context)
    }

    // MARK: - The process

    private func processChanged(
        to state: ProcessState, generation: Int, cause: TerminationCause?,
        _ context: inout Scheduler<WorldMessage>
    ) {
        if state == .terminated {
            processEnded(cause ?? .exit, &context)
            processState = .terminated
            return
        }
        let launched = generation != self.generation
        if launched {
            self.generation = generation
            relaunchInstant = state == .background ? context.now : nil
            // Launched into the background, a When In Use app was never in use: no grace.
            graceExpired = state == .background && authorization == .whenInUse
        }
        let previous = processState
        processState = state
        switch state {
        case .foreground:
            graceExpired = false
            cancelGrace(&context)
            changeObjects {
                $0.activitySessions += $0.deferredSessions
                $0.deferredSessions.removeAll()
            }
        case .background where previous == .foreground:
            startGraceIfNeeded(&context)
        default: break
        }
        if launched {
            // Requests the new process sent before its launch reached the daemon.
            let early = earlyRequests.filter { $0.generation == generation }
            earlyRequests.removeAll { $0.generation <= generation }
            for batch in early { apply(batch.requests, &context) }
        }
    }

    /// Applies the current process's requests; holds those of a process whose launch has not
    /// reached the daemon yet (the two come on different channels). Requests a process sent
    /// before it ended still arrive: their registrations that outlive the process (significant
    /// change, visits, conditions, regions) take effect, while the objects that would die with
    /// it are not created. Requests of a process older than the last one are void.
    private func receiveRequests(
        _ requests: [AppRequest], from generation: Int, _ context: inout Scheduler<WorldMessage>
    ) {
        if generation > self.generation {
            earlyRequests.append((generation, requests))
        } else if generation == self.generation {
            apply(processState.exists ? requests : requests.filter(\.outlivesProcess), &context)
        }
    }

    /// Clears everything that dies with the process; arms a session relaunch when the app ended
    /// with live updates and a held session (R-B3; after a force-quit only with a service
    /// session, R-B4).
    ///
    /// The session that keeps the grant across the termination is a background activity
    /// session, or, for an Always app, a service session on its own (R-B9: it "preserves the
    /// grant across suspension and termination", B; the system relaunches an app for
    /// "outstanding CLLocationUpdate, CLMonitor, or session objects", F). A When In Use app
    /// still needs the background activity session: without one its location does not run
    /// in the background at all (R-A3).
    private func processEnded(_ cause: TerminationCause, _ context: inout Scheduler<WorldMessage>) {
        let hadServiceSession = !serviceSessions.isEmpty
        let keptGrant =
            !activitySessions.isEmpty || (hadServiceSession && authorization == .always)
        let hadLiveSession =
            !liveStreams.isEmpty && keptGrant && capabilities.locationBackgroundMode
        sessionRelaunchArmed =
            hadLiveSession && cause != .reboot && cause != .idle
            && (cause != .forceQuit || hadServiceSession)
        changeObjects { $0 = ProcessObjects() }
        cancelGrace(&context)
        graceExpired = false
        if sessionRelaunchArmed { requestSessionRelaunchWhenMoving(&context) }
    }

    /// A Live Activity started or ended (R-C4). Started, the app is in use again, as in the
    /// foreground: a When In Use grace under way or over is cleared. Ended while the app is in
    /// the background, the app has left use: the grace starts, as on leaving (R-A4, R-A5).
    private func liveActivityChanged(_ active: Bool, _ context: inout Scheduler<WorldMessage>) {
        liveActivityActive = active
        if active {
            graceExpired = false
            cancelGrace(&context)
        } else if processState == .background || processState == .suspended {
            startGraceIfNeeded(&context)
        }
    }

    private func deviceBooted(_ context: inout Scheduler<WorldMessage>) {
        unlockedSinceBoot = false
        sessionRelaunchArmed = false
        bootCount += 1
        // Visit monitoring does not outlive a boot; significant change and conditions do
        // (R-B7).
        visitsRegistered = false
        visitArrival = nil
        if let timer = visitTimer { context.cancel(timer) }
        visitTimer = nil
        for index in conditions.indices {
            if let timer = conditions[index].timer { context.cancel(timer) }
            conditions[index].timer = nil
        }
        let hasBootRegistration = significantChangeRegistered || !conditions.isEmpty
        bootRelaunchDue = nil
        if policy.rebootRelaunchWithoutMovement && hasBootRegistration {
            context.send(.wake(.boot, boot: bootCount), to: os, after: policy.rebootRelaunchDelay)
            bootRelaunchDue = context.now + policy.rebootRelaunchDelay
        }
    }

    /// At the first unlock after a boot: when the boot's relaunch came before it and the
    /// process it made has ended (it could read nothing, so it restored nothing and went idle),
    /// the registrations relaunch the app again now that its data is readable (R-D9, D: "resumes
    /// as soon as the phone is unlocked"; ios-facts: restored after the first unlock; R-F6).
    private func relaunchAgainAtFirstUnlock(_ context: inout Scheduler<WorldMessage>) {
        defer { bootRelaunchDue = nil }
        guard policy.rebootRelaunchAgainAtFirstUnlock, let due = bootRelaunchDue,
            context.now >= due, !processState.exists,
            significantChangeRegistered || !conditions.isEmpty
        else { return }
        context.send(.wake(.boot, boot: bootCount), to: os)
    }

    // MARK: - Requests

    private func apply(_ requests: [AppRequest], _ context: inout Scheduler<WorldMessage>) {
        var registers = false
        for request in requests {
            switch request {
            case .createManager(let id):
                // A manager is a delegate for visits and legacy regions: a process that makes
                // one is not idle.
                registers = true
                changeObjects { $0.managers.append(Manager(id: id)) }
            case .setAllowsBackgroundLocationUpdates(let id, let allowed):
                updateManager(id) { $0.allowsBackground = allowed }
            case .setDelegate(let id):
                updateManager(id) { $0.hasDelegate = true }
                tellAccuracy(&context)
            case .setPausesLocationUpdatesAutomatically(let id, let pauses):
                updateManager(id) { $0.pausesAutomatically = pauses }
            case .setShowsBackgroundLocationIndicator(let id, let shows):
                updateManager(id) { $0.showsBackgroundIndicator = shows }
            case .setDesiredAccuracy(let id, let meters):
                updateManager(id) { $0.desiredAccuracyMeters = meters }
            case .setDistanceFilter(let id, let meters):
                updateManager(id) { $0.distanceFilterMeters = max(0, meters) }
            case .setActivityType(let id, let type): updateManager(id) { $0.activityType = type }
            case .startUpdatingLocation(let id):
                registers = true
                if managers.contains(where: { $0.id == id && $0.pausedBySystem && $0.hasDelegate })
                {
                    sendToApp(.locationUpdatesResumed(manager: id), &context)  // R-F4
                }
                updateManager(id) {
                    $0.updating = true
                    $0.pausedBySystem = false
                    $0.stillSince = nil
                }
            case .stopUpdatingLocation(let id):
                // It also cancels a pending `requestLocation()` (R-G1: Apple's header, it "can
                // be used to explicitly cancel the request"): no fix, no error.
                if let timer = managers.first(where: { $0.id == id })?.requestTimer {
                    context.cancel(timer)
                }
                updateManager(id) {
                    $0.updating = false
                    $0.requestedLocation = false
                    $0.requestTimer = nil
                }
            case .startLiveUpdates(let id, let configuration):
                registers = true
                changeObjects {
                    $0.liveStreams.append(LiveStream(id: id, configuration: configuration))
                }
            case .stopLiveUpdates(let id):
                changeObjects { $0.liveStreams.removeAll { $0.id == id } }
            case .beginBackgroundActivitySession(let id):
                registers = true
                beginActivitySession(id, &context)
            case .invalidateBackgroundActivitySession(let id):
                changeObjects {
                    $0.activitySessions.removeAll { $0 == id }
                    $0.deferredSessions.removeAll { $0 == id }
                    $0.observedSessions.removeAll { $0.id == id }
                }
            case .beginServiceSession(let id, let authorization):
                registers = true
                let requirement: ServiceSessionRequirement =
                    switch authorization {
                    case .always: .always
                    case .whenInUse: .whenInUse
                    case .notDetermined, .denied: .none
                    }
                changeObjects {
                    $0.serviceSessions.append(
                        ServiceSessionEntry(id: id, requirement: requirement, fullAccuracy: false))
                }
            case .beginServiceSessionRequiring(let id, let requirement, let fullAccuracy):
                registers = true
                changeObjects {
                    $0.serviceSessions.append(
                        ServiceSessionEntry(
                            id: id, requirement: requirement, fullAccuracy: fullAccuracy))
                }
            case .invalidateServiceSession(let id):
                changeObjects {
                    $0.serviceSessions.removeAll { $0.id == id }
                    $0.observedSessions.removeAll { $0.id == id }
                }
            case .observeSessionDiagnostics(let id):
                changeObjects { $0.observedSessions.append((id, nil)) }
            case .startSignificantChanges:
                registers = true
                startSignificantChanges(&context)
            case .stopSignificantChanges:
                significantChangeRegistered = false
                if let timer = significantChangeTimer { context.cancel(timer) }
                significantChangeTimer = nil
            case .openMonitor:
                registers = true
            case .addCondition(let monitor, let name, let center, let radius):
                registers = true
                _ = addCondition(
                    .condition(monitor: monitor, name: name), center: center,
                    radiusMeters: radius, &context)
            case .removeCondition(let monitor, let name):
                removeCondition(.condition(monitor: monitor, name: name), &context)
            case .addMonitorCondition(let monitor, let name, let center, let radius, let state):
                registers = true
                let key = RegionKey.condition(monitor: monitor, name: name)
                if addCondition(key, center: center, radiusMeters: radius, &context),
                    let index = conditions.firstIndex(where: { $0.key == key })
                {
                    conditions[index].lastState = state
                    conditions[index].reportsRecords = true
                    determineInitialState(index, &context)
                }
            case .requestMonitorRecords(let monitor):
                sendToApp(
                    .monitorRecords(monitor: monitor, monitorRecords(of: monitor)), &context)
            case .startMonitoringRegion(let manager, let region):
                registers = true
                if !addCondition(
                    .region(region.identifier), center: region.center,
                    radiusMeters: region.radiusMeters, &context)
                {
                    sendToApp(
                        .monitoringFailure(
                            region: region.identifier, .regionMonitoringFailure, manager: manager),
                        &context)
                }
            case .stopMonitoringRegion(_, let identifier):
                removeCondition(.region(identifier), &context)
            case .confirmMonitoringStart(let manager, let identifier):
                // After the registration it follows: confirmed only if it was accepted (R-G4).
                if conditions.contains(where: { $0.key == .region(identifier) }) {
                    sendToApp(.monitoringStarted(region: identifier, manager: manager), &context)
                }
            case .requestRegionState(let manager, let identifier):
                sendToApp(
                    .regionState(region: identifier, regionState(identifier), manager: manager),
                    &context)
            case .requestLocation(let id):
                registers = true
                requestLocation(id, &context)
            case .startVisits:
                registers = true
                startVisits(&context)
            case .stopVisits:
                visitsRegistered = false
                if let timer = visitTimer { context.cancel(timer) }
                visitTimer = nil
            case .beginBackgroundTask, .endBackgroundTask, .requestWhenInUseAuthorization,
                .requestAlwaysAuthorization, .requestTemporaryFullAccuracy, .submitAppRefresh,
                .cancelAppRefresh, .completeWake, .submitProcessing, .watchBackgroundTime,
                .getPendingTaskRequests:
                assertionFailure("background tasks and prompts go to the operating system")
            }
        }
        if registers && registeredGenerationTold != generation {
            registeredGenerationTold = generation
            context.send(.registered(generation: generation), to: os)
        }
    }

    /// A background activity session: effective when begun in the foreground, or in the
    /// background within the rejoin window after a relaunch (R-C5, R-B10); otherwise deferred
    /// to the next foreground.
    private func beginActivitySession(_ id: ObjectID, _ context: inout Scheduler<WorldMessage>) {
        let rejoins =
            processState == .background
            && relaunchInstant.map { context.now - $0 <= policy.sessionRejoinWindow } == true
        if processState == .foreground || rejoins {
            changeObjects { $0.activitySessions.append(id) }
            sessionRelaunchArmed = false
        } else {
            changeObjects { $0.deferredSessions.append(id) }
        }
    }

    private func updateManager(_ id: ObjectID, _ change: (inout Manager) -> Void) {
        guard let index = managers.firstIndex(where: { $0.id == id }) else { return }
        changeObjects { change(&$0.managers[index]) }
    }

    // MARK: - Delivery

    /// True when something keeps the app's location running in the background, process-wide
    /// (R-A3, R-A6, R-A7).
    var backgroundAllowed: Bool {
        capabilities.locationBackgroundMode
            && (managers.contains { $0.allowsBackground && $0.updating }
                || !activitySessions.isEmpty)
    }

    /// True when the app counts as in use in the background: background configuration
    /// (`backgroundAllowed`), or an active Live Activity, which needs no other configuration
    /// (R-C4: "as long as the Live Activity is active, the app can receive location updates in
    /// the background without additional configuration", C). The model takes "no additional
    /// configuration" literally: not even the `location` background mode (an assumption; C
    /// does not say whether the mode is needed).
    var inUseInBackground: Bool { backgroundAllowed || liveActivityActive }

    /// Why iOS keeps a location from the app now, if it does: no authorization (R-A3), or a
    /// When In Use app in the background without background configuration or a Live Activity
    /// after its grace (R-A4, R-A5, R-C4). A suspended app's locations are held by its mailbox
    /// (R-A2).
    func locationWithheld() -> DropReason? {
        guard authorization == .whenInUse || authorization == .always else {
            return .notAuthorized
        }
        switch processState {
        case .background, .suspended:
            let inUse = inUseInBackground || authorization == .always || !graceExpired
            return inUse ? nil : .whenInUseGraceOver
        case .foreground, .notRunning, .terminated: return nil
        }
    }

    /// Why iOS keeps a monitoring event from the app, if it does: no authorization (R-A3).
    func eventWithheld() -> DropReason? {
        authorization == .whenInUse || authorization == .always ? nil : .notAuthorized
    }

    /// Sends `item` to the current process's mailbox, withheld for `reason` if given.
    /// Sends the app the accuracy authorization if it changed since the app was last told
    /// (`locationManagerDidChangeAuthorization`; only delegates are told).
    func tellAccuracy(_ context: inout Scheduler<WorldMessage>) {
        guard accuracy != accuracyTold else { return }
        accuracyTold = accuracy
        sendToApp(.accuracyAuthorization(accuracy), &context)
    }

    /// `item` is taken, not borrowed, so that it moves into the message (a borrowed item was
    /// copied into it, an outlined copy of the enum at every fix).
    func sendToApp(
        _ item: consuming AppItem, withheld reason: DropReason? = nil,
        _ context: inout Scheduler<WorldMessage>
    ) {
        context.send(
            .deliver(consume item, generation: generation, withheld: reason, boot: nil), to: app)
    }

    /// Tells the operating system when the app's location keeps it running, or stops to: a
    /// manager allowed in the background, or a held session with live updates flowing (R-A3,
    /// R-A6); or a Live Activity while any location request is active (R-C4).
    func updateKeepAlive(_ context: inout Scheduler<WorldMessage>) {
        let configured =
            capabilities.locationBackgroundMode
            && (managers.contains { $0.allowsBackground && $0.updating && !$0.pausedBySystem }
                || (!activitySessions.isEmpty && liveStreams.contains { !$0.paused }))
        let keeps =
            processState.exists && (configured || (liveActivityActive && hasActiveConsumer))
        if keeps != keepAliveSent {
            keepAliveSent = keeps
            context.send(.keepAlive(keeps), to: os)
        }
    }

    // MARK: - The blue background location indicator (R-B8, R-A8)

    /// True while iOS shows the blue background location indicator for the app: only while the
    /// app is in the background (running or suspended), and then while a background activity
    /// session lives, whatever the authorization (R-B8: "there is no way to hide it"); or
    /// while the app's location is in use there and reaches it: always for a When In Use app
    /// (R-A8), and for an Always app only through a manager whose
    /// `showsBackgroundLocationIndicator` is true (R-A8, default false). Significant change,
    /// regions and visits do not show it.
    var locationIndicatorShown: Bool {
        guard processState == .background || processState == .suspended else { return false }
        if !activitySessions.isEmpty { return true }
        let delivering = { (manager: Manager) in manager.updating && !manager.pausedBySystem }
        guard managers.contains(where: delivering) || liveStreams.contains(where: { !$0.paused }),
            locationWithheld() == nil
        else { return false }
        switch authorization {
        case .whenInUse: return true
        case .always: return managers.contains { delivering($0) && $0.showsBackgroundIndicator }
        case .notDetermined, .denied: return false
        }
    }

    /// Records the indicator's change, if it changed. The indicator is the daemon's state, not
    /// a message: it is observed through `World.locationIndicatorChanges`, and leaves the trace
    /// as it was.
    private func noteIndicator(at instant: Instant) {
        let shown = locationIndicatorShown
        if shown != (indicatorChanges.last?.shown ?? false) {
            // Appended to the changes moved out and back, for the reason of `changeObjects`.
            var changes: [LocationIndicatorChange] = []
            swap(&changes, &indicatorChanges)
            changes.append(LocationIndicatorChange(instant: instant, shown: shown))
            swap(&changes, &indicatorChanges)
        }
    }

    // MARK: - One-time requests

    /// `requestLocation()` (R-G1): the manager wants the next fix that can reach the app, for
    /// at most `requestLocationTimeout`; a second request restarts the wait.
    private func requestLocation(_ id: ObjectID, _ context: inout Scheduler<WorldMessage>) {
        guard let index = managers.firstIndex(where: { $0.id == id }) else { return }
        if let timer = managers[index].requestTimer { context.cancel(timer) }
        let timer = context.setTimer(
            after: policy.requestLocationTimeout,
            .daemonTimer(.locationRequestTimedOut(id, generation: generation)))
        changeObjects {
            $0.managers[index].requestedLocation = true
            $0.managers[index].requestTimer = timer
        }
    }

    /// No fix reached the app in time: the request ends with `locationUnknown` (R-G1).
    private func locationRequestTimedOut(
        _ id: ObjectID, _ context: inout Scheduler<WorldMessage>
    ) {
        guard let index = managers.firstIndex(where: { $0.id == id }),
            managers[index].requestedLocation
        else { return }
        changeObjects {
            $0.managers[index].requestedLocation = false
            $0.managers[index].requestTimer = nil
        }
        sendToApp(.failure(.locationUnknown, manager: id), &context)
    }

    /// The state of the legacy region `identifier` for `requestState(for:)` (R-G3): known only
    /// for a region the daemon monitors, and only once monitoring runs after the first unlock
    /// since the boot (R-F6).
    private func regionState(_ identifier: String) -> ConditionState {
        guard unlockedSinceBoot,
            let region = conditions.first(where: { $0.key == .region(identifier) })
        else { return .unknown }
        return region.inside ? .satisfied : .unsatisfied
    }

    // MARK: - Timers

    private func handle(_ timer: DaemonTimer, _ context: inout Scheduler<WorldMessage>) {
        switch timer {
        case .fix:
            fixTimer = nil
            produceFix(&context)
        case .motionResumes:
            motionTimer = nil
            motionResumed(&context)
        case .graceEnded(let generation):
            graceTimer = nil
            guard generation == self.generation else { return }
            graceEnded(&context)
        case .deniedSignal(let manager, let generation):
            guard generation == self.generation, managers.contains(where: { $0.id == manager })
            else { return }
            sendToApp(.failure(.denied, manager: manager), &context)
        case .significantChange:
            significantChangeTimer = nil
            significantChangeDue(&context)
        case .regionExit(let key): regionCrossingDue(key, entered: false, &context)
        case .regionEntry(let key): regionCrossingDue(key, entered: true, &context)
        case .visit: visitDue(&context)
        case .locationRequestTimedOut(let manager, let generation):
            guard generation == self.generation else { return }
            locationRequestTimedOut(manager, &context)
        }
    }
}
