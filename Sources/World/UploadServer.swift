// The server the app uploads to (layer 3): the batches it stored, kept packed, and the keys it
// deduplicates by. Read by tests and invariants through `World.server`.
import Simulation

/// A batch the server accepted, and when.
package struct AcceptedBatch: Sendable, Equatable {
    package var key: UploadBatchKey
    package var rows: [StoredRow]
    package var instant: Instant
    /// Whether its request carried its key (`UploadBatch.carriesIdempotencyKey`).
    package var carriedIdempotencyKey = true
}

/// The server the app uploads to: it records every batch it stored, in the order accepted.
/// When it deduplicates (`ServerDeduplication.byKey`, the default) it accepts a request whose
/// idempotency key it already holds without storing the rows again, counting it in
/// `repeatedKeys`; a request without a key (`UploadBatch.carriesIdempotencyKey` false), or any
/// request to a server that `storesEveryRequest`, is stored every time it arrives (R-S2). Read
/// by tests and invariants through `World.server`; a row stored twice is a duplicate.
///
/// It holds a batch of fix rows under one key and no text (what `FixRecorder` uploads) as its
/// fixes' slots in the run's `FixArchive`, 4 bytes a row rather than a row's 80: a week's drive
/// uploads about 600,000 rows, whose fixes the log and the store hold too (`lifeline bench
/// drive`). Every other batch is kept whole.
public struct UploadServer: Sendable {
    /// Whether it deduplicates by key.
    package let deduplication: ServerDeduplication
    /// Keys received again after they were accepted, in the order received (a deduplicating
    /// server, keyed requests only).
    package private(set) var repeatedKeys: [UploadBatchKey] = []
    // invariant: exactly the keys of the keyed batches accepted while it deduplicates, empty
    // otherwise (membership only, never iterated)
    private var keys: Set<UploadBatchKey> = []
    /// The batches stored, in the order accepted.
    private var stored: [StoredBatch] = []
    /// The slots of the packed batches' fixes, in the order accepted (`StoredBatch.Rows.fixes`).
    private var packedSlots = SegmentedArray<UInt32>(segmentShift: 12)
    /// Where the packed batches' fixes are.
    private let archive: FixArchive
    /// Rows stored, in every batch.
    package private(set) var acceptedRowCount = 0

    init(deduplication: ServerDeduplication = .byKey, fixArchive: FixArchive = FixArchive()) {
        self.deduplication = deduplication
        archive = fixArchive
    }

    /// Every batch stored, in the order accepted (made afresh at each read: the invariants
    /// read `accepted`, one batch at a time).
    package var acceptedBatches: [AcceptedBatch] { Array(accepted) }

    /// Every accepted row, in the order accepted.
    package var acceptedRows: [StoredRow] { accepted.flatMap(\.rows) }

    /// The batches stored, in the order accepted, each made when read.
    package var accepted: Batches { Batches(server: self) }

    /// Accepts `batch` at `instant`; returns true when it deduplicated it (its key was already
    /// held, and nothing was stored).
    mutating func accept(_ batch: UploadBatch, at instant: Instant) -> Bool {
        if deduplication == .byKey && batch.carriesIdempotencyKey {
            guard keys.insert(batch.key).inserted else {
                repeatedKeys.append(batch.key)
                return true
            }
        }
        stored.append(
            StoredBatch(
                key: batch.key, instant: instant,
                carriedIdempotencyKey: batch.carriesIdempotencyKey, rows: pack(batch.rows)))
        acceptedRowCount += batch.rows.count
        return false
    }

    /// `rows` as the server keeps them: their fixes alone when every row holds one under the
    /// same key with no text, whole otherwise.
    private mutating func pack(_ rows: [StoredRow]) -> StoredBatch.Rows {
        guard let first = rows.first else { return .whole(rows) }
        let key = first.key
        guard rows.allSatisfy({ $0.fix != nil && $0.text.isEmpty && $0.key == key }) else {
            return .whole(rows)
        }
        // Room for every fix, so that each finds a slot (`FixArchive.keep` fails only when full).
        guard archive.count + rows.count < Int(FixArchive.none) else { return .whole(rows) }
        let start = packedSlots.count
        for row in rows {
            if let fix = row.fix, let slot = archive.keep(fix) { packedSlots.append(slot) }
        }
        return .fixes(rowKey: key, start: start, count: rows.count)
    }

    /// The batches the server stored, each made into an `AcceptedBatch` when read.
    package struct Batches: RandomAccessCollection {
        let server: UploadServer
        package var startIndex: Int { 0 }
        package var endIndex: Int { server.stored.count }

        package subscript(position: Int) -> AcceptedBatch {
            let batch = server.stored[position]
            let rows: [StoredRow]
            switch batch.rows {
            case .whole(let whole): rows = whole
            case .fixes(let key, let start, let count):
                rows = (start..<start + count).map { server.packedRow(key, at: $0) }
            }
            return AcceptedBatch(
                key: batch.key, rows: rows, instant: batch.instant,
                carriedIdempotencyKey: batch.carriedIdempotencyKey)
        }

        /// The key of the batch at `position`, without making its rows.
        package func key(at position: Int) -> UploadBatchKey { server.stored[position].key }

        /// When the batch at `position` was accepted, without making its rows.
        package func instant(at position: Int) -> Instant { server.stored[position].instant }

        /// Calls `body` with every row of every batch and its batch's index, in the order
        /// accepted, until it returns false: each row made alone, no batch's array.
        package func forEachRow(_ body: (_ batchIndex: Int, _ row: StoredRow) -> Bool) {
            for batchIndex in server.stored.indices {
                switch server.stored[batchIndex].rows {
                case .whole(let rows):
                    for row in rows where !body(batchIndex, row) { return }
                case .fixes(let key, let start, let count):
                    for index in start..<start + count {
                        let row = server.packedRow(key, at: index)
                        if !body(batchIndex, row) { return }
                    }
                }
            }
        }
    }

    /// The packed row at `index` of `packedSlots`.
    private func packedRow(_ key: String, at index: Int) -> StoredRow {
        StoredRow(key: key, fix: archive[packedSlots[index]])
    }

    /// A batch as the server keeps it.
    private struct StoredBatch: Sendable {
        var key: UploadBatchKey
        var instant: Instant
        var carriedIdempotencyKey: Bool
        var rows: Rows

        enum Rows: Sendable {
            /// `StoredRow(key: rowKey, fix: fix)` for each fix whose slot is in
            /// `packedSlots[start..<start + count]`.
            case fixes(rowKey: String, start: Int, count: Int)
            case whole([StoredRow])
        }
    }
}
