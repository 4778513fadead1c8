// uploaded-once (layer 5): no stored fix reaches the server twice or leaves the store before
// the server has it, and with the network up long enough every stored fix reaches it (R-D13,
// R-S1, R-S2).
import Engines
import Simulation
import World

extension Invariant {
    /// `uploaded-once`:
    ///
    /// 1. **Never twice.** No fix is stored by the server (in `server.acceptedBatches`) more
    ///    times than it was stored on the disk (a row deleted later counts: it was stored): a
    ///    second acceptance of a stored fix row is a duplicate the engine caused, by sending it
    ///    under another key, or by sending a request again to a deduplicating server without
    ///    its key (`AppProfile.serverDeduplication`, R-S2). A key a
    ///    deduplicating server already holds is answered "already have it" and is no duplicate
    ///    (`UploadServer.repeatedKeys`); a request sent again under its key to a server that
    ///    stores every request is stored twice by the server's design, which no app that
    ///    retries can avoid while it cannot know the server has the batch, and is no duplicate
    ///    of the app's either. A batch is compared with the batch it repeats (the last one
    ///    accepted before it under its key), not with the first batch that held the fix: a fix
    ///    the app stored in several rows is in several batches. Sent again once the app could
    ///    have known the server accepted it (`UploadKnowledge`: its code heard "accepted" and
    ///    the process ran long enough to keep the answer), the resend is the app's duplicate.
    /// 2. **Eventually.** When the network is up for the last `settle` of the run (no network
    ///    action at all, or the last one is `networkUp` at least `settle` before the horizon),
    ///    every stored fix row is accepted, provided that after both its commit and the network
    ///    coming up some process of the app ran (foreground or background) for an unbroken
    ///    `settle`: a suspended or ended app runs no uploader, and a correct uploader's retry
    ///    waits at most a few minutes (`UploaderConfiguration.retryDelayMax`, 5 min). When
    ///    the policy's `networkFailurePercent` or `serverErrorPercent` fails requests by
    ///    chance (a 500 stores nothing, R-N42), a row is excused if
    ///    a request began after its commit and the network coming up, and no process ran for
    ///    an unbroken `settle` after the last request began: the uploader tried whenever it
    ///    ran long enough to reach its next retry, and chance failed every try (iOS may
    ///    suspend the app before a retry comes due, R-D13).
    /// 3. **Never deleted and lost.** A fix row that became durable, was then deleted from the
    ///    store (`Store.delete`, R-S1) and never reached the server is a fix the app lost: from
    ///    the deletion it was on neither the disk nor the server. Judged from what happened: a
    ///    fix the server accepted at any time, before the deletion or after it (a request in
    ///    flight, or a retry from the process's memory, that landed), was not lost in this run,
    ///    a fix still on the disk in a row not deleted (a row deleted and written again: a
    ///    store has no update) was not lost, and a deletion less than `settle` before the
    ///    horizon by a process still alive then is not judged (its request may still land).
    ///    For an app that hands uploads to the system's background transfer service, rows and
    ///    deletions wait `backgroundTransferDiscretionaryDelay` plus
    ///    `backgroundTransferDuration` longer (R-H5, R-H9) in this clause and the last. One
    ///    violation per deletion commit names the fix (the first, and how many, when the
    ///    commit deleted several), the deletion's commit and its process. A deleted row is
    ///    never "never uploaded" (clause 2) nor a duplicate. This lives here rather than in
    ///    `no-fix-lost-after-restore` because that rule is decided from the disk alone (did every
    ///    inserted row reach it?), and the deleted row did reach it; whether deleting it lost it
    ///    depends only on the server's acceptances, which are this rule's, and a row deleted
    ///    unaccepted is exactly the row that clause 2 would otherwise have to call "never
    ///    uploaded" with no network condition to excuse it.
    public static func uploadedOnce(settle: VirtualDuration = .minutes(10)) -> Invariant {
        Invariant(
            name: UploadedOnce.name,
            summary: "No stored fix is uploaded twice or deleted before the server has it, "
                + "and with the network up every stored fix is uploaded."
        ) { record in UploadedOnce(record: record, settle: settle).violations() }
    }
}

/// The check of `Invariant.uploadedOnce(settle:)`.
struct UploadedOnce {
    static let name = "uploaded-once"
    let record: RunRecord
    let settle: VirtualDuration

    func violations() -> [Violation] {
        (duplicates() + neverUploaded() + deletedAndLost()).sortedByInstant()
    }

    private func duplicates() -> [Violation] {
        // Fixes accepted in strictly increasing time are all distinct (one fix, one instant):
        // the usual uploader's, checked without a table of every fix.
        var previous: Instant?
        var increasing = true
        forEachAcceptedFix { fix in
            if let previous, previous >= fix.instant {
                increasing = false
                return false
            }
            previous = fix.instant
            return true
        }
        if increasing { return [] }
        // The stored fixes, counted only once a fix is accepted a second time (rare): most
        // runs never need them.
        var storedCounts: FixCounts?
        let batches = record.server.accepted
        // One table sized once for every row (no rehash as it fills): per fix, the index of the
        // first batch that held it (read only for a violation) and how many times the server
        // accepted it. One probe per row.
        var accepted = FixTable<(firstBatch: Int32, count: Int32)>(capacity: acceptedRowCount)
        var found: [Violation] = []
        var repeats = RepeatedBatches()
        var knowledge: UploadKnowledge?
        // Row by row, each made alone; a batch is made whole only for a fix seen twice.
        batches.forEachRow { batchIndex, row in
            guard let fix = record.fix(in: row) else { return true }
            var seen = (firstBatch: Int32(clamping: batchIndex), count: Int32(0))
            accepted.update(FixKey(fix), initial: seen) { held in
                held.count += 1
                seen = held
            }
            if seen.count == 1 { return true }
            let batch = batches[batchIndex]
            // The request this one repeats: the last batch accepted before it under its key
            // (R-S2), not the first batch that held the fix (a fix stored in several rows is
            // in several batches).
            let repeated = repeats.batch(repeatedBy: batchIndex, in: batches)
            var resend: AvoidableResend?
            if let repeated, batches[repeated].key == batch.key,
                record.server.deduplication == .storesEveryRequest
            {
                // A retry of the same request to a server that stores every request: no app
                // that retries can avoid it while it cannot know the server has the batch
                // (R-S2). Once it could, sending it again is the app's duplicate.
                let known = knowledge ?? UploadKnowledge(record: record)
                knowledge = known
                resend = known.avoidableResend(of: batch)
                if resend == nil {
                    // The server's copy, not the app's: later batches holding the fix are
                    // counted without it.
                    accepted.update(FixKey(fix), initial: seen) { $0.count -= 1 }
                    return true
                }
            }
            let stored = storedCounts ?? FixCounts(record.storedFixes.lazy.map(\.fix))
            storedCounts = stored
            guard Int(seen.count) > stored.count(of: fix) else { return true }
            let earlier = batches[repeated ?? Int(seen.firstBatch)]
            found.append(
                Violation(
                    invariant: Self.name, instant: batch.instant,
                    explanation: "fix at \(TimeText.clock(fix.instant)) was accepted by the "
                        + "server a second time at \(TimeText.clock(batch.instant)) in "
                        + "\(batch.key), after \(earlier.key) at "
                        + "\(TimeText.clock(earlier.instant)): "
                        + (resend.map(\.description) ?? cause(earlier, batch))))
            return true
        }
        return found
    }

    /// Why the server stored a fix of `first` again in `again`.
    private func cause(_ first: AcceptedBatch, _ again: AcceptedBatch) -> String {
        guard first.key == again.key else { return "the engine sent a stored fix under two keys" }
        if !again.carriedIdempotencyKey {
            return "the engine sent the batch again without an idempotency key, and the server "
                + "stored it twice"
        }
        return "the engine sent the batch again under its key, and the server (which "
            + "\(record.server.deduplication.rawValue)) stored it twice"
    }

    /// Clause 3: the deleted fix rows that the server never accepted and no row left on the
    /// disk still holds. One violation per deletion commit, naming its first fix (and how
    /// many it deleted).
    private func deletedAndLost() -> [Violation] {
        let deleted = record.storedFixes.filter { $0.deletion != nil }
        guard !deleted.isEmpty else { return [] }
        let accepted = acceptedFixes()
        let processes = record.processes
        // A request of a process still running, or a background transfer (which outlives
        // its process), may still land after the horizon.
        let wait = settle + backgroundTransferWait
        // The rows lost, grouped by the deletion that removed them, in the order first met.
        var groups: [(deletion: RowDeletion, lost: [StoredFix])] = []
        // Fixes still on the disk in a row not deleted: a row deleted and written again (a
        // store has no update) lost nothing.
        // Sized for every stored fix (a lazy filter counts none ahead).
        var kept = FixCounts(capacity: record.storedFixes.count)
        for stored in record.storedFixes where stored.deletion == nil { kept.add(stored.fix) }
        for stored in deleted {
            guard let deletion = stored.deletion, accepted.count(of: stored.fix) == 0,
                !kept.take(stored.fix)
            else { continue }
            let deleter = processes.first { $0.generation == deletion.generation }
            let stillSending = deleter.map { $0.endedAt == nil } ?? false
            if stillSending || backgroundTransferWait > .zero,
                record.horizon - deletion.instant < wait
            {
                continue
            }
            if let index = groups.firstIndex(where: { $0.deletion == deletion }) {
                groups[index].lost.append(stored)
            } else {
                groups.append((deletion, [stored]))
            }
        }
        return groups.compactMap { group in
            guard let first = group.lost.first, let last = group.lost.last else { return nil }
            let deletion = group.deletion
            let stored = first.durableAt.map { " (stored at \(TimeText.clock($0)))" } ?? ""
            let one = group.lost.count == 1
            let what =
                one
                ? "fix at \(TimeText.clock(first.fix.instant))\(stored) was"
                : "\(group.lost.count) fixes, the first at \(TimeText.clock(first.fix.instant))"
                    + "\(stored) and the last at \(TimeText.clock(last.fix.instant)), were"
            return Violation(
                invariant: Self.name, instant: deletion.instant,
                explanation: "\(what) deleted from the store by process \(deletion.generation) "
                    + "(\(deletion.commit), durable at \(TimeText.clock(deletion.instant))) "
                    + "and never accepted by the server: from the deletion "
                    + "\(one ? "it was" : "they were") on neither the disk nor the server (the "
                    + "app lost \(one ? "it" : "them"))")
        }
    }

    /// How much longer than `settle` a row may wait when the app uploads through a background
    /// `URLSession`: the system starts such a transfer up to
    /// `backgroundTransferDiscretionaryDelay` after it is handed over (R-H9) and it takes
    /// `backgroundTransferDuration` (R-H5); zero for an app that never handed one over.
    private var backgroundTransferWait: VirtualDuration {
        guard record.digest.lastBackgroundUploadHandedOver != nil else { return .zero }
        return record.policy.backgroundTransferDiscretionaryDelay
            + record.policy.backgroundTransferDuration
    }

    private func neverUploaded() -> [Violation] {
        guard let upSince = networkUpSince(), record.horizon - upSince >= settle else { return [] }
        let processes = record.processes
        // Only a network that fails by chance excuses anything with it (below).
        let failsByChance =
            record.policy.networkFailurePercent > 0 || record.policy.serverErrorPercent > 0
        let lastBegin = failsByChance ? lastRequestBegun() : nil
        let stored = record.storedFixes
        var (paired, accepted) = acceptedPastStoredOrder()
        var missing: [(StoredFix, ProcessSpan)] = []
        for index in stored.indices[paired...] where !accepted.take(stored.fix(at: index)) {
            let row = stored[index]
            // A deleted row, accepted or not, is clause 3's: it is not for the uploader to send.
            guard row.deletion == nil else { continue }
            let from = max(row.durableAt ?? record.horizon, upSince)
            // The runner must also read its data (the store is closed before the first unlock,
            // R-D9).
            guard record.horizon - from >= settle + backgroundTransferWait,
                let runner = processes.first(where: { process in
                    guard let readable = process.dataReadableAt else { return false }
                    return process.runs(for: settle, within: max(from, readable), record.horizon)
                })
            else { continue }
            // A network that fails requests by chance may fail every retry: trying again
            // whenever the app ran long enough for the next retry is all a correct uploader
            // can do.
            if failsByChance, let lastBegin, lastBegin >= from,
                !processes.contains(where: {
                    $0.runs(for: settle, within: lastBegin, record.horizon)
                })
            {
                continue
            }
            missing.append((row, runner))
        }
        guard let (first, runner) = missing.first else { return [] }
        let storedAt = first.durableAt.map { " (stored at \(TimeText.clock($0)))" } ?? ""
        let count = missing.count == 1 ? "fix" : "\(missing.count) stored fixes, the first"
        return [
            Violation(
                invariant: Self.name, instant: first.durableAt ?? record.horizon,
                explanation: "\(count) at \(TimeText.clock(first.fix.instant))\(storedAt), never "
                    + "reached the server, though the network was up from "
                    + "\(TimeText.clock(upSince)) to the horizon "
                    + "\(TimeText.clock(record.horizon)) and process \(runner.generation) ran "
                    + "for \(TimeText.duration(settle)) or more after it")
        ]
    }

    /// Every fix the server accepted, counted: `server.acceptedRows` read row by row, without
    /// building that array of every row first.
    private func acceptedFixes() -> FixCounts {
        var accepted = FixCounts(capacity: acceptedRowCount)
        forEachAcceptedFix { fix in
            accepted.add(fix)
            return true
        }
        return accepted
    }

    /// Rows in the batches the server accepted, with a fix or not: a size for their tables.
    private var acceptedRowCount: Int {
        record.server.acceptedRowCount
    }

    /// The fixes the server accepted, paired with the stored fixes in order while the two
    /// agree (`paired`, the length of that common start), and the rest counted (`rest`).
    /// Taking each stored fix after the common start from `rest` finds the same fixes missing
    /// as taking every one from all the accepted fixes (`acceptedFixes()`): each pair is one
    /// occurrence of one fix on both sides. An uploader that sends its rows in the order it
    /// stored them pairs nearly all of them, without a table: a week's drive counted 600,000
    /// fixes into 37 MB of table to find none missing.
    private func acceptedPastStoredOrder() -> (paired: Int, rest: FixCounts) {
        let stored = record.storedFixes
        var paired = 0
        var diverged = false
        var rest = FixCounts(capacity: 0)
        forEachAcceptedFix { fix in
            if !diverged, paired < stored.count, FixKey(fix) == FixKey(stored.fix(at: paired)) {
                paired += 1
            } else {
                if !diverged {
                    // Sized once for every accepted row left, as the full count was.
                    rest = FixCounts(capacity: acceptedRowCount - paired)
                    diverged = true
                }
                rest.add(fix)
            }
            return true
        }
        return (paired, rest)
    }

    /// Calls `body` with every fix the server accepted, in the order it accepted them (rows
    /// that hold none skipped), until it returns false; read row by row.
    private func forEachAcceptedFix(_ body: (Fix) -> Bool) {
        record.server.accepted.forEachRow { _, row in
            guard let fix = record.fix(in: row) else { return true }
            return body(fix)
        }
    }

    /// When the last upload request began (the network's `begin` timer), if any did.
    private func lastRequestBegun() -> Instant? {
        record.digest.lastUploadBegun
    }

    /// Since when the network and the server have been up to the end: the start when no
    /// action touched them, the later of the last `networkUp` and the last `serverUp` when
    /// each is the last action of its kind, nil when either ends down, slow or throttling
    /// (R-N41, R-N43).
    private func networkUpSince() -> Instant? {
        let network = upSince(up: .networkUp) { action in
            switch action {
            case .networkUp, .networkDown, .networkSlow: true
            default: false
            }
        }
        let server = upSince(up: .serverUp) { action in
            switch action {
            case .serverUp, .serverDown, .serverSlow, .serverThrottling: true
            default: false
            }
        }
        guard let network, let server else { return nil }
        return max(network, server)
    }

    /// Since when the last action `isKind` picks is `up`: the start when there is none, nil
    /// when the last is another.
    private func upSince(up: UserAction, _ isKind: (UserAction) -> Bool) -> Instant? {
        guard let last = record.actions.last(where: { isKind($0.action) }) else { return .start }
        return last.action == up ? last.instant : nil
    }
}
