// When a fix is wanted (layer 5): the stretches of a run in which tracking is on, iOS allows
// background location, the device moves and nothing has stopped the app for good.
import Engines
import Simulation
import World

/// The time of a run in which a correct engine stores fixes: see
/// `Invariant.boundedGaps(recordingInterval:)` for each condition and its rule.
struct WantedTime {
    /// Wanted at full accuracy: fixes at the engine's own interval.
    let stretches: Stretches
    /// Wanted with Precise Location off: fixes at iOS's reduced rate (R-F10,
    /// `policy.reducedAccuracyUpdateInterval`).
    let reduced: Stretches

    init(record: RunRecord) {
        let run = Stretches([(.start, record.horizon)])
        let targetsNewerSystem = record.log.uncommon.contains { entry in
            if case .unavailableAPI = entry.kind { true } else { false }
        }
        guard record.capabilities.locationBackgroundMode, !targetsNewerSystem else {
            stretches = Stretches()
            reduced = Stretches()
            return
        }
        let processes = record.processes
        let intent = record.trackingIntent
        let moving = intent.on.intersection(Self.moving(record)).intersection(run)
        var found: [Stretches] = []
        for accuracy in [AccuracyAuthorization.full, .reduced] {
            let allowed = Self.allowed(record, processes, accuracy: accuracy)
                .union(Self.whenInUseHeld(record, processes, accuracy: accuracy))
            found.append(
                moving.intersection(allowed).subtracting(
                    Self.stoppedForGood(
                        record, processes, allowed: allowed, intent: intent,
                        regionsWork: accuracy == .full)))
        }
        stretches = found[0]
        reduced = found[1]
    }

    /// Always with full accuracy: from the configuration, then as each `setAuthorization` and
    /// `setAccuracy` action leaves it. A grant *back* to Always with full accuracy wants fixes
    /// again at once when a process runs then: its updates are still running, and a nil
    /// location meant none for now, not that updates stopped (R-C1). With none running, from
    /// the next `open` or launch, whichever comes first. A *first* grant (the run began without it)
    /// wants them from the user's next `open`: an engine that was right not to start before
    /// the permission (R-A13) may sit suspended until then, and iOS wakes no app for a change
    /// made in Settings.
    /// `wanted`: the accuracy authorization counted (reduced: the same rules, at R-F10's rate).
    private static func allowed(
        _ record: RunRecord, _ processes: [ProcessSpan], accuracy wanted: AccuracyAuthorization
    ) -> Stretches {
        let initial = record.configuration
        var allowedSince: Instant? =
            initial.authorization == .always && initial.accuracy == wanted ? .start : nil
        var parts: [(start: Instant, end: Instant)] = []
        for change in PermissionChange.all(in: record) {
            let allowed = change.authorization == .always && change.accuracy == wanted
            // Wanted before now: the engine had its chance to start under this permission.
            let wantedBefore =
                !parts.isEmpty || allowedSince.map { $0 <= change.instant } ?? false
            if allowed, allowedSince == nil || !wantedBefore {
                allowedSince =
                    wantedBefore && runs(at: change.instant, processes)
                    ? change.instant
                    : nextOpenOrLaunch(after: change.instant, record, processes)
            } else if !allowed, let since = allowedSince {
                if since < change.instant { parts.append((since, change.instant)) }
                allowedSince = nil
            }
        }
        if let since = allowedSince, since < record.horizon {
            parts.append((since, record.horizon))
        }
        return Stretches(parts)
    }

    /// When In Use with full accuracy, in a process that holds background configuration and
    /// runs updates: while it has asked for a background activity session or for background
    /// updates and has updates running (a manager's or live updates, started and not stopped)
    /// (R-A3, R-A6, R-A7: iOS keeps delivering to such an app in the background), to its end.
    /// What the app held, not what it should have: an app that never asks for background
    /// configuration under When In Use, or sets the flag and runs no updates, is not wanted
    /// to track in the background, and one that had both and dropped the flag is. No relaunch
    /// path counts: the stretch ends with the process, since iOS relaunches no When In Use
    /// app for location (R-F5).
    private static func whenInUseHeld(
        _ record: RunRecord, _ processes: [ProcessSpan], accuracy wanted: AccuracyAuthorization
    ) -> Stretches {
        let initial = record.configuration
        var since: Instant? =
            initial.authorization == .whenInUse && initial.accuracy == wanted ? .start : nil
        var granted: [(start: Instant, end: Instant)] = []
        let foregrounds = record.log.uncommon.filter { TrackingIntent.isForeground($0.kind) }
            .map(\.instant)
        for change in PermissionChange.all(in: record) {
            let allowed = change.authorization == .whenInUse && change.accuracy == wanted
            if allowed, since == nil {
                // Updates already running go on; a grant from no permission at all can only
                // be acted on in the foreground (R-A3: When In Use starts nothing in the
                // background), from the user's next open.
                since =
                    change.authorizedBefore
                    ? change.instant
                    : foregrounds.first { $0 >= change.instant } ?? record.horizon
            } else if !allowed, let start = since {
                if start < change.instant { granted.append((start, change.instant)) }
                since = nil
            }
        }
        if let start = since, start < record.horizon { granted.append((start, record.horizon)) }
        guard record.capabilities.locationBackgroundMode, !granted.isEmpty else {
            return Stretches()
        }
        var held: [(start: Instant, end: Instant)] = []
        let requests = record.locationRequests
        for process in processes {
            // R-A3 asks for both: the background request and updates running. The flag alone
            // (a tracker that sets it in every mode and, in its significant-change mode,
            // starts no updates), or updates the app stopped (as an engine halts them when
            // the permission goes), keep nothing running in the background, and a suspended
            // When In Use app can start nothing until the user opens it.
            let end = process.endedAt ?? record.horizon
            var configured = false
            var running: [ObjectID] = []
            var since: Instant?
            for request in requests where request.generation == process.generation {
                switch request.request {
                case .beginBackgroundActivitySession, .setAllowsBackgroundLocationUpdates(_, true):
                    configured = true
                case .startUpdatingLocation(let id), .startLiveUpdates(let id, _):
                    if !running.contains(id) { running.append(id) }
                case .stopUpdatingLocation(let id), .stopLiveUpdates(let id):
                    running.removeAll { $0 == id }
                default: continue
                }
                let holds = configured && !running.isEmpty
                if holds, since == nil {
                    since = request.instant
                } else if !holds, let start = since {
                    if start < request.instant { held.append((start, min(request.instant, end))) }
                    since = nil
                }
            }
            if let start = since, start < end { held.append((start, end)) }
        }
        return Stretches(granted).intersection(Stretches(held))
    }

    /// The first `open` action at or after `instant`, or the first launch after it, whichever
    /// comes first.
    private static func nextOpenOrLaunch(
        after instant: Instant, _ record: RunRecord, _ processes: [ProcessSpan]
    ) -> Instant? {
        let open = record.actions.first { $0.instant >= instant && $0.action == .open }?.instant
        let launch = processes.first { $0.launchedAt > instant }?.launchedAt
        return [open, launch].compactMap { $0 }.min()
    }

    /// Whether a process runs (foreground or background, not suspended) at `instant`, so that
    /// its updates resume there and then.
    private static func runs(at instant: Instant, _ processes: [ProcessSpan]) -> Bool {
        processes.contains { process in
            guard process.launchedAt <= instant, process.endedAt.map({ $0 > instant }) ?? true
            else { return false }
            let state = process.states.last { $0.instant <= instant }?.state
            return state?.isRunning == true
        }
    }

    /// The route's legs faster than the stationary speed (R-C2).
    private static func moving(_ record: RunRecord) -> Stretches {
        let route = record.route
        let threshold = record.policy.stationarySpeedMetersPerSecond
        var parts: [(start: Instant, end: Instant)] = []
        for (start, end) in zip(route.waypoints, route.waypoints.dropFirst())
        where start.instant < end.instant {
            let span = end.instant.nanosecondsSinceStart - start.instant.nanosecondsSinceStart
            let middle = Instant(
                nanosecondsSinceStart: start.instant.nanosecondsSinceStart + span / halves)
            if route.speed(at: middle) > threshold { parts.append((start.instant, end.instant)) }
        }
        return Stretches(parts)
    }

    /// Whether iOS offered a way back from the force-quit at `instant`: it relaunches force-quit
    /// apps by region exit (R-B6), the app had Always with full accuracy then (a region needs
    /// it, R-A3), a location had reached the app before it (a region's centre), and iOS ran
    /// its `applicationWillTerminate` (the moment R-D7 puts significant change and a region
    /// around the last position). An engine with
    /// `stopOnTerminate` false that sets no region there stays down while the device drives
    /// away, and its gap counts.
    private static func relaunchOffered(
        after instant: Instant, _ record: RunRecord, allowed: Stretches
    ) -> Bool {
        guard record.policy.forceQuitRelaunchByRegion, allowed.contains(instant)
        else { return false }
        // A region needs a centre: an app swiped away before any location reached it has
        // none to leave behind.
        let firstFix = record.log.first { entry in
            if case .location(let update) = entry.kind { update.fix != nil } else { false }
        }
        guard let firstFix, firstFix.instant < instant else { return false }
        return record.log.uncommon.contains { entry in
            guard entry.instant == instant, case .willTerminate = entry.kind else { return false }
            return true
        }
    }

    /// A leg's speed is read at its middle.
    private static let halves: Int64 = 2

    /// From a force-quit, crash or exit until the next launch. From a reboot until a process
    /// of the app first runs with its data readable after it (R-B7: iOS's relaunch after a
    /// boot is best effort; R-D9: nothing saved can be read before the first unlock). From
    /// the next launch after a process that lost a change to its saved record (R-A1: killed
    /// before the write; R-D9: written before the first unlock), which may have been the
    /// enabled flag, until the user next turns tracking on (R-S3: before that launch the loss
    /// explains nothing). A force-quit is not excused when iOS offered the way back
    /// (`relaunchOffered`).
    /// `regionsWork`: false with Precise Location off, when iOS monitors no region (R-F8), so
    /// a force-quit has no way back by region.
    private static func stoppedForGood(
        _ record: RunRecord, _ processes: [ProcessSpan], allowed: Stretches,
        intent: TrackingIntent, regionsWork: Bool
    ) -> Stretches {
        let launches = processes.map(\.launchedAt)
        var parts: [(start: Instant, end: Instant)] = []
        for scheduled in record.actions {
            switch scheduled.action {
            case .forceQuit
            where regionsWork && relaunchOffered(after: scheduled.instant, record, allowed: allowed):
                break
            case .forceQuit, .crash, .exit:
                let next = launches.first { $0 > scheduled.instant } ?? record.horizon
                parts.append((scheduled.instant, next))
            case .reboot:
                let readable = firstReadable(after: scheduled.instant, processes)
                parts.append((scheduled.instant, readable ?? record.horizon))
            default: break
            }
        }
        for entry in record.log.uncommon {
            guard case .savedRecordChangeLost = entry.kind,
                entry.generation >= 1, entry.generation <= processes.count,
                let ended = processes[entry.generation - 1].endedAt
            else { continue }
            // The loss explains a gap only once a process reads the record it lost: from the
            // next launch. Until then, what brings the app back (regions, significant change)
            // is judged as if nothing were lost (R-S3: an excuse covers only its loss).
            guard let relaunch = launches.first(where: { $0 > ended }) else { continue }
            let next = intent.nextUserStart(after: ended) ?? record.horizon
            if relaunch < next { parts.append((relaunch, next)) }
        }
        return Stretches(parts)
    }

    /// The first instant after a reboot at `instant` at which a process launched after it
    /// (or at it, still alive past it) can read its data: its launch, or the first unlock's
    /// callback (R-D9).
    private static func firstReadable(after instant: Instant, _ processes: [ProcessSpan])
        -> Instant?
    {
        for process in processes
        where ConfigurationHonoured.launched(process, after: instant) {
            if let readable = process.dataReadableAt { return readable }
        }
        return nil
    }
}

/// One change of the app's permission by a scenario action (`setAuthorization`,
/// `setAccuracy`, `setLocationServices`): the authorization and accuracy it leaves, and whether the app was
/// authorized (When In Use or Always) just before it.
private struct PermissionChange {
    let instant: Instant
    let authorization: Authorization
    let accuracy: AccuracyAuthorization
    let authorizedBefore: Bool

    /// Every change in `record`, in time order, from its configuration's permission.
    static func all(in record: RunRecord) -> [PermissionChange] {
        var granted = record.configuration.authorization
        var accuracy = record.configuration.accuracy
        var servicesOn = true
        // What the app sees: its own, denied while Location Services are off (R-L41).
        var authorization: Authorization { servicesOn ? granted : .denied }
        var changes: [PermissionChange] = []
        for scheduled in record.actions {
            let authorizedBefore = authorization == .always || authorization == .whenInUse
            switch scheduled.action {
            case .setAuthorization(let value): granted = value
            case .setAccuracy(let value): accuracy = value
            case .setLocationServices(let on): servicesOn = on
            default: continue
            }
            changes.append(
                PermissionChange(
                    instant: scheduled.instant, authorization: authorization,
                    accuracy: accuracy, authorizedBefore: authorizedBefore))
        }
        return changes
    }
}
