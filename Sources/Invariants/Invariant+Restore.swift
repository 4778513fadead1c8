// restore-exactly-what-was-running (layer 5): a resuming engine recreates what its previous
// process held, sessions first, within the rejoin window; undetermined, it starts nothing.
import Engines
import Simulation
import World

extension Invariant {
    /// `restore-exactly-what-was-running`:
    ///
    /// 1. At every launch after the first whose engine told `.resumed`, with When In Use or
    ///    Always at launch, its location requests (the trace's app → daemon `requests` of that
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
    /// 3. At every launch with authorization not determined, the process begins no session and
    ///    starts no service before the first authorization change reaches it (R-A13).
    public static var restoreExactlyWhatWasRunning: Invariant {
        Invariant(
            name: Restore.name,
            summary: "A resumed engine restarts what its previous process held, sessions "
                + "first, within the rejoin window; undetermined, it starts nothing."
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
        var found: [Violation] = []
        for process in processes {
            let own = requests.filter { $0.generation == process.generation }
            found += undetermined(process, own)
            guard process.generation > 1, resumedAtLaunch(process),
                process.launch.authorization == .always
                    || process.launch.authorization == .whenInUse
            else { continue }
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

    /// The engine resumed as part of its launch: in the launch's callbacks, or the unlock's for
    /// a launch before the first unlock. A resume later, when a missing permission arrives
    /// (R-D10), is no restoration at launch.
    private func resumedAtLaunch(_ process: ProcessSpan) -> Bool {
        guard let readable = process.dataReadableAt else { return false }
        return record.events(of: process.generation).contains { stamped in
            guard case .resumed = stamped.event else { return false }
            return stamped.instant <= readable
        }
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

    private func undetermined(_ process: ProcessSpan, _ own: [LocationRequest]) -> [Violation] {
        guard process.launch.authorization == .notDetermined else { return [] }
        let told = record.log.first { entry in
            guard entry.generation == process.generation, case .authorization = entry.kind
            else { return false }
            return true
        }?.instant
        let early = own.first { request in
            let starts =
                LocationService.started(by: request.request) != nil
                || LocationService.startsNonSessionService(request.request)
            return starts && told.map { request.instant < $0 } ?? true
        }
        guard let early else { return [] }
        return [
            violation(
                early.instant,
                "process \(process.generation), launched at \(TimeText.clock(process.launchedAt)) "
                    + "with authorization not determined, asked for \(early.request) at "
                    + "\(TimeText.clock(early.instant)) before any authorization (R-A13)")
        ]
    }

    private func violation(_ instant: Instant, _ explanation: String) -> Violation {
        Violation(invariant: Self.name, instant: instant, explanation: explanation)
    }
}
