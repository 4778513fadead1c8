// When a fix is wanted (layer 5): the stretches of a run in which tracking is on, iOS allows
// background location, the device moves and nothing has stopped the app for good.
import Engines
import Simulation
import World

/// The time of a run in which a correct engine stores fixes: see
/// `Invariant.boundedGaps(recordingInterval:)` for each condition and its rule.
struct WantedTime {
    let stretches: Stretches

    init(record: RunRecord) {
        let run = Stretches([(.start, record.horizon)])
        let targetsNewerSystem = record.log.contains { entry in
            if case .unavailableAPI = entry.kind { true } else { false }
        }
        guard record.capabilities.locationBackgroundMode, !targetsNewerSystem else {
            stretches = Stretches()
            return
        }
        let processes = record.processes
        let allowed = Self.allowed(record, processes)
        stretches = Self.trackingOn(record, processes)
            .intersection(allowed)
            .intersection(Self.moving(record))
            .intersection(run)
            .subtracting(Self.stoppedForGood(record, processes, allowed: allowed))
    }

    /// On from an engine's `.started`, `.resumed` or `.fixAccepted`, off at `.stopped` or
    /// `.disabledAtLaunch`, and at every termination under `stopOnTerminate`.
    private static func trackingOn(_ record: RunRecord, _ processes: [ProcessSpan]) -> Stretches {
        var switches: [(instant: Instant, on: Bool)] = []
        for stamped in record.engineEvents {
            switch stamped.event {
            case .started, .resumed, .fixAccepted: switches.append((stamped.instant, true))
            case .stopped, .disabledAtLaunch: switches.append((stamped.instant, false))
            default: break
            }
        }
        if record.launchRules?.stopOnTerminate == true {
            for process in processes {
                if let ended = process.endedAt { switches.append((ended, false)) }
            }
        }
        let ordered = switches.enumerated().sorted {
            ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
        }.map(\.element)
        var parts: [(start: Instant, end: Instant)] = []
        var onSince: Instant?
        for change in ordered {
            if change.on {
                onSince = onSince ?? change.instant
            } else if let since = onSince {
                parts.append((since, change.instant))
                onSince = nil
            }
        }
        if let since = onSince { parts.append((since, record.horizon)) }
        return Stretches(parts)
    }

    /// Always with full accuracy: from the configuration, then as each `setAuthorization` and
    /// `setAccuracy` action leaves it. A grant *back* to Always with full accuracy wants fixes
    /// again at once when a process runs then: its updates are still running, and a nil
    /// location meant none for now, not that updates stopped (R-C1). With none running, from
    /// the next `open` or launch, whichever comes first. A *first* grant (the run began without it)
    /// wants them from the user's next `open`: an engine that was right not to start before
    /// the permission (R-A13) may sit suspended until then, and iOS wakes no app for a change
    /// made in Settings.
    private static func allowed(_ record: RunRecord, _ processes: [ProcessSpan]) -> Stretches {
        var authorization = record.configuration.authorization
        var accuracy = record.configuration.accuracy
        var allowedSince: Instant? = authorization == .always && accuracy == .full ? .start : nil
        var parts: [(start: Instant, end: Instant)] = []
        for scheduled in record.actions {
            switch scheduled.action {
            case .setAuthorization(let value): authorization = value
            case .setAccuracy(let value): accuracy = value
            default: continue
            }
            let allowed = authorization == .always && accuracy == .full
            // Wanted before now: the engine had its chance to start under this permission.
            let wantedBefore =
                !parts.isEmpty || allowedSince.map { $0 <= scheduled.instant } ?? false
            if allowed, allowedSince == nil || !wantedBefore {
                allowedSince =
                    wantedBefore && runs(at: scheduled.instant, processes)
                    ? scheduled.instant
                    : nextOpenOrLaunch(after: scheduled.instant, record, processes)
            } else if !allowed, let since = allowedSince {
                if since < scheduled.instant { parts.append((since, scheduled.instant)) }
                allowedSince = nil
            }
        }
        if let since = allowedSince, since < record.horizon {
            parts.append((since, record.horizon))
        }
        return Stretches(parts)
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
    /// it, R-A3), and iOS ran its `applicationWillTerminate` (the moment R-D7 puts significant
    /// change and a region around the last position). An engine with
    /// `stopOnTerminate` false that sets no region there stays down while the device drives
    /// away, and its gap counts.
    private static func relaunchOffered(
        after instant: Instant, _ record: RunRecord, allowed: Stretches
    ) -> Bool {
        guard record.policy.forceQuitRelaunchByRegion, allowed.contains(instant)
        else { return false }
        return record.log.contains { entry in
            guard entry.instant == instant, case .willTerminate = entry.kind else { return false }
            return true
        }
    }

    /// A leg's speed is read at its middle.
    private static let halves: Int64 = 2

    /// From a force-quit, crash or exit until the next launch; from a reboot, or a saved-record
    /// change iOS lost, until an engine next resumes or starts. A force-quit is not excused when
    /// iOS offered the way back (`relaunchOffered`).
    private static func stoppedForGood(
        _ record: RunRecord, _ processes: [ProcessSpan], allowed: Stretches
    ) -> Stretches {
        let launches = processes.map(\.launchedAt)
        let restarts = record.engineEvents.filter { stamped in
            switch stamped.event {
            case .resumed, .started: true
            default: false
            }
        }.map(\.instant)
        var parts: [(start: Instant, end: Instant)] = []
        for scheduled in record.actions {
            switch scheduled.action {
            case .forceQuit
            where relaunchOffered(after: scheduled.instant, record, allowed: allowed):
                break
            case .forceQuit, .crash, .exit:
                let next = launches.first { $0 > scheduled.instant } ?? record.horizon
                parts.append((scheduled.instant, next))
            case .reboot:
                let next = restarts.first { $0 > scheduled.instant } ?? record.horizon
                parts.append((scheduled.instant, next))
            default: break
            }
        }
        // A change to the saved record that iOS lost (a kill before its write, R-A1; a write
        // before the first unlock, R-D9) may be the enabled flag: until the engine next
        // resumes or starts, no fix can be asked of it.
        for entry in record.log {
            guard case .savedRecordChangeLost = entry.kind else { continue }
            let next = restarts.first { $0 > entry.instant } ?? record.horizon
            parts.append((entry.instant, next))
        }
        return Stretches(parts)
    }
}
