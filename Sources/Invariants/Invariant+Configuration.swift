// configuration-honoured (layer 5): `stopOnTerminate` and `startOnBoot` behave as documented
// (R-B11, R-B12).
import Engines
import Simulation
import World

extension Invariant {
    /// `configuration-honoured`, for a run whose `launchRules` are known (nil: nothing to
    /// check):
    ///
    /// 1. **`stopOnTerminate` true** (R-B11): every launch after the first follows a
    ///    termination, and its process stores no fix before its host app starts tracking
    ///    again (a `.started` event of that process). A stored fix counts as before the start
    ///    when the engine's `.fixAccepted` for it comes before `.started` in its events (or,
    ///    not reported, when its commit completed before the start's instant).
    /// 2. **`stopOnTerminate` false** (R-B11, R-D7): a launch after the first, with Always at
    ///    launch and tracking enabled when the previous process ended (its host app's last
    ///    `.started`/`.resumed` not followed by `.stopped`/`.disabledAtLaunch`), resumes: its
    ///    engine tells `.resumed`. Not checked when a reboot came between (R-B12 decides),
    ///    when the process never could read its data (R-D9), when it crashed, or when iOS lost
    ///    a saved-record change since tracking was enabled (a `savedRecordChangeLost` entry:
    ///    the flag may not have reached the disk).
    /// 3. **`startOnBoot` false** (R-B12): after every reboot, no fix is stored until a host
    ///    app starts tracking again: the processes launched after the reboot (at its instant
    ///    too, when still alive past it: the user may open the app as the phone comes back)
    ///    store nothing before the first `.started` among them. A reboot within
    ///    `bootTimeDriftTolerance` of the one before is not checked: the boot time is all
    ///    R-B12's detection reads, and within its tolerance two boots are one (no phone
    ///    reboots twice in a minute; the fuzzer's events can). `startOnBoot` true is best effort (the
    ///    relaunch is iOS's, R-B7): nothing is checked.
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
        guard let rules = record.launchRules else { return [] }
        let processes = record.processes
        let stored = record.storedFixes
        var found: [Violation] = []
        for process in processes where process.generation > 1 {
            if rules.stopOnTerminate {
                found += storedBeforeStart(
                    process, stored, because: "stopOnTerminate is true (R-B11)")
            } else if let missing = notResumed(process, processes) {
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
                for process in processes where Self.launched(process, after: reboot.instant) {
                    found += storedBeforeStart(
                        process, stored,
                        because: "startOnBoot is false and the device rebooted at "
                            + "\(TimeText.clock(reboot.instant)) (R-B12)")
                    if started(process) != nil { break }
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

    // MARK: - Stored before the start

    /// The index of the process's first `.started` among its events, and its instant.
    private func started(_ process: ProcessSpan) -> (index: Int, instant: Instant)? {
        let events = record.events(of: process.generation)
        guard let index = events.firstIndex(where: { $0.event == .started }) else { return nil }
        return (index, events[index].instant)
    }

    private func storedBeforeStart(
        _ process: ProcessSpan, _ stored: [StoredFix], because rule: String
    ) -> [Violation] {
        let events = record.events(of: process.generation)
        let start = started(process)
        // Each accepted fix, and whether its first acceptance came before the start.
        var accepted = FixTable<Bool>(capacity: events.count)  // sized once: no rehash
        for (index, stamped) in events.enumerated() {
            guard case .fixAccepted(let fix) = stamped.event else { continue }
            accepted.insert(FixKey(fix), start.map { index < $0.index } ?? false)
        }
        let early = stored.filter { row in
            guard row.generation == process.generation else { return false }
            guard let start else { return true }
            if let beforeStart = accepted.value(for: FixKey(row.fix)) { return beforeStart }
            return row.durableAt.map { $0 < start.instant } ?? false
        }
        guard let first = early.first else { return [] }
        let startText =
            start.map { "before its host app started tracking at \(TimeText.clock($0.instant))" }
            ?? "and its host app never started tracking"
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

    private func notResumed(_ process: ProcessSpan, _ processes: [ProcessSpan]) -> Violation? {
        let previous = processes[process.generation - 2]
        // A reboot since the last process that could read its data is judged by startOnBoot
        // (R-B12), not here: a process launched before the unlock never learned of it.
        let lastReader =
            processes[..<(process.generation - 1)].last { $0.dataReadableAt != nil } ?? previous
        guard process.launch.authorization == .always, process.dataReadableAt != nil,
            process.crashedAt == nil, previous.endCause != .reboot,
            !record.actions.contains(where: {
                $0.action == .reboot && $0.instant >= lastReader.launchedAt
                    && $0.instant <= process.launchedAt
            }),
            let enabledAt = enabledSince(before: process.generation),
            !savedRecordChangeLost(from: enabledAt, to: process.launchedAt)
        else { return nil }
        let events = record.events(of: process.generation)
        guard !events.contains(where: { if case .resumed = $0.event { true } else { false } })
        else { return nil }
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
                + "\(ended), with tracking enabled and Always, and its engine did not resume: "
                + "stopOnTerminate is false (R-B11, R-D7)")
    }

    /// When the host app last enabled tracking in the processes before `generation`, if it is
    /// still enabled at their end.
    private func enabledSince(before generation: Int) -> Instant? {
        var enabledAt: Instant?
        for stamped in record.engineEvents where stamped.generation < generation {
            switch stamped.event {
            case .started, .resumed: enabledAt = enabledAt ?? stamped.instant
            case .stopped, .disabledAtLaunch: enabledAt = nil
            default: break
            }
        }
        return enabledAt
    }

    private func savedRecordChangeLost(from start: Instant, to end: Instant) -> Bool {
        record.log.contains { entry in
            guard case .savedRecordChangeLost = entry.kind else { return false }
            return entry.instant >= start && entry.instant <= end
        }
    }
}
