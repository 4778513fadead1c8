// The store's durable rows as the disk keeps them (layer 3): a row holding only a fix under
// the store's usual key is its fix's slot in the run's archive, 4 bytes rather than a row's 80.

/// The committed rows of the app's store, in commit order: a collection of `StoredRow`, read
/// as an array is (`Store.rows`, `World.storedRows`, `RunRecord.storedRows`).
///
/// A row whose key is the first fix row's key, with a fix and no text (what `FixRecorder`
/// writes), is kept as its fix's slot in the run's `FixArchive`, which the log and the server
/// share; any other row is kept whole. A row reads back equal to the row committed. A value
/// like an array's: a copy shares the rows until one of them changes.
public struct StoredRows: RandomAccessCollection, Equatable, ExpressibleByArrayLiteral {
    public typealias Element = StoredRow
    public typealias Index = Int

    /// The rows; nil for none and nowhere to pack them (a placeholder costs no allocation).
    private var storage: Storage?

    private static let wholeBit: UInt32 = 1 << 31

    /// No rows.
    package init() {}

    /// `rows`, in order, kept whole (a record made from parts).
    package init(_ rows: some Sequence<StoredRow>) {
        for row in rows { append(row) }
    }

    /// `elements`, in order, kept whole.
    public init(arrayLiteral elements: StoredRow...) { self.init(elements) }

    /// No rows yet; fix rows appended will be kept in `archive`.
    package init(archive: FixArchive) { storage = Storage(archive: archive) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage?.entries.count ?? 0 }

    public subscript(position: Int) -> StoredRow {
        let (storage, entry) = located(position)
        if let whole = storage.whole(entry) { return whole }
        return StoredRow(key: storage.packedKey!, fix: storage.archive![entry])
    }

    /// The fix of the row at `position`, read without making the row.
    package func fix(at position: Int) -> Fix? {
        let (storage, entry) = located(position)
        if let whole = storage.whole(entry) { return whole.fix }
        return storage.archive![entry]
    }

    /// The key of the row at `position`, read without making the row.
    package func key(at position: Int) -> String {
        let (storage, entry) = located(position)
        if let whole = storage.whole(entry) { return whole.key }
        return storage.packedKey!
    }

    /// The storage and the entry of the row at `position`. A packed entry exists only once
    /// `Storage.append` has an archive and has set the packed key, hence the `!`s above.
    @inline(__always)
    private func located(_ position: Int) -> (storage: Storage, entry: UInt32) {
        guard let storage else { preconditionFailure("index \(position) of no rows") }
        return (storage, storage.entries[position])
    }

    public static func == (left: StoredRows, right: StoredRows) -> Bool {
        left.elementsEqual(right)
    }

    /// Adds `rows` at the end, in order.
    package mutating func append(contentsOf rows: [StoredRow]) {
        let storage = uniqueStorage()
        for row in rows { storage.append(row) }
    }

    /// Adds `row` at the end.
    package mutating func append(_ row: StoredRow) { uniqueStorage().append(row) }

    /// Removes the earliest row equal to `row`; returns its position, or nil when none is.
    package mutating func removeFirst(equalTo row: StoredRow) -> Int? {
        guard let position = indices.first(where: { self[$0] == row }) else { return nil }
        uniqueStorage().entries.remove(at: position)
        return position
    }

    /// Removes the latest row equal to `row`, looking from the end and at keys first (the
    /// rows of the app's files: one per file, replaced at each write, so nearly always near the
    /// end); returns its position, or nil when none is.
    package mutating func removeLast(equalTo row: StoredRow) -> Int? {
        guard let position = indices.last(where: { key(at: $0) == row.key && self[$0] == row })
        else { return nil }
        uniqueStorage().entries.remove(at: position)
        return position
    }

    /// The storage, made this value's own first if it is shared (or made, if there is none).
    private mutating func uniqueStorage() -> Storage {
        if isKnownUniquelyReferenced(&storage), let storage { return storage }
        let made = storage?.copy() ?? Storage(archive: nil)
        storage = made
        return made
    }

    /// The rows of one `StoredRows` value and the values copied from it.
    private final class Storage {
        /// Where packed rows' fixes are; nil: every row is kept whole.
        let archive: FixArchive?
        // Unchecked: read and changed only through `StoredRows`, which calls out to nothing
        // while it accesses them (checked, each read of a row cost a runtime call).
        /// Per row: the slot of its fix (the row is `StoredRow(key: packedKey, fix:)`), or
        /// `wholeBit` and its index in `wholes`.
        @exclusivity(unchecked) var entries: [UInt32] = []
        /// The rows kept whole, by the index their entries name (a deleted one stays here).
        @exclusivity(unchecked) var wholes: [StoredRow] = []
        /// The key of every packed row: the first fix row's.
        @exclusivity(unchecked) var packedKey: String?

        init(archive: FixArchive?) { self.archive = archive }

        /// The row kept whole that `entry` names; nil when `entry` is a packed row's slot.
        @inline(__always)
        func whole(_ entry: UInt32) -> StoredRow? {
            entry & StoredRows.wholeBit == 0 ? nil : wholes[Int(entry & ~StoredRows.wholeBit)]
        }

        func copy() -> Storage {
            let copied = Storage(archive: archive)
            copied.entries = entries
            copied.wholes = wholes
            copied.packedKey = packedKey
            return copied
        }

        func append(_ row: StoredRow) {
            guard let archive, let fix = row.fix, row.text.isEmpty,
                wholes.count < Int(StoredRows.wholeBit)
            else { return appendWhole(row) }
            if packedKey == nil { packedKey = row.key }
            guard row.key == packedKey, let slot = archive.keep(fix), slot < StoredRows.wholeBit
            else { return appendWhole(row) }
            entries.append(slot)
        }

        private func appendWhole(_ row: StoredRow) {
            entries.append(StoredRows.wholeBit | UInt32(truncatingIfNeeded: wholes.count))
            wholes.append(row)
        }
    }
}

// A value's storage is changed only when no other value shares it (`uniqueStorage`), and a
// run's archive only by its one world: sending a value to another task is safe.
extension StoredRows: @unchecked Sendable {}
