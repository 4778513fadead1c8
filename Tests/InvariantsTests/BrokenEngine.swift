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
        /// Not a flaw: uploads each fix row on its own (not through the `Uploader`) under a key
        /// made of the fix's instant, and deletes the row once the server accepted it (the
        /// store is its outbox: whatever is left in it at a launch is sent again).
        case deletesUploadedRows
        /// As `deletesUploadedRows`, but deletes each row when it first sends it, before the
        /// server accepted it.
        case deletesBeforeAcceptance
        /// Not a flaw: with every fifth fix, stores again the first fix this process stored (a
        /// tracker that republishes its cached location every few minutes), so that several
        /// rows, in several batches, hold one fix.
        case republishesCachedFix
        /// Not a flaw: rewrites each fix row once it is stored (deleted and inserted again
        /// with a note, in one commit, as a store without an update must), and never uploads.
        case rewritesRows
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
    /// The first fix this process stored (`republishesCachedFix`).
    private var firstFix: Fix?
    private var launchState = ProcessState.foreground
    private let uploader = Uploader()
    /// The deleting flaws' requests in flight, and the rows accepted in this process.
    private var outbox: [(task: UploadTaskID, row: StoredRow)] = []
    private var acceptedRows: [StoredRow] = []
    private var outboxTask: BackgroundTaskID?

    /// True for the flaws that upload and delete on their own.
    private var deletes: Bool { flaw == .deletesUploadedRows || flaw == .deletesBeforeAcceptance }

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
        if deletes {
            sendUnsent(services)
        } else if flaw != .uploadsTwice && flaw != .neverUploads {
            uploader.resume(services: services)
        }
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
        if flaw == .republishesCachedFix {
            let cached = firstFix ?? fix
            firstFix = cached
            if fixCount % 5 == 0 {
                store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: cached))
            }
        }
        if flaw != .neverCommits { store.commit() }
        if flaw == .rewritesRows {
            store.delete(StoredRow(key: FixRecorder.fixRowKey, fix: fix))
            store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: fix, text: "rewritten"))
            store.commit()
        }
        events.append(.fixAccepted(fix))
    }

    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        guard flaw != .neverUploads, flaw != .rewritesRows else { return }
        if deletes { return sendUnsent(services) }
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
        guard deletes else {
            uploader.didCompleteUpload(task, result: result, services: services)
            return
        }
        guard let index = outbox.firstIndex(where: { $0.task == task }) else { return }
        let row = outbox.remove(at: index).row
        switch result {
        case .accepted:
            acceptedRows.append(row)
            if flaw == .deletesUploadedRows, let store = try? services.openStore() {
                store.delete(row)
                store.commit()
            }
        case .failed, .answered: send(row, after: .seconds(2), first: false, services)
        }
        if outbox.isEmpty, let outboxTask {
            services.endBackgroundTask(outboxTask)
            self.outboxTask = nil
        }
    }

    /// Sends every fix row of the store not yet sent or accepted in this process.
    private func sendUnsent(_ services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        for row in store.rows where row.fix != nil {
            guard !outbox.contains(where: { $0.row == row }), !acceptedRows.contains(row) else {
                continue
            }
            send(row, after: .zero, first: true, services)
        }
    }

    private func send(
        _ row: StoredRow, after delay: VirtualDuration, first: Bool, _ services: LocationServices
    ) {
        guard let fix = row.fix else { return }
        if outboxTask == nil { outboxTask = services.beginBackgroundTask() }
        let key = UploadBatchKey(
            firstRowIndex: Int(fix.instant.nanosecondsSinceStart), rowCount: 1)
        let task = services.urlSession.uploadTask(
            with: UploadBatch(key: key, rows: [row]), earliestBeginAfter: delay)
        outbox.append((task, row))
        if first, flaw == .deletesBeforeAcceptance, let store = try? services.openStore() {
            store.delete(row)
            store.commit()
        }
    }

    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if task == outboxTask {
            services.endBackgroundTask(task)
            outboxTask = nil
        } else if !uploader.backgroundTaskWillExpire(task, services: services) {
            services.endBackgroundTask(task)
        }
    }

    /// The second key of a twice-uploaded row: an index no store reaches in a test run.
    static let secondKeyOffset = 1_000_000
}
