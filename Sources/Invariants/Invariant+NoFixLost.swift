// no-fix-lost-after-restore (layer 5): every fix handed to a tracking engine is accounted for,
// and every fix it accepted is stored, unless iOS lost the commit that carried it.
import Engines
import Simulation
import World

extension Invariant {
    /// `no-fix-lost-after-restore`: in every process, the first and every relaunched one:
    ///
    /// 1. **Accounted.** Every fix the OS handed to the process (a `location` entry of the log
    ///    with a fix) while its engine was tracking is accounted for by that engine: one of its
    ///    events is `.fixAccepted(fix)` or `.fixRejected(fix, reason:)`. The engine is tracking
    ///    at instant t when the last of its `.started`, `.resumed`, `.fixAccepted`, `.stopped`
    ///    and `.disabledAtLaunch` events told before t is one of the first three, and none of
    ///    the last two was told at t (same-instant order is not guessed).
    /// 2. **Stored.** Every fix the engine accepted is in a row on disk at the end, committed by
    ///    the same process, except:
    ///    - as many of its last missing fixes as there are rows in its commits lost to a
    ///      termination during the commit (the log's `commitLost`, with its rule: iOS's loss);
    ///    - a fix accepted while the process's saved data was unreadable (before the first
    ///      unlock after a boot, R-D9: the store cannot be opened);
    ///    - a fix accepted less than `commitSettle` before the horizon by a process still
    ///      alive then (its commit may be in flight).
    ///
    ///    A fix neither stored nor in a lost commit was lost by the engine: rows inserted and
    ///    never committed, a commit never issued, or a fix acknowledged and dropped.
    public static func noFixLostAfterRestore(
        commitSettle: VirtualDuration = .minutes(1)
    ) -> Invariant {
        Invariant(
            name: NoFixLost.name,
            summary: "Every fix handed to a tracking engine is accounted for, and every fix it "
                + "accepted is stored unless iOS lost its commit."
        ) { record in
            NoFixLost(record: record, commitSettle: commitSettle).violations()
        }
    }
}

/// The check of `Invariant.noFixLostAfterRestore(commitSettle:)`.
struct NoFixLost {
    static let name = "no-fix-lost-after-restore"
    let record: RunRecord
    let commitSettle: VirtualDuration

    func violations() -> [Violation] {
        let processes = record.processes
        let stored = record.storedFixes
        let ownersKnown = stored.allSatisfy { $0.generation != nil }
        var found: [Violation] = []
        for process in processes {
            let events = record.events(of: process.generation)
            found += unaccounted(process, events)
            if let missing = unstored(process, events, stored, ownersKnown: ownersKnown) {
                found.append(missing)
            }
        }
        return found.sortedByInstant()
    }

    // MARK: - Accounted

    /// One violation per process at most, naming the first and last fix left unaccounted.
    private func unaccounted(
        _ process: ProcessSpan, _ events: [StampedEngineEvent]
    ) -> [Violation] {
        var accounted = FixCounts(capacity: events.count)  // sized once: no rehash as it fills
        // Read in place, the case alone first: binding each event copied it.
        for index in events.indices {
            switch events[index].event {
            case .fixAccepted, .fixRejected: break
            default: continue
            }
            switch events[index].event {
            case .fixAccepted(let fix), .fixRejected(let fix, _): accounted.add(fix)
            default: break
            }
        }
        var dropped: [(delivered: Instant, fix: Fix)] = []
        // Read in place, field by field: binding each entry copied it.
        let log = record.log
        for index in log.indices where log[index].generation == process.generation {
            guard case .location(let update) = log[index].kind, let fix = update.fix,
                accounted.count(of: fix) == 0, isTracking(events, at: log[index].instant)
            else { continue }
            dropped.append((log[index].instant, fix))
        }
        guard let first = dropped.first else { return [] }
        let what =
            dropped.count == 1
            ? "fix at \(TimeText.clock(first.fix.instant)) was"
            : "\(dropped.count) fixes, the first at \(TimeText.clock(first.fix.instant)) and the "
                + "last at \(TimeText.clock(dropped[dropped.count - 1].fix.instant)), were"
        return [
            Violation(
                invariant: Self.name, instant: first.delivered,
                explanation: "\(what) delivered to process \(process.generation) while its engine "
                    + "was tracking, and the engine neither accepted nor rejected "
                    + (dropped.count == 1 ? "it" : "them"))
        ]
    }

    private func isTracking(_ events: [StampedEngineEvent], at instant: Instant) -> Bool {
        var tracking = false
        for stamped in events {
            switch stamped.event {
            case .started, .resumed, .fixAccepted:
                if stamped.instant < instant { tracking = true }
            case .stopped, .disabledAtLaunch:
                if stamped.instant <= instant { tracking = false }
            default: break
            }
            if stamped.instant > instant { break }
        }
        return tracking
    }

    // MARK: - Stored

    /// `stored` holds every process's rows: those of `process` count, or all of them when
    /// `ownersKnown` is false (read in place, not filtered into a new array per process).
    private func unstored(
        _ process: ProcessSpan, _ events: [StampedEngineEvent], _ stored: [StoredFix],
        ownersKnown: Bool
    ) -> Violation? {
        var onDisk = FixCounts(capacity: stored.count)
        for index in stored.indices
        where !ownersKnown || stored[index].generation == process.generation {
            onDisk.add(stored[index].fix)
        }
        var missing: [StampedEngineEvent] = []
        // Read in place, the case alone first, as in `unaccounted`.
        for index in events.indices {
            guard case .fixAccepted = events[index].event,
                case .fixAccepted(let fix) = events[index].event, !onDisk.take(fix)
            else { continue }
            let instant = events[index].instant
            if let readable = process.dataReadableAt, instant >= readable {
                if process.endedAt == nil && record.horizon - instant < commitSettle {
                    continue
                }
                missing.append(events[index])
            }
        }
        let lostRowCount = lostCommitRowCount(process.generation)
        guard missing.count > lostRowCount, let first = missing.first else { return nil }
        let unexcused = missing.dropLast(lostRowCount)
        let last = unexcused.last ?? first
        return Violation(
            invariant: Self.name, instant: first.instant,
            explanation: fixesText(unexcused.count, first, last, process.generation)
                + ": " + endText(process, lostRowCount))
    }

    private func lostCommitRowCount(_ generation: Int) -> Int {
        let log = record.log
        var total = 0
        for index in log.indices where log[index].generation == generation {
            guard case .commitLost(_, let rows, _) = log[index].kind else { continue }
            total += rows
        }
        return total
    }

    private func fixesText(
        _ count: Int, _ first: StampedEngineEvent, _ last: StampedEngineEvent, _ generation: Int
    ) -> String {
        guard count > 1 else {
            return "fix at \(fixInstant(first)) was accepted by process \(generation) at "
                + "\(TimeText.clock(first.instant)) and never stored"
        }
        return "\(count) fixes accepted by process \(generation) were never stored, the first "
            + "at \(fixInstant(first)) and the last at \(fixInstant(last))"
    }

    private func fixInstant(_ stamped: StampedEngineEvent) -> String {
        guard case .fixAccepted(let fix) = stamped.event else { return "?" }
        return TimeText.clock(fix.instant)
    }

    private func endText(_ process: ProcessSpan, _ lostRowCount: Int) -> String {
        let lost =
            lostRowCount == 0
            ? "no commit of it was lost"
            : "only \(lostRowCount) row\(lostRowCount == 1 ? "" : "s") of it in commits iOS lost"
        guard let ended = process.endedAt else {
            return "process \(process.generation) still ran at the horizon "
                + "\(TimeText.clock(record.horizon)) and \(lost)"
        }
        let cause = process.endCause.map { " (\($0.rawValue))" } ?? ""
        return "process \(process.generation) was killed\(cause) at \(TimeText.clock(ended)) "
            + "and \(lost)"
    }
}
