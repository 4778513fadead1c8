// uploaded-in-order (layer 5): the server receives the app's stored fixes in the order the app
// stored them, so that a server that keeps the latest point per device keeps the newest.
import Engines
import Simulation
import World

extension Invariant {
    /// `uploaded-in-order`: every fix the server accepts for the first time was stored on the
    /// disk before every fix the server accepted for the first time after it (the store's
    /// commit order, `RunRecord.storedFixes`, the outbox's natural order). An outbox read
    /// newest first breaks it: the server receives the newest point of a backlog first and an
    /// older one last, and a server that keeps the latest point per device (Traccar's, as its
    /// maintainers describe it: the last position processed is the device's position) shows
    /// the older point, and computes distances and hours wrongly, until the next upload.
    ///
    /// Judged from the server's acceptances and the disk alone, in store order rather than the
    /// fixes' own instants (an app that stored a fix late is judged by `bounded-gaps`, not here).
    /// Not judged: a fix accepted again (a duplicate is `uploaded-once`'s), a fix the disk never
    /// held (the app's own rows), and a batch whose request was a retry (its key sent more than
    /// once): an uploader that sends several requests at a time may see a failed one land after
    /// later ones, which retrying cannot avoid. One violation names the first fix out of order
    /// and how many were.
    public static let uploadedInOrder = Invariant(
        name: UploadedInOrder.name,
        summary: "The server receives the stored fixes in the order they were stored."
    ) { record in UploadedInOrder(record: record).violations() }
}

/// The check of `Invariant.uploadedInOrder`.
struct UploadedInOrder {
    static let name = "uploaded-in-order"
    let record: RunRecord

    func violations() -> [Violation] {
        if isInTimeOrder { return [] }
        let stored = record.storedFixes
        // Per fix: its first position on the disk, and whether the server accepted it yet.
        var table = FixTable<(position: Int32, accepted: Bool)>(capacity: stored.count)
        for index in stored.indices {
            _ = table.insert(FixKey(stored.fix(at: index)), (Int32(clamping: index), false))
        }
        let retried = retriedKeys()
        let batches = record.server.accepted
        var newest: (position: Int32, instant: Instant, batch: Int)?
        var first: (fix: Fix, instant: Instant, after: Instant)?
        var outOfOrder = 0
        batches.forEachRow { batchIndex, row in
            guard let fix = record.fix(in: row) else { return true }
            var entry: (position: Int32, accepted: Bool)?
            table.update(FixKey(fix), initial: (-1, false)) { held in
                entry = held
                held.accepted = true
            }
            guard let entry, entry.position >= 0, !entry.accepted else { return true }
            let instant = batches.instant(at: batchIndex)
            if let latest = newest, entry.position < latest.position {
                if !retried.contains(batches.key(at: batchIndex)) {
                    outOfOrder += 1
                    if first == nil {
                        first = (fix, instant, stored.fix(at: Int(latest.position)).instant)
                    }
                }
            } else {
                newest = (entry.position, instant, batchIndex)
            }
            return true
        }
        guard let first else { return [] }
        let count = outOfOrder == 1 ? "" : " (\(outOfOrder) fixes reached it out of order)"
        return [
            Violation(
                invariant: Self.name, instant: first.instant,
                explanation: "fix at \(TimeText.clock(first.fix.instant)) reached the server at "
                    + "\(TimeText.clock(first.instant)), after the fix at "
                    + "\(TimeText.clock(first.after)), which was stored after it\(count): a "
                    + "server that keeps the latest point per device shows the older one")
        ]
    }

    /// Whether the stored fixes are in time order and the server accepted fixes in strictly
    /// increasing time: then each accepted fix is new and in store order, without a table.
    private var isInTimeOrder: Bool {
        var previous: Instant?
        for fix in record.storedFixes.lazy.map(\.fix) {
            if let previous, fix.instant < previous { return false }
            previous = fix.instant
        }
        var increasing = true
        previous = nil
        record.server.accepted.forEachRow { _, row in
            guard let fix = record.fix(in: row) else { return true }
            if let previous, previous >= fix.instant {
                increasing = false
                return false
            }
            previous = fix.instant
            return true
        }
        return increasing
    }

    /// The keys the app sent more than once: a batch accepted under one was a retry.
    private func retriedKeys() -> Set<UploadBatchKey> {
        var sent: Set<UploadBatchKey> = []
        var again: Set<UploadBatchKey> = []
        for request in record.digest.uploadsSent where !sent.insert(request.key).inserted {
            again.insert(request.key)
        }
        return again
    }
}
