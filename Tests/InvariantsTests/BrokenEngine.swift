// A small tracking engine for the invariant tests, correct by default, with one deliberate
// mistake at a time (`Flaw`), each a real one the sources describe.
import Engines
import Simulation
import World

/// A live-updates engine in the shape of the session engine (sessions, then live updates, at
/// start and at every resume; one commit per fix; enabled flag in the saved record, honouring
/// `LaunchRules`), with at most one `Flaw`.
final class BrokenEngine: TrackingEngine {
    /// The mistake this engine makes.
    enum Flaw: Sendable {
        /// None: the engine is correct.
        case none
        /// Inserts each fix into the store and never commits.
        case neverCommits
        /// Neither accepts nor rejects every second fix (drops it without a word).
        case silentlyDropsFixes
        /// Begins its background activity session only when the app goes to the background.
        case sessionFromBackground
        /// Sets `allowsBackgroundLocationUpdates` on a manager (the world may lack the mode).
        case allowsBackgroundUpdates
        /// Resumes at every launch whatever `stopOnTerminate` says.
        case ignoresStopOnTerminate
        /// Uploads each stored fix twice, under two keys (and not through the `Uploader`).
        case uploadsTwice
        /// Never resumes after a relaunch.
        case neverRestarts
        /// Resumes with live updates first and its sessions after them.
        case liveUpdatesBeforeSessions
        /// Stores its fixes and never uploads them.
        case neverUploads
        /// Starts its services while the authorization is not determined (R-A13).
        case startsUndetermined
    }

    let flaw: Flaw
    let rules: LaunchRules
    private(set) var events: [TrackingEvent] = []
    private var enabled = false
    private var stream: LiveUpdatesID?
    private var service: ServiceSession?
    private var activity: BackgroundActivitySession?
    private var manager: LocationManager?
    private var fixCount = 0
    private var launchState = ProcessState.foreground
    private let uploader = Uploader()

    init(_ flaw: Flaw = .none, rules: LaunchRules = LaunchRules()) {
        self.flaw = flaw
        self.rules = rules
    }

    func start(services: LocationServices) {
        TrackingRecord(services).isEnabled = true
        enabled = true
        events.append(.started)
        startMachinery(services)
    }

    func stop(services: LocationServices) {
        TrackingRecord(services).isEnabled = false
        enabled = false
        events.append(.stopped)
    }

    func state(at now: Instant) -> EngineState {
        EngineState(enabled: enabled, lastAcceptedFixAge: nil, sessionEngineActive: stream != nil)
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        launchState = launch.state
        var effective = rules
        if flaw == .ignoresStopOnTerminate { effective.stopOnTerminate = false }
        let (wasEnabled, launchEvents) = TrackingRecord(services).applyAtLaunch(
            effective, services: services)
        events += launchEvents
        if wasEnabled && !(flaw == .neverRestarts && launch.state == .background) {
            enabled = true
            events.append(.resumed(launchedIn: launch.state))
            startMachinery(services)
        } else if launch.state == .foreground {
            start(services: services)
        }
        if flaw != .uploadsTwice && flaw != .neverUploads { uploader.resume(services: services) }
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        if flaw == .sessionFromBackground, state == .background, enabled, activity == nil {
            activity = BackgroundActivitySession(services: services)
        }
    }

    private func startMachinery(_ services: LocationServices) {
        let authorization = services.authorizationStatus
        guard
            flaw == .startsUndetermined || authorization == .always
                || authorization == .whenInUse
        else {
            events.append(.permissionMissing(authorization))
            return
        }
        if flaw == .liveUpdatesBeforeSessions, stream == nil {
            stream = services.startLiveUpdates()
        }
        if service == nil { service = ServiceSession(services: services, authorization: .always) }
        if activity == nil && flaw != .sessionFromBackground {
            activity = BackgroundActivitySession(services: services)
        }
        if stream == nil { stream = services.startLiveUpdates() }
        if flaw == .allowsBackgroundUpdates, manager == nil {
            let manager = services.makeLocationManager()
            manager.allowsBackgroundLocationUpdates = true
            self.manager = manager
        }
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let id = update.liveUpdates, id == stream, let fix = update.fix
        else { return }
        fixCount += 1
        if flaw == .silentlyDropsFixes && fixCount % 2 == 0 { return }
        guard let store = try? services.openStore() else { return }
        store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: fix))
        if flaw != .neverCommits { store.commit() }
        events.append(.fixAccepted(fix))
    }

    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        guard flaw != .neverUploads else { return }
        guard flaw == .uploadsTwice else {
            return uploader.storeDidCommit(commit, services: services)
        }
        guard let store = try? services.openStore() else { return }
        let index = store.rows.count - 1
        guard index >= 0 else { return }
        let row = store.rows[index]
        for offset in [0, Self.secondKeyOffset] {
            services.urlSession.uploadTask(
                with: UploadBatch(
                    key: UploadBatchKey(firstRowIndex: index + offset, rowCount: 1), rows: [row]))
        }
    }

    func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        uploader.didCompleteUpload(task, result: result, services: services)
    }

    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if !uploader.backgroundTaskWillExpire(task, services: services) {
            services.endBackgroundTask(task)
        }
    }

    /// The second key of a twice-uploaded row: an index no store reaches in a test run.
    static let secondKeyOffset = 1_000_000
}
