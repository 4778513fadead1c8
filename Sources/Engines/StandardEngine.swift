// The standard engine (layer 4): source D's standard-updates SDK. Standard location updates run
// the whole time tracking is on, their accuracy (not their running) controls the cost; a parked
// region and significant change bring a terminated app back. This file is its public face and
// its lifecycle: start, stop, launch, unlock, authorization, termination.
import Simulation
import World

/// Source D's engine (003_cfa36ecb85c68369.txt) as a `TrackingEngine`: one `LocationManager`
/// runs standard updates for as long as tracking is on (R-D1), resting the GPS at 3 km between
/// the fixes of its recording clock (R-D4), watching a region while parked (R-D5), making sure
/// significant change and a region outlive a swipe-away (R-D7), waiting for the first unlock
/// (R-D9) and for permission (R-D10), filtering by accuracy with an overdue rule (R-D11), and
/// uploading through the shared `FixRecorder` (R-D13). Every number is a `Settings` property.
public final class StandardEngine: RecordingEngine, PushesEngineEvents {
    /// The settings this engine was made with.
    public let settings: Settings
    /// What this process's engine has told its host app, in order.
    public private(set) var events: [TrackingEvent] = []
    /// Whether `events` keeps what this engine tells (`EngineNarration`).
    private let narrates = EngineNarration.isKept
    /// Told after every event this engine keeps (`PushesEngineEvents`).
    package weak var eventListener: (any EngineEventListener)?
    /// The store, the uploader and the last accepted fix (shared with the other engines).
    public let recorder: FixRecorder

    /// The one manager of this process (made at every launch, so a relaunched app receives the
    /// region exit that woke it, R-A12).
    var manager: LocationManager?
    /// This process's services, for the delegate's callbacks (held weakly: the app process
    /// keeps them for the life of the process).
    weak var services: LocationServices?
    /// Tracking is on, as this process knows it (the persisted flag once readable).
    var enabled = false
    /// Launched before the first unlock: the decision waits for it (R-D9).
    var waitingForFirstUnlock = false
    /// The app's state as last told (launch, then lifecycle changes).
    var processState = ProcessState.notRunning
    /// Standard updates are on in this process (R-D1).
    var updating = false
    /// The recording clock runs: fixes are due and recorded (R-D4).
    var recording = false
    /// The recording clock (R-D4, R-D11).
    var clock = RecordingClock()
    /// Motion and the parked region (R-D5, R-D7).
    var motion = MotionState()

    public convenience init(settings: Settings = Settings()) {
        self.init(settings: settings, seams: Seams())
    }

    /// Its decisions (`Seams`): the defaults, unless another target of the package built it.
    let seams: Seams

    /// An engine with some of its decisions replaced (`Seams`).
    package init(settings: Settings, seams: Seams) {
        self.settings = settings
        self.seams = seams
        recorder = FixRecorder(uploader: settings.uploader)
    }

    // MARK: - The host app's calls

    /// `start()`: turns tracking on and persists it; begins at once if permission allows,
    /// otherwise reports the missing permission and asks for Always once (R-D10, R-A13).
    public func start(services: LocationServices) {
        guard !enabled else { return }
        enabled = true
        TrackingRecord(services).isEnabled = true
        tell(.started)
        if Self.permits(services.authorizationStatus) {
            begin(services: services)
        } else {
            tell(.permissionMissing(services.authorizationStatus))
            if services.authorizationStatus == .notDetermined {
                manager?.requestAlwaysAuthorization()
            }
        }
    }

    /// `stop()`: turns tracking off and persists it; updates, the region and significant change
    /// all stop (R-D5: "the region is removed when … tracking stops").
    public func stop(services: LocationServices) {
        guard enabled else { return }
        enabled = false
        TrackingRecord(services).isEnabled = false
        halt(services: services)
        removeRegistrations()
        tell(.stopped)
    }

    /// The user's switch in the host app: recorded for the host app
    /// (`TrackingRecord.userWantsTracking`), then `start()` or `stop()`.
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {
        TrackingRecord(services).userWantsTracking = on
        if on { start(services: services) } else { stop(services: services) }
    }

    /// `getState()` (R-B13): the session engine is active while this process's standard
    /// updates run and record.
    public func state(at now: Instant) -> EngineState {
        EngineState(
            enabled: enabled, lastAcceptedFixAge: recorder.lastAcceptedFixAge(at: now),
            sessionEngineActive: recording)
    }

    // MARK: - Narration

    /// Tells the host app `event`, kept when narration is (`EngineNarration`).
    func tell(_ event: TrackingEvent) {
        guard narrates else { return }
        events.appendGrowingGently(event)
        eventListener?.engineDidTell()
    }

    func tell(contentsOf told: [TrackingEvent]) {
        guard narrates, !told.isEmpty else { return }
        events.appendGrowingGently(contentsOf: told)
        eventListener?.engineDidTell()
    }

    // MARK: - Launch, unlock and lifecycle

    /// Any launch, foreground or background (R-D7): make the manager first, so the event that
    /// woke the app reaches it (R-A12); before the first unlock wait for it (R-D9); otherwise
    /// apply the launch rules (R-B11, R-B12) and resume before anything slow.
    public func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        processState = launch.state
        self.services = services
        let manager = services.makeLocationManager()
        manager.delegate = self
        self.manager = manager
        guard launch.protectedDataAvailable else {
            waitingForFirstUnlock = true
            tell(.waitingForFirstUnlock)
            if launch.state == .background { holdUntilFirstUnlock() }
            return
        }
        resumeAtLaunch(services: services)
    }

    /// The first unlock after a boot (R-D9): the saved state is readable, the launch decision
    /// is made now.
    public func protectedDataDidBecomeAvailable(services: LocationServices) {
        guard waitingForFirstUnlock else { return }
        waitingForFirstUnlock = false
        resumeAtLaunch(services: services)
    }

    /// The user opened the app: the host app starts tracking if it is off.
    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        processState = state
        if state == .foreground && !enabled && !waitingForFirstUnlock && settings.startsWhenOpened
            && TrackingRecord(services).hostStartsWhenOpened(settings.trackingStart)
        {
            start(services: services)
        }
    }

    /// R-D7: with `stopOnTerminate` false, significant change and the region outlive the
    /// process; with true, nothing is left to relaunch it. Only with permission, as `begin`:
    /// tracking switched on while the authorization is undetermined waits for the answer and
    /// starts nothing, not even at termination (R-A13, R-D10).
    public func applicationWillTerminate(services: LocationServices) {
        guard enabled, seams.handlesWillTerminate else { return }
        if seams.tidiesUpOnTerminate {
            services.userDefaults.set(
                Int((services.now - .start).nanoseconds), forKey: Self.terminatedAtKey)
            return removeRegistrations()
        }
        if settings.launchRules.stopOnTerminate {
            removeRegistrations()
        } else if Self.permits(services.authorizationStatus) {
            keepRegistrationsForRelaunch()
        }
    }

    /// Key of the instant of the last termination, noted only by a seam that tidies up at
    /// `applicationWillTerminate` (`Seams.tidiesUpOnTerminate`).
    static let terminatedAtKey = "standard.terminatedAt"

    // MARK: - Authorization (R-D10)

    static func permits(_ authorization: Authorization) -> Bool {
        authorization == .always || authorization == .whenInUse
    }

    /// Applies the launch rules, then resumes (or reports the missing permission) before the
    /// store and the uploader are read (R-D7: "before anything slow").
    private func resumeAtLaunch(services: LocationServices) {
        let decision = TrackingRecord(services).applyAtLaunch(
            settings.launchRules, services: services)
        tell(contentsOf: decision.events)
        enabled = decision.enabled
        if enabled {
            if Self.permits(services.authorizationStatus) {
                begin(services: services)
                tell(.resumed(launchedIn: processState))
            } else {
                halt(services: services)
                tell(.permissionMissing(services.authorizationStatus))
            }
        } else {
            halt(services: services)
            removeRegistrations()
            if processState == .foreground && settings.startsWhenOpened
                && TrackingRecord(services).hostStartsWhenOpened(settings.trackingStart)
            {
                start(services: services)
            }
        }
        recorder.resume(services: services)
    }

    /// Begins once permission arrives; stops recording if it goes (R-D10).
    func authorizationChanged(services: LocationServices) {
        guard enabled, !waitingForFirstUnlock else { return }
        let status = services.authorizationStatus
        if Self.permits(status) && !recording {
            begin(services: services)
            tell(.resumed(launchedIn: processState))
        } else if !Self.permits(status) && recording {
            halt(services: services)
            tell(.permissionMissing(status))
        }
    }

    // MARK: - Timers (the store and uploads go to the recorder: `RecordingEngine`, R-D13)

    public func timerDidFire(_ timer: TimerID, services: LocationServices) {
        guard !recorder.timerDidFire(timer, services: services) else { return }
        warmUpTimerFired(timer)
    }
}
