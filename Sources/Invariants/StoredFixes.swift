// The fixes a run stored (layer 5): every fix row that reached the disk, with the process whose
// commit made it durable, held as 16 bytes a row beside the rows themselves.
import Engines
import Simulation
import World

/// A fix row that reached the disk, with the process whose commit wrote it, and, for a row the
/// app deleted later (`Store.delete`), the deletion.
public struct StoredFix: Sendable {
    /// Index in `RunRecord.storedRows`; nil for a row deleted before the end.
    public var rowIndex: Int?
    public var fix: Fix
    /// The process whose commit made the row durable, and when (nil when the log's commits do
    /// not add up to the rows, which the world's design rules out).
    public var generation: Int?
    public var durableAt: Instant?
    /// The deletion that removed the row from the disk, if one did.
    public var deletion: RowDeletion?
}

/// A deletion of a stored row that became durable: the commit that carried it, its process
/// and when it completed (the log's `rowsDeleted`).
public struct RowDeletion: Sendable, Equatable {
    public var commit: CommitID
    public var generation: Int
    public var instant: Instant
}

/// Every fix row that reached the disk, in the order it did (`RunRecord.storedFixes`): a
/// collection of `StoredFix`, each made when it is read.
///
/// A week's drive stores about 600,000 fixes. Held as `StoredFix` values (128 bytes each) they
/// would be the largest view the invariants read (78 MB for a 168-hour run). Here a
/// row is its owner in 16 bytes, and its fix is read from the row on disk when the app stores
/// through `FixRecorder` (`row.fix`): the rows are the record's own, shared, not copied. Only a
/// team's reader (which may parse text) and a deleted row, which is no longer on the disk, keep
/// their fixes here, read once.
public struct StoredFixes: RandomAccessCollection, Sendable {
    /// One stored fix's owner: its row (−1: none), its process (`unknown`: none) and when it
    /// became durable (−1: unknown), in nanoseconds since the start.
    struct Owner {
        var rowIndex: Int32
        var generation: Int32
        var durableAt: Int64

        static let unknown = Int32.min
    }

    private var owners: [Owner] = []
    /// The rows on disk at the end (`RunRecord.storedRows`).
    private let rows: StoredRows
    /// Every fix, by position, unless each is its row's `fix` (`readsRowFix`).
    private var keptFixes: [Fix] = []
    /// Every row's deletion, by position, when any row was deleted; empty otherwise.
    private var deletions: [RowDeletion?] = []
    /// Whether each fix is read as `rows[rowIndex].fix`, not kept in `keptFixes`.
    private let readsRowFix: Bool

    /// No fix yet, over `rows`; `readsRowFix` when every fix appended will be its row's `fix`
    /// (the app's reader is `FixReader.fixRecorder` and no row was deleted). Room for
    /// `capacity` fixes.
    init(rows: StoredRows, readsRowFix: Bool, capacity: Int) {
        self.rows = rows
        self.readsRowFix = readsRowFix
        owners.reserveCapacity(capacity)
        if !readsRowFix { keptFixes.reserveCapacity(capacity) }
    }

    /// Adds the next stored fix.
    mutating func append(
        rowIndex: Int?, fix: Fix, generation: Int?, durableAt: Instant?,
        deletion: RowDeletion? = nil
    ) {
        precondition(!readsRowFix || (rowIndex != nil && deletion == nil), "a row on disk")
        owners.append(
            Owner(
                rowIndex: rowIndex.map { Int32(clamping: $0) } ?? -1,
                generation: generation.map { Int32(clamping: $0) } ?? Owner.unknown,
                durableAt: durableAt?.nanosecondsSinceStart ?? -1))
        if !readsRowFix { keptFixes.append(fix) }
        if deletion != nil, deletions.count < owners.count - 1 {
            // The first deletion: every fix before it was not deleted.
            deletions = Array(repeating: nil, count: owners.count - 1)
        }
        if deletion != nil || !deletions.isEmpty { deletions.append(deletion) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { owners.count }

    public subscript(position: Int) -> StoredFix {
        let owner = owners[position]
        let rowIndex = owner.rowIndex >= 0 ? Int(owner.rowIndex) : nil
        return StoredFix(
            rowIndex: rowIndex, fix: fix(at: position),
            generation: owner.generation == Owner.unknown ? nil : Int(owner.generation),
            durableAt: owner.durableAt >= 0
                ? Instant(nanosecondsSinceStart: owner.durableAt) : nil,
            deletion: deletions.isEmpty ? nil : deletions[position])
    }

    /// The fix at `position`, without the rest of its `StoredFix`.
    public func fix(at position: Int) -> Fix {
        guard readsRowFix else { return keptFixes[position] }
        // `append` took only rows on disk holding a fix.
        return rows.fix(at: Int(owners[position].rowIndex))!
    }

    /// When each stored fix was taken, in order: what the gap readers take, read as `fix(at:)`
    /// reads a fix, without making each whole `StoredFix` (its owner decoded, its deletion
    /// looked up).
    package var fixInstants: [Instant] {
        var instants: [Instant] = []
        instants.reserveCapacity(count + 2)  // room for the two ends `BoundedGaps` adds
        for position in indices { instants.append(fix(at: position).instant) }
        return instants
    }
}
