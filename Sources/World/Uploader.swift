// The uploader an engine uses (engine-side library code on the layer-3 API): a serial queue of
// batches built from the store's committed rows, sent through the app's `UploadSession` inside
// a background task, retried with exponential backoff, keyed so that a retry cannot duplicate.
import Simulation

/// How an `Uploader` batches and retries; every number an engine may tune, with its default.
public struct UploaderConfiguration: Sendable, Equatable {
    /// Rows per batch at most.
    public var batchRowCountMax = 50
    /// The wait before the first retry of a failed request.
    public var retryDelayInitial = VirtualDuration.seconds(2)
    /// Each further retry waits this many times longer than the one before…
    public var retryDelayMultiplier: Int64 = 2
    /// …up to this.
    public var retryDelayMax = VirtualDuration.minutes(5)
    /// Whether each request runs inside a background task (R-D13: so that a request in flight
    /// when the app would be suspended can finish). False only to show what it protects.
    package var usesBackgroundTask = true
    /// Whether a request carries its batch's key as an idempotency key, so that a server that
    /// deduplicates (`ServerDeduplication.byKey`) stores a retried batch once. False sends
    /// each request without one (`UploadBatch.carriesIdempotencyKey`, as a POST without an
    /// `Idempotency-Key` header): a retry after a lost answer is stored twice. False only to
    /// show what the key protects.
    public var keysRequestsByBatch = true
    /// Whether an accepted batch is marked done in the store (the outbox's done row), so that
    /// a later process does not send it again. False keeps the acceptance in memory only (the
    /// batch leaves the queue and nothing is written): a kill later makes the next process
    /// send the batch again, which a server that stores every request stores twice. False
    /// only to show what the done row protects (the `resends-accepted-batch` mutant).
    package var recordsAcceptance = true
    /// Whether a batch sends its rows newest first (an outbox read `ORDER BY id DESC`), so
    /// that the server receives a backlog out of the order it was stored. False, the default,
    /// sends them in store order; true only to show what the order protects (the
    /// `newest-first-outbox` mutant).
    package var sendsNewestFirst = false
    /// How long committed rows wait for more before they go as a batch, unless a full batch
    /// (`batchRowCountMax`) is waiting sooner. Zero, the default, sends each commit's rows at
    /// once. Rows an earlier process left behind are due at once. Waiting uses a timer
    /// (`LocationServices.scheduledTimer(after:)`): the engine must hand its `timerDidFire` to
    /// `Uploader.timerDidFire` (a `RecordingEngine` does).
    public var batchWait = VirtualDuration.zero

    public init() {}

    /// What the built-in engines use: rows wait up to 30 s for a batch, as a tracker that
    /// spares the radio uploads (one request per fix keeps it awake), with the other defaults.
    /// The cost: rows committed shortly before the app is suspended wait until it runs again
    /// (a timer does not fire while it is suspended), durable in the store meanwhile.
    public static let batched: UploaderConfiguration = {
        var configuration = UploaderConfiguration()
        configuration.batchWait = .seconds(30)
        return configuration
    }()
}

/// A serial upload queue over the app's store, as an engine uses it (R-D13).
///
///     let uploader = Uploader()     // one per process, like the engine that holds it
///     // didLaunch (and protectedDataDidBecomeAvailable):
///     uploader.resume(services: services)
///     // storeDidCommit:
///     uploader.storeDidCommit(commit, services: services)
///     // didCompleteUpload:
///     uploader.didCompleteUpload(task, result: result, services: services)
///     // backgroundTaskWillExpire (false: not the uploader's task):
///     uploader.backgroundTaskWillExpire(task, services: services)
///     // timerDidFire (false: not the uploader's timer):
///     uploader.timerDidFire(timer, services: services)
///
/// It uploads every committed row of the store whose key does not begin with `markerKeyPrefix`,
/// in commit order, in batches of at most `batchRowCountMax` rows, one request at a time; a
/// batch forms once a full one is waiting or its first row has waited `batchWait`. A
/// batch is keyed by the store index of its first row and its row count (`UploadBatchKey`), and
/// its boundaries are made durable before it is first sent (an outbox row, committed in the
/// engine's store): after a kill the next process rebuilds exactly the same batches, so a
/// retry repeats a key the server already holds instead of sending its rows under a new one.
/// An accepted batch is marked done with another row; if that commit is lost, the batch is sent
/// again and the server answers that it already has it.
///
/// Each request runs inside a background task (`usesBackgroundTask`), begun with the request
/// and ended when the queue is idle or the task expires. A failed request is retried after
/// `retryDelayInitial`, growing by `retryDelayMultiplier` up to `retryDelayMax`; a request
/// cancelled by a suspension is retried when the process runs again, and one lost with its
/// process by the next process's `resume`.
///
/// The uploader commits the store's open transaction with its own rows: an engine that keeps a
/// transaction open across callbacks should commit it first.
public final class Uploader {
    /// Rows the uploader writes to the store (its outbox) have keys beginning with this.
    package static let markerKeyPrefix = "uploader."
    static let batchMarkerKey = markerKeyPrefix + "batch"
    static let doneMarkerKey = markerKeyPrefix + "done"

    public let configuration: UploaderConfiguration

    /// Batches formed (durably) and not yet accepted, in order; the first is the one sent.
    package var queue: [UploadBatch] { batches }
    /// The request in flight, if any.
    package var currentTask: UploadTaskID? { taskInFlight }
    /// Failed attempts of the first batch in a row.
    package var failedAttemptCount: Int { failures }
    /// The background task held while the queue works.
    package var backgroundTask: BackgroundTaskID? { heldBackgroundTask }

    // The state behind the four above. Public stored properties are checked at run time at
    // every access (another module may reach them), and `resume` reads them at every commit:
    // private, and the queue changed only moved out and back (`changeQueue`), Swift checks
    // them statically.
    private var batches: [UploadBatch] = []
    private var taskInFlight: UploadTaskID?
    private var failures = 0
    private var heldBackgroundTask: BackgroundTaskID?

    /// Whether the store's outbox has been read in this process.
    private var restored = false
    /// Store index of the first row not yet in a batch.
    private var nextRowIndex = 0
    /// A batch whose outbox row is being committed: it is sent once that commit is durable.
    private var forming: (commit: CommitID, batch: UploadBatch)?
    /// Since when rows not yet in a batch have waited (`batchWait`): the first such row's
    /// commit, or `.start` for rows an earlier process left behind. Rows left after a full batch
    /// keep it.
    private var waitingSince: Instant?
    /// Data rows from `nextRowIndex` counted so far, and the store index counted up to: each
    /// commit's rows are counted once, not the whole wait at every commit.
    private var waitingCount = 0
    private var countedUpTo = 0
    /// The timer that ends the wait, while one is scheduled.
    private var waitTimer: TimerID?

    public init(_ configuration: UploaderConfiguration = UploaderConfiguration()) {
        self.configuration = configuration
    }

    /// True while rows wait to be uploaded or a request is in flight.
    package var isBusy: Bool { !batches.isEmpty || forming != nil || taskInFlight != nil }

    /// Reads the outbox (at the first call in a process) and sends what is due: call it at
    /// launch once the store can be opened, and whenever rows were committed.
    package func resume(services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        let rows = store.rows
        if !restored { restore(from: rows) }
        countWaitingRows(rows, now: services.now)
        if batches.isEmpty && forming == nil && isBatchDue(services: services) {
            form(from: rows, store: store, now: services.now)
        }
        if taskInFlight == nil, let batch = batches.first {
            send(batch, after: .zero, services: services)
        }
        endBackgroundTaskIfIdle(services: services)
    }

    /// Call from the engine's `storeDidCommit`: the outbox row of a forming batch is durable,
    /// or new rows may be due.
    package func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        if let forming, forming.commit.value <= commit.value {
            changeQueue { $0.append(forming.batch) }
            self.forming = nil
        }
        resume(services: services)
    }

    /// Call from the engine's `didCompleteUpload`; returns false for a task that is not the
    /// uploader's current one (another's, or the late answer to a cancelled one).
    @discardableResult
    package func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) -> Bool {
        guard task == taskInFlight, let batch = batches.first else { return false }
        taskInFlight = nil
        switch result {
        case .accepted:
            changeQueue { $0.removeFirst() }
            failures = 0
            if configuration.recordsAcceptance, let store = try? services.openStore() {
                store.insert(
                    StoredRow(key: Self.doneMarkerKey, text: "\(batch.key.firstRowIndex)"))
                store.commit()
            }
            resume(services: services)
        case .failed:
            failures += 1
            send(batch, after: retryDelay(afterFailures: failures), services: services)
        case .answered(let answer):
            // Refused, nothing stored (R-N46): retried, no sooner than its `Retry-After`
            // (R-N43).
            failures += 1
            let delay = retryDelay(afterFailures: failures)
            send(batch, after: max(delay, answer.retryAfter ?? .zero), services: services)
        }
        return true
    }

    /// Call from the engine's `backgroundTaskWillExpire`: ends the uploader's task (a request
    /// still in flight goes on without it) and returns true, or returns false for another task.
    @discardableResult
    package func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices)
        -> Bool
    {
        guard task == heldBackgroundTask else { return false }
        services.endBackgroundTask(task)
        heldBackgroundTask = nil
        return true
    }

    /// Call from the engine's `timerDidFire`; returns false for a timer that is not the
    /// uploader's: its wait for a batch is over.
    @discardableResult
    package func timerDidFire(_ timer: TimerID, services: LocationServices) -> Bool {
        guard timer == waitTimer else { return false }
        waitTimer = nil
        resume(services: services)
        return true
    }

    /// The wait before retry number `failures` (from 1).
    package func retryDelay(afterFailures failures: Int) -> VirtualDuration {
        var delay = configuration.retryDelayInitial
        for _ in 1..<max(failures, 1) {
            guard delay < configuration.retryDelayMax else { break }
            delay = delay * configuration.retryDelayMultiplier
        }
        return min(delay, configuration.retryDelayMax)
    }

    // MARK: - The outbox

    /// Rebuilds the batches formed by earlier processes, and which of them were accepted.
    private func restore(from rows: StoredRows) {
        restored = true
        var formed: [UploadBatchKey] = []
        var done: Set<Int> = []  // membership only
        // Each row's key read alone, and only an outbox row made whole (its text).
        for index in rows.indices {
            switch rows.key(at: index) {
            case Self.batchMarkerKey:
                let fields = rows[index].text.split(separator: " ").compactMap { Int($0) }
                guard fields.count == Self.batchMarkerFieldCount else { continue }
                formed.append(UploadBatchKey(firstRowIndex: fields[0], rowCount: fields[1]))
                nextRowIndex = max(nextRowIndex, fields[2] + 1)
            case Self.doneMarkerKey:
                if let first = Int(rows[index].text) { done.insert(first) }
            default: break
            }
        }
        for key in formed where !done.contains(key.firstRowIndex) {
            let found = batchRows(key, in: rows)
            let ordered = configuration.sendsNewestFirst ? found.reversed() : found
            let batch = UploadBatch(key: key, rows: ordered)
            changeQueue { $0.append(batch) }
        }
        // Data rows an earlier process left outside any batch have waited long enough.
        let unbatched = min(nextRowIndex, rows.count)..<rows.count
        if unbatched.contains(where: { Self.isData(rows, at: $0) }) {
            waitingSince = .start
        }
    }

    /// Counts the data rows committed since the last count that are not yet in a batch, and
    /// notes since when they wait: rows keep waiting while earlier batches are sent or retried.
    private func countWaitingRows(_ rows: StoredRows, now: Instant) {
        guard configuration.batchWait > .zero else { return }
        if countedUpTo < nextRowIndex {  // an earlier process's batches end further on
            countedUpTo = nextRowIndex
            waitingCount = 0
        }
        while countedUpTo < rows.count {
            if Self.isData(rows, at: countedUpTo) { waitingCount += 1 }
            countedUpTo += 1
        }
        waitingSince = waitingCount == 0 ? nil : waitingSince ?? now
    }

    /// Whether the rows not yet in a batch should form one now (`batchWait`); when some wait
    /// and are not due, makes sure a timer ends the wait.
    private func isBatchDue(services: LocationServices) -> Bool {
        guard configuration.batchWait > .zero else { return true }
        guard let since = waitingSince else { return false }
        let due = since + configuration.batchWait
        if waitingCount >= configuration.batchRowCountMax || services.now >= due { return true }
        if waitTimer == nil { waitTimer = services.scheduledTimer(after: due - services.now) }
        return false
    }

    /// A batch outbox row holds the first row's index, the row count and the last row's index.
    private static let batchMarkerFieldCount = 3

    /// The data rows of the batch `key`: `rowCount` rows from `firstRowIndex`, skipping the
    /// outbox's own rows.
    private func batchRows(_ key: UploadBatchKey, in rows: StoredRows) -> [StoredRow] {
        var found: [StoredRow] = []
        var index = max(key.firstRowIndex, 0)
        while index < rows.count && found.count < key.rowCount {
            if Self.isData(rows, at: index) { found.append(rows[index]) }
            index += 1
        }
        return found
    }

    /// Whether `rows[index]` is a data row, not one of the outbox's own, reading only its key:
    /// the loops over the outbox at every commit would otherwise make each row they pass.
    private static func isData(_ rows: StoredRows, at index: Int) -> Bool {
        !rows.key(at: index).hasPrefix(markerKeyPrefix)
    }

    /// Forms the next batch from the rows not yet batched, and commits its outbox row.
    private func form(from rows: StoredRows, store: Store, now: Instant) {
        var indices: [Int] = []
        var index = nextRowIndex
        while index < rows.count && indices.count < configuration.batchRowCountMax {
            if Self.isData(rows, at: index) { indices.append(index) }
            index += 1
        }
        guard let first = indices.first, let last = indices.last else { return }
        let key = UploadBatchKey(firstRowIndex: first, rowCount: indices.count)
        store.insert(StoredRow(key: Self.batchMarkerKey, text: "\(first) \(indices.count) \(last)"))
        guard let commit = store.commit() else { return }
        nextRowIndex = last + 1
        // The rows past the batch are counted again; they keep the wait they began with.
        countedUpTo = nextRowIndex
        waitingCount = 0
        countWaitingRows(rows, now: now)
        let ordered = configuration.sendsNewestFirst ? indices.reversed() : indices
        forming = (commit, UploadBatch(key: key, rows: ordered.map { rows[$0] }))
    }

    /// Runs `change` on the queue moved out of the uploader and back (see `batches`).
    private func changeQueue(_ change: (inout [UploadBatch]) -> Void) {
        var moved: [UploadBatch] = []
        swap(&moved, &batches)
        change(&moved)
        swap(&moved, &batches)
    }

    // MARK: - Requests

    private func send(
        _ batch: UploadBatch, after delay: VirtualDuration, services: LocationServices
    ) {
        if configuration.usesBackgroundTask && heldBackgroundTask == nil {
            heldBackgroundTask = services.beginBackgroundTask()
        }
        var request = batch
        request.carriesIdempotencyKey = configuration.keysRequestsByBatch
        taskInFlight = services.urlSession.uploadTask(with: request, earliestBeginAfter: delay)
    }

    private func endBackgroundTaskIfIdle(services: LocationServices) {
        guard let task = heldBackgroundTask, taskInFlight == nil, forming == nil else { return }
        services.endBackgroundTask(task)
        heldBackgroundTask = nil
    }
}
