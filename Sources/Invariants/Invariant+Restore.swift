// restore-exactly-what-was-running (layer 5): a resuming engine recreates what its previous
// process held, sessions first, within the rejoin window; undetermined, it starts nothing.
import Engines
import Simulation
import World

extension Invariant {
    /// `restore-exactly-what-was-running`:
    ///
    /// 1. At every launch after the first that should resume (`TrackingIntent`: the user
    ///    wanted tracking on from the previous process's end through this launch, with no
    ///    reboot between and no change to the saved record lost by the previous process), with
    ///    When In Use or Always at launch, its location requests (the trace's app → daemon `requests` of that
    ///    generation) start every `LocationService` the previous process held when it ended
    ///    (replayed from that process's requests), each within `policy.sessionRejoinWindow`
    ///    of the launch (R-B10, R-A12), and reopens every monitor the previous process had
    ///    open under the same name within that window (R-A12: the events of a monitor reach
    ///    only a process that opened it by its name). A process launched before the first
    ///    unlock cannot read what it held (R-D9): its window starts at the unlock's callback
    ///    instead.
    /// 2. Sessions first: no such required session is begun after a request that starts a
    ///    non-session service (updates, significant change, monitors, regions, visits) in the
    ///    same process (R-B10, R-A14).
    ///
    /// Decided from the requests the daemon received and the user's intent; what the engine
    /// says of itself plays no part.
    public static var restoreExactlyWhatWasRunning: Invariant {
        Invariant(
            name: Restore.name,
            summary: "A relaunched app that should resume restarts what its previous process "
                + "held, sessions first, within the rejoin window."
        ) { record in Restore(record: record).violations() }
    }
}

/// The check of `Invariant.restoreExactlyWhatWasRunning`.
struct Restore {
    static let name = "restore-exactly-what-was-running"
    let record: RunRecord

    func violations() -> [Violation] {
        let processes = record.processes
        let requests = record.locationRequests
        let intent = record.trackingIntent
        var found: [Violation] = []
        for process in processes {
            guard process.generation > 1,
                Self.shouldResume(
                    process, after: processes[process.generation - 2], record, intent),
                process.launch.authorization == .always
                    || process.launch.authorization == .whenInUse
            else { continue }
            // Only a process that should resume has its requests copied out (a week's drive
            // of one process made 150,000, copied to 33 MB for nothing).
            let own = requests.filter { $0.generation == process.generation }
            let previous = processes[process.generation - 2]
            var before = HeldServices()
            for request in requests where request.generation == previous.generation {
                before.apply(request.request)
            }
            guard let anchor = process.dataReadableAt else { continue }
            let window = RejoinWindow(anchor: anchor, length: record.policy.sessionRejoinWindow)
            found += restored(process, own, before.held, previous, window)
            found += reopened(process, own, before.monitorNames, previous, window)
        }
        return found.sortedByInstant()
    }

    /// Whether `process` should resume what `previous` held: the user wanted tracking on
    /// from `previous`'s end through this launch (so the enabled flag is still set: no
    /// `stopOnTerminate`, no `tracking off`), and since the user last turned it on no reboot
    /// came (R-B12 decides then) and no process lost a change to its saved record (the flag
    /// may not have reached the disk).
    static func shouldResume(
        _ process: ProcessSpan, after previous: ProcessSpan, _ record: RunRecord,
        _ intent: TrackingIntent
    ) -> Bool {
        guard let ended = previous.endedAt,
            intent.on.covers(from: ended, through: process.launchedAt)
        else { return false }
        let since = intent.lastUserStart(atOrBefore: ended) ?? .start
        let rebooted = record.actions.contains { scheduled in
            scheduled.action == .reboot && scheduled.instant >= since
                && scheduled.instant <= process.launchedAt
        }
        let lostChange = record.log.uncommon.contains { entry in
            guard case .savedRecordChangeLost = entry.kind else { return false }
            return entry.instant >= since && entry.instant <= process.launchedAt
        }
        return !rebooted && !lostChange
    }

    /// From the launch (or the unlock that made its data readable), `sessionRejoinWindow` long.
    private struct RejoinWindow {
        let anchor: Instant
        let length: VirtualDuration
        var deadline: Instant { anchor + length }
    }

    private func restored(
        _ process: ProcessSpan, _ own: [LocationRequest], _ needed: [LocationService],
        _ previous: ProcessSpan, _ rejoin: RejoinWindow
    ) -> [Violation] {
        let (anchor, window, deadline) = (rejoin.anchor, rejoin.length, rejoin.deadline)
        let ended = previous.endedAt.map { " when it ended at \(TimeText.clock($0))" } ?? ""
        var found: [Violation] = []
        let firstOther = own.firstIndex { LocationService.startsNonSessionService($0.request) }
        for service in needed {
            let firstIndex = own.firstIndex { LocationService.started(by: $0.request) == service }
            if let firstIndex, own[firstIndex].instant <= deadline {
                let first = own[firstIndex]
                if service.isSession, let firstOther, firstOther < firstIndex {
                    let other = own[firstOther]
                    found.append(
                        violation(
                            first.instant,
                            "process \(process.generation) began its \(service) at "
                                + "\(TimeText.clock(first.instant)) after it had already asked "
                                + "for \(other.request) at \(TimeText.clock(other.instant)): "
                                + "sessions come first (R-B10)"))
                }
                continue
            }
            let late = firstIndex.map { ", only at \(TimeText.clock(own[$0].instant))" } ?? ""
            found.append(
                violation(
                    deadline,
                    "process \(process.generation) resumed after its launch at "
                        + "\(TimeText.clock(process.launchedAt)) but did not restart the "
                        + "\(service) process \(previous.generation) held\(ended) within "
                        + "\(TimeText.duration(window)) of \(TimeText.clock(anchor))\(late)"))
        }
        return found
    }

    /// Every monitor of `names` reopened under its name within the rejoin window (R-A12).
    private func reopened(
        _ process: ProcessSpan, _ own: [LocationRequest], _ names: [String],
        _ previous: ProcessSpan, _ rejoin: RejoinWindow
    ) -> [Violation] {
        let (anchor, window, deadline) = (rejoin.anchor, rejoin.length, rejoin.deadline)
        return names.compactMap { name in
            let reopened = own.contains { request in
                request.request == .openMonitor(name) && request.instant <= deadline
            }
            guard !reopened else { return nil }
            let others = own.compactMap { request -> String? in
                guard case .openMonitor(let other) = request.request else { return nil }
                return "'\(other)'"
            }
            let instead = others.isEmpty ? "" : " (it opened \(others.joined(separator: ", ")))"
            return violation(
                deadline,
                "process \(process.generation) resumed after its launch at "
                    + "\(TimeText.clock(process.launchedAt)) but did not reopen the monitor "
                    + "'\(name)' process \(previous.generation) had open within "
                    + "\(TimeText.duration(window)) of \(TimeText.clock(anchor))\(instead): its "
                    + "events reach only a monitor of that name (R-A12)")
        }
    }

    private func violation(_ instant: Instant, _ explanation: String) -> Violation {
        Violation(invariant: Self.name, instant: instant, explanation: explanation)
    }
}
