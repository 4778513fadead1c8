// foreground-rule-for-sessions (layer 5): no background activity session is begun from the
// background, where iOS defers it to the next foreground (R-C5, R-B10).
import Engines
import Simulation
import World

extension Invariant {
    /// `foreground-rule-for-sessions`: no `beginBackgroundActivitySession` request reaches the
    /// location daemon while the process it came from is, as the daemon knows it, in the
    /// background (R-C5: iOS defers such a session to the next foreground and the app gets no
    /// location meanwhile), except within `policy.sessionRejoinWindow` of that process's
    /// launch into the background (R-B10: a relaunched app recreating its session at once
    /// continues the grant).
    ///
    /// The process's state is the one the daemon last received from the operating system
    /// before the request (the trace's `processChanged` messages, in delivery order, so
    /// same-instant orderings are read exactly); a request that reached the daemon before its
    /// process's launch is judged at that launch, as the daemon applies it then.
    ///
    /// Two exemptions keep a correct engine clear of a rule it cannot follow:
    /// - a process launched in the background before the first unlock cannot read whether
    ///   tracking was on (R-D9), so a session it begins within the rejoin window of the
    ///   unlock's callback is not counted;
    /// - a request that overtook, at the same instant, the operating system's word that its
    ///   process came to the foreground (the two travel on different channels, and a `random`
    ///   or `pct` ordering may deliver the app's first): the app sent it from the foreground,
    ///   and the daemon starts the deferred session as that word arrives, so no location is
    ///   missed.
    public static var foregroundRuleForSessions: Invariant {
        Invariant(
            name: ForegroundRule.name,
            summary: "No background activity session is begun in the background, except at "
                + "once after a background relaunch."
        ) { record in ForegroundRule(record: record).violations() }
    }
}

/// The check of `Invariant.foregroundRuleForSessions`.
struct ForegroundRule {
    static let name = "foreground-rule-for-sessions"
    let record: RunRecord

    /// The daemon's view of the current process.
    private struct DaemonView {
        var generation = 0
        var state = ProcessState.notRunning
        var backgroundLaunchAt: Instant?
    }

    func violations() -> [Violation] {
        let processes = record.processes
        var view = DaemonView()
        var early: [(instant: Instant, generation: Int, requests: [AppRequest])] = []
        var found: [Violation] = []
        // Violations at the current instant, void if their process's foreground arrives
        // before the instant ends.
        var pending: (instant: Instant, generation: Int, violations: [Violation])?
        // The daemon's process changes and requests (a pending violation is flushed by the
        // first of them at a later instant, which is what a later delivery of any kind did).
        // Read in place, field by field: binding each record copied its message.
        let records = record.digest.daemonRecords
        for index in records.indices {
            let instant = records[index].instant
            if let held = pending, instant > held.instant {
                found += held.violations
                pending = nil
            }
            switch records[index].message {
            case .processChanged(let state, let generation, _) where state != .terminated:
                if state == .foreground, pending?.generation == generation { pending = nil }
                if generation != view.generation {
                    view.generation = generation
                    view.backgroundLaunchAt = state == .background ? instant : nil
                }
                view.state = state
                for batch in early where batch.generation == generation {
                    found += judge(batch.requests, generation, instant, view, processes)
                }
                early.removeAll { $0.generation <= generation }
            case .processChanged(.terminated, _, _):
                view.state = .terminated
            case .requests(let start, let count, let narrowGeneration)
            where Int(narrowGeneration) > view.generation:
                early.append((instant, Int(narrowGeneration), requests(start, count)))
            case .requests(let start, let count, let narrowGeneration)
            where Int(narrowGeneration) == view.generation:
                let generation = Int(narrowGeneration)
                let judged = judge(requests(start, count), generation, instant, view, processes)
                if !judged.isEmpty {
                    pending = (
                        instant, generation, (pending?.violations ?? []) + judged
                    )
                }
            default: break
            }
        }
        return found + (pending?.violations ?? [])
    }

    /// The requests of one `requests` delivery.
    private func requests(_ start: Int, _ count: Int32) -> [AppRequest] {
        record.digest.requests(start: start, count: count).map(\.request)
    }

    private func judge(
        _ requests: [AppRequest], _ generation: Int, _ instant: Instant, _ view: DaemonView,
        _ processes: [ProcessSpan]
    ) -> [Violation] {
        guard view.state == .background,
            requests.contains(where: {
                if case .beginBackgroundActivitySession = $0 { true } else { false }
            })
        else { return [] }
        let window = record.policy.sessionRejoinWindow
        if let launched = view.backgroundLaunchAt, instant - launched <= window { return [] }
        if generation >= 1, generation <= processes.count {
            let process = processes[generation - 1]
            if !process.launch.protectedDataAvailable, let readable = process.dataReadableAt,
                instant >= readable, instant - readable <= window
            {
                return []
            }
        }
        let launch =
            view.backgroundLaunchAt.map {
                " (its background launch at \(TimeText.clock($0)) was more than "
                    + "\(TimeText.duration(window)) earlier)"
            } ?? ""
        return [
            Violation(
                invariant: Self.name, instant: instant,
                explanation: "process \(generation) began a background activity session at "
                    + "\(TimeText.clock(instant)) while in the background\(launch): iOS defers "
                    + "it to the next foreground and no location reaches the app meanwhile "
                    + "(R-C5, R-B10)")
        ]
    }
}
