// configuration-honoured (layer 5): `stopOnTerminate` and `startOnBoot` behave as documented
// (R-B11, R-B12).
import Engines
import Simulation
import World

extension Invariant {
    /// `configuration-honoured`, for a run whose `launchRules` are known (nil: nothing to
    /// check). Judged from the disk, the requests the daemon received and the user's intent
    /// (`TrackingIntent`); what the engine says of itself plays no part.
    ///
    /// 1. **`stopOnTerminate` true** (R-B11): every process after the first stores no fix
    ///    delivered to it before the user next turns tracking on (opens the app, or toggles
    ///    tracking on) from its launch: the launch cleared the enabled flag.
    /// 2. **`stopOnTerminate` false** (R-B11, R-D7): a launch after the first that should
    ///    resume (the user wanted tracking on from the previous process's end through the
    ///    launch, no reboot between, no saved-record change lost), with Always at launch and
    ///    its data readable, asks for a location service within `policy.sessionRejoinWindow`
    ///    of the instant its data became readable. Not checked when the process crashed.
    /// 3. **`startOnBoot` false** (R-B12): after every reboot, the processes launched after it
    ///    (at its instant too, when still alive past it) store no fix delivered to them before
    ///    the user next turns tracking on. A reboot within `bootTimeDriftTolerance` of the one
    ///    before is not checked: the boot time is all R-B12's detection reads, and within its
    ///    tolerance two boots are one (no phone reboots twice in a minute; the fuzzer's events
    ///    can). `startOnBoot` true is best effort (the relaunch is iOS's, R-B7): nothing is
    ///    checked.
    /// 4. **The user's `tracking off`**, whatever the launch rules: no fix delivered after the
    ///    user turned tracking off, and before the user turned it on again, is stored. Not
    ///    checked when a change to the saved record was lost in between (R-A1: a kill before
    ///    the write; the off may never have reached the disk).
    public static var configurationHonoured: Invariant {
        Invariant(
            name: ConfigurationHonoured.name,
            summary: "stopOnTerminate and startOnBoot behave as documented (R-B11, R-B12)."
        ) { record in ConfigurationHonoured(record: record).violations() }
    }
}

/// The check of `Invariant.configurationHonoured`.
struct ConfigurationHonoured {
    static let name = "configuration-honoured"
    let record: RunRecord

    func violations() -> [Violation] {
        let intent = record.trackingIntent
        let needsDeliveries = !intent.userStops.isEmpty || record.launchRules != nil
        let deliveries = needsDeliveries ? FirstDeliveries(record) : nil
        var found = deliveries.map { storedAfterUserStop(intent, $0) } ?? []
        guard let rules = record.launchRules, let deliveries else {
            return found.sortedByInstant()
        }
        let processes = record.processes
        let stored = record.storedFixes
        for process in processes where process.generation > 1 {
            if rules.stopOnTerminate {
                let start = intent.nextUserStart(atOrAfter: process.launchedAt)
                found += storedBeforeStart(
                    process, start, stored, deliveries,
                    because: "stopOnTerminate is true (R-B11)")
            } else if let missing = notResumed(process, processes, intent) {
                found.append(missing)
            }
        }
        if !rules.startOnBoot {
            let reboots = record.actions.filter { $0.action == .reboot }
            for (index, reboot) in reboots.enumerated() {
                // A boot within the drift tolerance of the one before looks like the same
                // boot to R-B12's detection (and no phone reboots that fast): not checked.
                if index > 0,
                    reboot.instant - reboots[index - 1].instant <= rules.bootTimeDriftTolerance
                {
                    continue
                }
                let start = intent.nextUserStart(atOrAfter: reboot.instant)
                for process in processes where Self.launched(process, after: reboot.instant) {
                    if let start, process.launchedAt > start { break }
                    found += storedBeforeStart(
                        process, start, stored, deliveries,
                        because: "startOnBoot is false and the device rebooted at "
                            + "\(TimeText.clock(reboot.instant)) (R-B12)")
                }
            }
        }
        return found.sortedByInstant()
    }

    /// Whether `process` was launched after a reboot at `instant`: later, or at that instant
    /// and still alive past it (a process launched before the reboot ends by that instant).
    static func launched(_ process: ProcessSpan, after instant: Instant) -> Bool {
        process.launchedAt > instant
            || (process.launchedAt == instant && process.endedAt.map { $0 > instant } ?? true)
    }

    // MARK: - Stored after the user's stop

    /// The fixes delivered after a `tracking off` and before the next start, that were stored.
    private func storedAfterUserStop(_ intent: TrackingIntent, _ deliveries: FirstDeliveries)
        -> [Violation]
    {
        var found: [Violation] = []
        for (stop, nextStart) in intent.userStops {
            let next = nextStart ?? record.horizon
            let lostChange = record.log.uncommon.contains { entry in
                guard case .savedRecordChangeLost = entry.kind else { return false }
                return entry.instant >= stop && entry.instant < next
            }
            if lostChange { continue }
            let late = record.storedFixes.filter { row in
                guard let generation = row.generation,
                    let delivered = deliveries.first(of: row.fix, to: generation)
                else { return false }
                return delivered > stop && delivered < next
            }
            guard let first = late.first else { continue }
            found.append(
                Violation(
                    invariant: Self.name, instant: first.durableAt ?? stop,
                    explanation: "\(late.count) fix\(late.count == 1 ? " was" : "es were") "
                        + "stored (the first at \(TimeText.clock(first.fix.instant))) after the "
                        + "user turned tracking off at \(TimeText.clock(stop))"))
        }
        return found
    }

    // MARK: - Stored before the start

    /// The fixes `process` stored that were delivered to it before `start` (all of them when
    /// the user never turned tracking on again): read from the disk's rows and the log's
    /// deliveries, a row whose fix was never delivered counting by when it became durable.
    private func storedBeforeStart(
        _ process: ProcessSpan, _ start: Instant?, _ stored: StoredFixes,
        _ deliveries: FirstDeliveries, because rule: String
    ) -> [Violation] {
        let early = stored.filter { row in
            guard row.generation == process.generation else { return false }
            guard let start else { return true }
            let delivered =
                deliveries.first(of: row.fix, to: process.generation) ?? row.durableAt
            return delivered.map { $0 < start } ?? false
        }
        guard let first = early.first else { return [] }
        let startText =
            start.map { "before the user turned tracking on again at \(TimeText.clock($0))" }
            ?? "and the user never turned tracking on again"
        return [
            Violation(
                invariant: Self.name, instant: first.durableAt ?? process.launchedAt,
                explanation: "process \(process.generation), launched in the "
                    + "\(process.launch.state.rawValue) at \(TimeText.clock(process.launchedAt)), "
                    + "stored \(early.count) fix\(early.count == 1 ? "" : "es") (the first at "
                    + "\(TimeText.clock(first.fix.instant))) \(startText): \(rule)")
        ]
    }

    // MARK: - Resumed

    private func notResumed(
        _ process: ProcessSpan, _ processes: [ProcessSpan], _ intent: TrackingIntent
    ) -> Violation? {
        let previous = processes[process.generation - 2]
        guard process.launch.authorization == .always, let readable = process.dataReadableAt,
            process.crashedAt == nil,
            Restore.shouldResume(process, after: previous, record, intent)
        else { return nil }
        let deadline = readable + record.policy.sessionRejoinWindow
        let asked = record.locationRequests.contains { request in
            request.generation == process.generation && request.instant <= deadline
                && (LocationService.started(by: request.request) != nil
                    || LocationService.startsNonSessionService(request.request))
        }
        guard !asked else { return nil }
        let ended =
            previous.endedAt.map {
                " after process \(previous.generation) ended"
                    + (previous.endCause.map { " (\($0.rawValue))" } ?? "")
                    + " at \(TimeText.clock($0))"
            } ?? ""
        return Violation(
            invariant: Self.name, instant: process.launchedAt,
            explanation: "process \(process.generation) was launched in the "
                + "\(process.launch.state.rawValue) at \(TimeText.clock(process.launchedAt))"
                + "\(ended), with tracking wanted on and Always, and asked for no location "
                + "service by \(TimeText.clock(deadline)): stopOnTerminate is false (R-B11, "
                + "R-D7)")
    }
}

/// The first instant each fix was delivered to each process, from the log's `location`
/// entries (what the app was handed, which the model owns).
///
/// Read only when asked: most runs have no second process, no reboot and no user stop, so no
/// check asks, and the table (a fix per delivery, the largest view of a long run) is never
/// built. A class, so the checks share the one table once it is.
final class FirstDeliveries {
    private let record: RunRecord
    private var built: FixTable<[(generation: Int, instant: Instant)]>?

    init(_ record: RunRecord) {
        self.record = record
    }

    /// When `fix` was first delivered to process `generation`, nil if never.
    func first(of fix: Fix, to generation: Int) -> Instant? {
        let table = built ?? Self.table(record.log)
        built = table
        return table.value(for: FixKey(fix))?.first { $0.generation == generation }?.instant
    }

    private static func table(_ log: AppLog) -> FixTable<
        [(generation: Int, instant: Instant)]
    > {
        var table = FixTable<[(generation: Int, instant: Instant)]>(capacity: log.count / 4)
        for index in log.indices {
            guard let fix = log.locationUpdate(at: index)?.fix else { continue }
            let stamp = log.stamp(at: index)
            let delivery = (generation: stamp.generation, instant: stamp.instant)
            table.update(FixKey(fix), initial: []) { deliveries in
                if !deliveries.contains(where: { $0.generation == delivery.generation }) {
                    deliveries.append(delivery)
                }
            }
        }
        return table
    }
}
