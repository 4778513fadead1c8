// The app's data on the device (layer 3): a durable store modelled on SQLite with a journal, and
// a small saved record like `UserDefaults`, as an engine sees them (`Store`, `SavedRecord`),
// and the disk that keeps them across processes and boots (`Disk`, owned by the app process).
import Simulation

/// One row of the app's store: a key, an optional fix, and free text. Rows are kept in the
/// order they were committed; the store does not index or deduplicate them.
public struct StoredRow: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var fix: Fix?
    public var text: String

    public init(key: String, fix: Fix? = nil, text: String = "") {
        self.key = key
        self.fix = fix
        self.text = text
    }

    public var description: String {
        "row \(key)\(fix.map { " \($0)" } ?? "")\(text.isEmpty ? "" : " \"\(text)\"")"
    }
}

/// One commit of the store, numbered from 1 within a process (the callback that tells of its
/// completion reaches only the process that made it).
public struct CommitID: Hashable, Sendable, CustomStringConvertible {
    public var value: Int
    public init(_ value: Int) { self.value = value }
    public var description: String { "commit \(value)" }
}

/// Why the store cannot be opened.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device has not been unlocked since it booted: the app's container is protected
    /// `completeUntilFirstUserAuthentication`, and its files cannot be opened (R-D9).
    case protectedDataUnavailable

    public var description: String {
        switch self {
        case .protectedDataUnavailable:
            "protected data unavailable before the first unlock, R-D9"
        }
    }
}

/// A value of the saved record: what `UserDefaults` holds, every property-list type
/// (`Bool`, `Int`, `Double`, `String`, `Data`, `Date`, arrays and string-keyed dictionaries of
/// them, nested) and a URL.
public enum SavedValue: Sendable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// `Data`: its bytes.
    case data([UInt8])
    /// `Date`: seconds since 2001-01-01 00:00:00 UTC (`timeIntervalSinceReferenceDate`).
    case date(Double)
    /// A URL (`set(_:forKey:)` of a `URL`): its absolute string.
    case url(String)
    case array([SavedValue])
    case dictionary([String: SavedValue])

    public var description: String {
        switch self {
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): PlainText.fixed(value, digits: 3)
        case .string(let value): "\"\(value)\""
        case .data(let bytes): "<\(bytes.count) bytes>"
        case .date(let seconds): "date \(PlainText.fixed(seconds, digits: 3))"
        case .url(let text): "url \(text)"
        case .array(let values): "[\(values.map(\.description).joined(separator: ", "))]"
        case .dictionary(let values):
            // Sorted by key: no hash order reaches a trace.
            "[\(values.keys.sorted().map { "\($0): \(values[$0]!)" }.joined(separator: ", "))]"
        }
    }
}

/// What iOS lost of the app's data when its process ended (R-A1; R-F3 for memory) or while its
/// data was protected (R-D9): a commit in flight, or changes to the saved record not yet
/// written. Recorded, with the `DropReason` naming the rule, in the trace and the app's log.
package enum StorageLoss: Sendable, Equatable, CustomStringConvertible {
    /// A commit that had not completed: none of its rows are on disk.
    case commit(CommitID, rowCount: Int)
    /// Changes to these keys of the saved record, in the order last changed.
    case savedRecordChange(keys: [String])
    /// Rows inserted and never committed: the open transaction, in the process's memory.
    case uncommittedRows(rowCount: Int)

    package var description: String {
        switch self {
        case .commit(let commit, let rowCount): "\(commit) (\(rowCount) rows)"
        case .savedRecordChange(let keys):
            "saved record change [\(keys.joined(separator: ", "))]"
        case .uncommittedRows(let rowCount): "\(rowCount) uncommitted rows"
        }
    }
}

// MARK: - What the engine sees

/// The store as an engine sees it: a tiny SQLite wrapper, opened with
/// `LocationServices.openStore()`.
///
///     let store = try services.openStore()
///     store.insert(StoredRow(key: "fix", fix: update.fix))
///     store.commit()          // durable `storeCommitDuration` later: `storeDidCommit`
///     store.rows              // the committed rows, in commit order
///
/// Rows inserted since the last commit are the open transaction, held in the process's memory:
/// they die with the process. `commit()` issues the journaled write; the rows become durable
/// when it completes, `storeCommitDuration` later, and the engine's `storeDidCommit` is called
/// through the app's mailbox (held while the process is suspended, like any other callback).
/// Commits run one after another, as SQLite's writers do. A termination of any kind before a
/// commit completes loses that commit's rows and nothing else; a commit that completes at the
/// instant of the termination is durable (the completion falls on the durable side).
///
/// `rows` are the durable rows as of the start of the current callback: a commit's rows appear
/// in the first callback after it completes (at the latest its `storeDidCommit`), never before.
///
/// `delete(_:)` adds a deletion to the open transaction (`DELETE … WHERE` the row's values), and
/// is durable only once its commit completes, like an insert (R-S1): a deletion in a commit that is
/// lost, or still in the open transaction when the process ends, is not applied and the row
/// stays on disk. A completed commit first adds its inserted rows, then removes, for each
/// deletion in the order asked, the earliest durable row equal to it (a deletion that matches
/// no row does nothing). Each applied deletion is a `rowsDeleted` entry in the app's log.
///
///     store.delete(row)       // a row the server accepted (`UploadBatch.rows`)
///     store.commit()          // gone from `rows` once the commit completes
public final class Store {
    private let storage: ProcessStorage
    private var transaction: [StoredRow] = []
    // Deletions asked since the last commit, in order: the open transaction's other half.
    private var deletions: [StoredRow] = []

    init(storage: ProcessStorage) { self.storage = storage }

    /// The committed (durable) rows, in commit order.
    public var rows: StoredRows { storage.committedRows }

    /// Rows inserted since the last commit (the open transaction, in memory only).
    public var uncommittedRows: [StoredRow] { transaction }

    /// Adds `row` to the open transaction.
    public func insert(_ row: StoredRow) {
        guard !storage.halted else { return }
        // Appended moved out and back, for the reason of `LocationServices.ask`.
        var moved: [StoredRow] = []
        swap(&moved, &transaction)
        moved.append(row)
        swap(&moved, &transaction)
    }

    /// Adds the deletion of `row` to the open transaction: once the commit completes, the
    /// earliest durable row equal to `row` is gone from the disk (R-S1).
    public func delete(_ row: StoredRow) {
        guard !storage.halted else { return }
        deletions.append(row)
    }

    /// Commits the open transaction (its inserts and deletions); nil (and nothing happens) when
    /// it is empty.
    @discardableResult
    public func commit() -> CommitID? { commit(immediately: false) }

    /// Commits the open transaction; `immediately`: durable at the instant it is issued (the
    /// rows of the app's files, written when the app's write returned: `DeviceFiles+Rows`).
    @discardableResult
    package func commit(immediately: Bool) -> CommitID? {
        guard !storage.halted, !transaction.isEmpty || !deletions.isEmpty else { return nil }
        storage.commitCount += 1
        let commit = CommitID(storage.commitCount)
        var rows: [StoredRow] = []
        swap(&rows, &transaction)  // the transaction is now empty
        var deleted: [StoredRow] = []
        swap(&deleted, &deletions)
        storage.ask {
            $0.commitRequests.append(
                .init(commit: commit, rows: rows, deletions: deleted, immediately: immediately))
        }
        return commit
    }

    /// Drops the open transaction (`ROLLBACK`): its inserts and its deletions.
    public func rollback() {
        transaction = []
        deletions = []
    }
}

/// A small saved record as an engine sees it, shaped like `UserDefaults`: keys to
/// property-list values (`SavedValue`), read synchronously.
///
///     services.userDefaults.set(true, forKey: "enabled")
///     services.userDefaults.bool(forKey: "enabled")   // true at once, in this process
///
/// A change is in the process's memory at once, and is written to disk
/// `savedRecordWriteDelay` after the first change not yet written, together with every change
/// made until then; a termination before that write loses them (R-A1, R-F3). A write that falls
/// at the instant of the termination is made. Before the first unlock after a boot the
/// record on disk is unreadable: reads come back empty (R-D9, F: "UserDefaults reads come back
/// empty"), except for changes this process made; a write due while the data is still
/// protected fails, and its changes are lost (R-D9). After the unlock, reads see the disk (F
/// notes that the empty copy "can stick until the process dies": not modelled).
///
/// A value of another type than the one asked for reads as that getter's default (`false`,
/// `0`, `0.0`, nil).
public final class SavedRecord {
    private let storage: ProcessStorage

    init(storage: ProcessStorage) { self.storage = storage }

    /// The value for `key` (`object(forKey:)`): this process's unwritten change if any,
    /// otherwise the disk's (nothing while the data is protected).
    public func value(forKey key: String) -> SavedValue? {
        if let change = storage.unsavedChanges.last(where: { $0.key == key }) {
            return change.value
        }
        // Copied out before the lookup, so that no call runs inside the access to the view
        // and the compiler can check its accesses statically.
        let stored = storage.storedValues
        return stored[key]
    }

    public func bool(forKey key: String) -> Bool {
        if case .bool(let value) = value(forKey: key) { value } else { false }
    }
    public func integer(forKey key: String) -> Int {
        if case .int(let value) = value(forKey: key) { value } else { 0 }
    }
    public func double(forKey key: String) -> Double {
        if case .double(let value) = value(forKey: key) { value } else { 0 }
    }
    public func string(forKey key: String) -> String? {
        if case .string(let value) = value(forKey: key) { value } else { nil }
    }

    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }
    public func set(_ value: Int, forKey key: String) { set(.int(value), forKey: key) }
    public func set(_ value: Double, forKey key: String) { set(.double(value), forKey: key) }
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }

    /// Sets `key` to `value`; nil removes it.
    public func set(_ value: SavedValue?, forKey key: String) {
        guard !storage.halted else { return }
        storage.unsavedChanges.removeAll { $0.key == key }
        storage.unsavedChanges.append((key, value))
        storage.asked.savedRecordChanged = true
    }

    public func removeObject(forKey key: String) { set(nil as SavedValue?, forKey: key) }
}

/// The process's side of its data: what the app process tells the store and the saved record
/// before each callback (the disk's rows and values), and what they ask for in it. One per
/// process: it dies with the process, and with it the open transaction and unwritten changes.
final class ProcessStorage {
    // The disk as the current callback sees it: read from its owner while a callback runs
    // (`inCallback`), empty otherwise. Read on demand rather than set before each callback:
    // most callbacks never read it, and setting it retained and released the disk's arrays at
    // every one.

    /// The durable rows, as of the start of the callback.
    var committedRows: StoredRows {
        guard inCallback, let diskSource else { return StoredRows() }
        return diskSource.callbackCommittedRows
    }

    /// The saved record on disk, or nothing while the data is protected.
    var storedValues: [String: SavedValue] {
        guard inCallback, let diskSource else { return [:] }
        return diskSource.callbackStoredValues
    }
    /// The owner of the disk (the app process); weak, as the app process owns the services
    /// that own this.
    weak var diskSource: (any DiskViewSource)?
    /// True while one of the process's callbacks runs.
    var inCallback = false
    /// Whether the data is readable (the device has been unlocked since it booted, R-D9).
    var protectedDataAvailable = true
    /// The process crashed in this callback: later calls do nothing.
    var halted = false
    /// Commits numbered so far in this process.
    var commitCount = 0
    /// Changes to the saved record not yet written, one per key, in the order last changed.
    var unsavedChanges: [(key: String, value: SavedValue?)] = []
    /// What the current callback asked of the disk so far.
    var asked = StorageRequests()

    /// What one callback asked of the disk, each in the order asked.
    struct StorageRequests {
        /// Commits asked for.
        var commitRequests: [CommitRequest] = []
        /// The saved record changed.
        var savedRecordChanged = false
        /// Failed attempts to open the store.
        var openFailures: [StoreError] = []
    }

    /// One commit asked for: a struct rather than a tuple, so that destroying the requests
    /// is specialized code (a tuple's went through the runtime's generic `tuple_destroy`).
    struct CommitRequest {
        var commit: CommitID
        var rows: [StoredRow]
        /// Rows to delete, in the order asked (`Store.delete`).
        var deletions: [StoredRow] = []
        /// Durable at the instant issued (`Store.commit(immediately:)`).
        var immediately = false
    }

    /// True when the callback asked anything of the disk.
    var hasRequests: Bool {
        !asked.commitRequests.isEmpty || asked.savedRecordChanged || !asked.openFailures.isEmpty
    }

    /// Hands the app process what the callback that returned asked for, and forgets it.
    func takeRequests() -> StorageRequests {
        var taken = StorageRequests()
        swap(&taken, &asked)
        return taken
    }

    /// Takes back requests handed over by `takeRequests()` once they are applied, emptied but
    /// keeping their arrays' storage: the next callback that commits appends without
    /// allocating (nearly every fix commits once).
    func recycle(_ applied: inout StorageRequests) {
        applied.commitRequests.removeAll(keepingCapacity: true)
        applied.openFailures.removeAll(keepingCapacity: true)
        applied.savedRecordChanged = false
        guard !hasRequests else { return }  // asked again meanwhile: keep those
        swap(&applied, &asked)
    }

    /// Runs `change` on the callback's requests moved out and back, for the reason of
    /// `LocationServices.ask`.
    func ask(_ change: (inout StorageRequests) -> Void) {
        var moved = StorageRequests()
        swap(&moved, &asked)
        change(&moved)
        swap(&moved, &asked)
    }
}

/// What owns the disk and shows it to the running callback (the app process).
protocol DiskViewSource: AnyObject {
    /// The durable rows as the running callback sees them.
    var callbackCommittedRows: StoredRows { get }
    /// The saved record on disk as the running callback sees it.
    var callbackStoredValues: [String: SavedValue] { get }
}

// MARK: - The disk

/// The app's data on the device's disk, which outlives every process and every boot: the
/// committed rows, the saved record, and the commits in flight. Owned by the app-process actor
/// (never by an engine).
struct Disk {
    /// A commit issued and not yet complete.
    struct InFlight {
        var commit: CommitID
        var rows: [StoredRow]
        var completesAt: Instant
        var timer: EventHandle
        /// Rows to delete once the rows are added, in order (`Store.delete`).
        var deletions: [StoredRow] = []
        /// The commit of the app's files' rows (`Store.commit(immediately:)`): each deletion
        /// removes the one row of a file, found from the end.
        var deletesFileRows = false
        /// Set when the commit completes: the deletions that matched a row, each with the
        /// index it had in `Disk.rows` when it was removed (after the removals before it).
        var deleted: [(position: Int, row: StoredRow)] = []
    }

    /// Rows of completed commits, in commit order, less the rows their deletions removed.
    private(set) var rows: StoredRows
    /// The saved record as written.
    private(set) var savedValues: [String: SavedValue] = [:]
    /// False from a boot until the first unlock (R-D9). The world starts unlocked.
    var protectedDataAvailable = true
    // invariant: commits of the current process only, in issue order, completion instants
    // non-decreasing
    private(set) var inFlight: [InFlight] = []

    /// An empty disk whose rows keep their fixes in `archive`.
    init(archive: FixArchive) { rows = StoredRows(archive: archive) }

    /// An empty disk that keeps every row whole (a placeholder, or a test's disk).
    init() { rows = StoredRows() }

    /// When a commit issued at `now` completes: commits are serial, so after the last one in
    /// flight.
    func completionInstant(issuedAt now: Instant, duration: VirtualDuration) -> Instant {
        max(now, inFlight.last?.completesAt ?? now) + duration
    }

    mutating func issue(_ commit: InFlight) { inFlight.append(commit) }

    /// Completes `commit` and every commit issued before it; returns them in order.
    mutating func complete(through commit: CommitID) -> [InFlight] {
        guard let index = inFlight.firstIndex(where: { $0.commit == commit }) else { return [] }
        var done: [InFlight]
        if index == inFlight.count - 1 {
            // The usual case, every commit in flight done: handed over whole, not copied out
            // and removed.
            done = inFlight
            inFlight = []
        } else {
            done = Array(inFlight[...index])
            inFlight.removeFirst(index + 1)
        }
        for position in done.indices { apply(&done[position]) }
        return done
    }

    /// The process ends at `now`: commits due by then complete (the completion instant falls on
    /// the durable side), later ones are lost, their deletions with them. Returns both, in issue
    /// order; the caller cancels their timers.
    mutating func terminate(at now: Instant) -> (completed: [InFlight], lost: [InFlight]) {
        var completed = Array(inFlight.prefix { $0.completesAt <= now })
        let lost = inFlight.dropFirst(completed.count)
        for position in completed.indices { apply(&completed[position]) }
        inFlight.removeAll()
        return (completed, Array(lost))
    }

    /// Makes `commit` durable: adds its rows, then removes the earliest row equal to each of its
    /// deletions, noting in `commit.deleted` what it removed and where.
    private mutating func apply(_ commit: inout InFlight) {
        rows.append(contentsOf: commit.rows)
        for deletion in commit.deletions {
            let removed =
                commit.deletesFileRows
                ? rows.removeLast(equalTo: deletion) : rows.removeFirst(equalTo: deletion)
            guard let position = removed else { continue }
            commit.deleted.append((position, deletion))
        }
    }

    /// Writes `changes` to the saved record (nil removes a key).
    mutating func write(_ changes: [(key: String, value: SavedValue?)]) {
        for change in changes { savedValues[change.key] = change.value }
    }
}
