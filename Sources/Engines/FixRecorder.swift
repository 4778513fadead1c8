// Recording inside the engine (layer 4, R-B14): accepted fixes go to the store, committed
// rows to the uploader; the last accepted fix survives the process in the store.
import Simulation
import World

/// The part every built-in engine shares once it has decided to keep a fix: it writes the fix
/// to the store (one commit per fix, so a kill loses at most the fix in flight), hands the
/// committed rows to an `Uploader`, and knows the last accepted fix, from the store after a
/// relaunch. The engine forwards its store, upload and background-task callbacks here.
public final class FixRecorder {
    /// Key of the store rows that hold accepted fixes.
    public static let fixRowKey = "fix"

    public let uploader: Uploader
    /// The last fix accepted, by this process or (read from the store) an earlier one.
    public private(set) var lastAcceptedFix: Fix?
    /// Fixes accepted while the store could not be opened (before the first unlock, R-D9);
    /// written once it can.
    public private(set) var pending: [Fix] = []

    public init(uploader: UploaderConfiguration = UploaderConfiguration()) {
        self.uploader = Uploader(uploader)
    }

    /// At launch and at the first unlock: reads the last stored fix and resumes uploads.
    public func resume(services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        if lastAcceptedFix == nil {
            lastAcceptedFix = store.rows.last { $0.key == Self.fixRowKey }?.fix
        }
        flushPending(store)
        uploader.resume(services: services)
    }

    /// Writes `fix` to the store (or keeps it until the store opens).
    public func accept(_ fix: Fix, services: LocationServices) {
        lastAcceptedFix = fix
        guard let store = try? services.openStore() else {
            pending.append(fix)
            return
        }
        flushPending(store)
        store.insert(StoredRow(key: Self.fixRowKey, fix: fix))
        if store.uncommittedRows.count >= fixesPerCommit { store.commit() }
    }

    /// Fixes per commit: 1, so that a kill loses at most the fix in flight. More is a mistake
    /// (rows acknowledged, not yet durable), which only a package-internal builder may make.
    package var fixesPerCommit = 1

    private func flushPending(_ store: Store) {
        guard !pending.isEmpty else { return }
        for fix in pending { store.insert(StoredRow(key: Self.fixRowKey, fix: fix)) }
        pending.removeAll()
        store.commit()
    }

    public func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        uploader.storeDidCommit(commit, services: services)
    }

    public func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        let sent = deletesFailedBatches && task == uploader.currentTask ? uploader.queue.first : nil
        uploader.didCompleteUpload(task, result: result, services: services)
        guard let sent, case .failed = result, let store = try? services.openStore() else { return }
        for row in sent.rows { store.delete(row) }
        store.commit()
    }

    /// Whether the rows of a batch whose request failed are deleted from the store: false, so
    /// that they stay until the server has accepted them (the uploader retries them, and a
    /// later process sends them again). True is a mistake (rows gone before the server has
    /// them), which only a package-internal builder may make.
    package var deletesFailedBatches = false

    /// Hands the timer to the uploader (its wait for a batch); false for a timer of the
    /// engine's own.
    @discardableResult
    public func timerDidFire(_ timer: TimerID, services: LocationServices) -> Bool {
        uploader.timerDidFire(timer, services: services)
    }

    /// Ends the uploader's task, or any other task (a well-behaved app ends every task).
    public func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if !uploader.backgroundTaskWillExpire(task, services: services) {
            services.endBackgroundTask(task)
        }
    }

    /// Time since the last accepted fix at `now`, nil before the first (R-B13).
    public func lastAcceptedFixAge(at now: Instant) -> VirtualDuration? {
        lastAcceptedFix.map { now - $0.instant }
    }
}

/// A tracking engine that records through a `FixRecorder`: its store, upload, timer and
/// background-task callbacks go to the recorder (a task that is not the uploader's is ended, as
/// a well-behaved app ends every task). An engine that needs more in one of them implements it
/// and calls the recorder itself.
public protocol RecordingEngine: TrackingEngine {
    var recorder: FixRecorder { get }
}

extension RecordingEngine {
    public func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        recorder.storeDidCommit(commit, services: services)
    }

    public func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        recorder.didCompleteUpload(task, result: result, services: services)
    }

    public func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        recorder.backgroundTaskWillExpire(task, services: services)
    }

    public func timerDidFire(_ timer: TimerID, services: LocationServices) {
        recorder.timerDidFire(timer, services: services)
    }
}
