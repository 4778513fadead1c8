// The store's durable rows as the disk keeps them (layer 3): a row holding only a fix under
// the store's usual key is its fix's slot in the run's archive, 4 bytes rather than a row's 80.

/// The committed rows of the app's store, in commit order: a collection of `StoredRow`, read
/// as an array is (`Store.rows`, `World.storedRows`, `RunRecord.storedRows`).
///
/// A row whose key is the first fix row's key, with a fix and no text (what `FixRecorder`
/// writes), is kept as its fix's slot in the run's `FixArchive`, which the log and the server
/// share; any other row is kept whole. A row reads back equal to the row committed.
public struct StoredRows: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    public typealias Element = StoredRow
    public typealias Index = Int

    /// Where packed rows' fixes are; nil until a row is packed.
    private var archive: FixArchive?
    /// Per row: the slot of its fix (the row is `StoredRow(key: packedKey, fix:)`), or
    /// `wholeBit` and its index in `wholes`.
    private var entries: [UInt32] = []
    /// The rows kept whole, by the index their entries name (a deleted one stays here).
    private var wholes: [StoredRow] = []
    /// The key of every packed row: the first fix row's.
    private var packedKey: String?

    private static let wholeBit: UInt32 = 1 << 31

    /// No rows.
    public init() {}

    /// `rows`, in order, kept whole (a record made from parts).
    public init(_ rows: some Sequence<StoredRow>) {
        for row in rows { appendWhole(row) }
    }

    /// `elements`, in order, kept whole.
    public init(arrayLiteral elements: StoredRow...) { self.init(elements) }

    /// No rows yet; fix rows appended will be kept in `archive`.
    package init(archive: FixArchive) { self.archive = archive }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> StoredRow {
        let entry = entries[position]
        guard entry & Self.wholeBit == 0, let archive, let packedKey else {
            return wholes[Int(entry & ~Self.wholeBit)]
        }
        return StoredRow(key: packedKey, fix: archive[entry])
    }

    /// The fix of the row at `position`, read without making the row.
    package func fix(at position: Int) -> Fix? {
        let entry = entries[position]
        guard entry & Self.wholeBit == 0, let archive else {
            return wholes[Int(entry & ~Self.wholeBit)].fix
        }
        return archive[entry]
    }

    /// The key of the row at `position`, read without making the row.
    package func key(at position: Int) -> String {
        let entry = entries[position]
        guard entry & Self.wholeBit == 0, let packedKey else {
            return wholes[Int(entry & ~Self.wholeBit)].key
        }
        return packedKey
    }

    public static func == (left: StoredRows, right: StoredRows) -> Bool {
        left.elementsEqual(right)
    }

    /// Adds `rows` at the end, in order.
    package mutating func append(contentsOf rows: [StoredRow]) {
        for row in rows { append(row) }
    }

    /// Adds `row` at the end.
    package mutating func append(_ row: StoredRow) {
        guard let archive, let fix = row.fix, row.text.isEmpty, wholes.count < Int(Self.wholeBit)
        else { return appendWhole(row) }
        if packedKey == nil { packedKey = row.key }
        guard row.key == packedKey, let slot = archive.keep(fix), slot < Self.wholeBit else {
            return appendWhole(row)
        }
        entries.append(slot)
    }

    private mutating func appendWhole(_ row: StoredRow) {
        entries.append(Self.wholeBit | UInt32(truncatingIfNeeded: wholes.count))
        wholes.append(row)
    }

    /// Removes the earliest row equal to `row`; returns its position, or nil when none is.
    package mutating func removeFirst(equalTo row: StoredRow) -> Int? {
        guard let position = indices.first(where: { self[$0] == row }) else { return nil }
        entries.remove(at: position)
        return position
    }
}
