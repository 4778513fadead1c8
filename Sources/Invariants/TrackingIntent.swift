// When the user wants tracking on (layer 5): read from what the user did and what the app
// declared, never from what the engine says of itself.
import Engines
import Simulation
import World

/// The stretches of a run in which the user wants tracking on, decided from the scenario's
/// actions, the world's log of what the app was shown, and the app's declared launch rules.
/// An engine's own `TrackingEvent`s play no part: an engine that narrates nothing is judged
/// exactly like one that narrates (issue 21's "judge what the app did, not what it says").
///
/// Tracking is wanted on from:
/// - every time the user brings the app to the foreground (a foreground launch or a
///   `lifecycle foreground` entry) while the user's switch is on: the host app keeps the
///   switch and turns tracking on when opened; before the user ever toggles it, the switch is
///   on for an app that tracks from its first launch (`TrackingStart.atFirstLaunch`) and off
///   for one that waits for the toggle (`.onUserToggle`);
/// - the user's toggle to on (`tracking on`, as the app was handed it: the log's
///   `trackingToggled(on: true)`).
///
/// It is wanted off from:
/// - the user's toggle to off;
/// - every termination, when the app declares `stopOnTerminate` (R-B11: the next launch
///   clears the enabled flag; the host app must start again);
/// - every reboot, when the app declares `startOnBoot` false (R-B12: the first launch after
///   a boot clears the flag).
///
/// At one instant, the system's switches (a termination, a reboot) come before the user's (a
/// launch into the foreground at the instant of the kill turns tracking back on), except the
/// end of a process that launched at that same instant, which follows its own launch.
struct TrackingIntent {
    /// The stretches in which tracking is wanted on.
    let on: Stretches
    /// The instants at which the user turned tracking on (an open or a toggle), whether or not
    /// it was already on, in time order.
    let userStarts: [Instant]
    /// The instants at which the user turned tracking off, in time order, each with the next
    /// instant the user turned it on (in order: a toggle back on at the same instant counts).
    let userStops: [(stop: Instant, nextStart: Instant?)]

    init(record: RunRecord) {
        var switches: [Switch] = []
        // The user's switch is a setting the host app keeps: an open turns tracking on when it
        // is on, or, before the user ever touched it, when the app tracks from its first
        // launch.
        var switchOn: Bool? = nil
        // The switch and the foreground are uncommon entries.
        for entry in record.log.uncommon {
            if case .trackingToggled(let on) = entry.kind {
                switchOn = on
                switches.append(Switch(instant: entry.instant, on: on, bySystem: false))
            } else if switchOn ?? (record.trackingStart == .atFirstLaunch),
                Self.isForeground(entry.kind)
            {
                switches.append(Switch(instant: entry.instant, on: true, bySystem: false))
            }
        }
        for scheduled in record.actions {
            switch scheduled.action {
            case .reboot where record.launchRules?.startOnBoot == false:
                switches.append(Switch(instant: scheduled.instant, on: false, bySystem: true))
            default: continue
            }
        }
        if record.launchRules?.stopOnTerminate == true {
            for process in record.processes {
                guard let ended = process.endedAt else { continue }
                // A process ended at the instant it launched ends after its own launch's
                // switch, not before it.
                switches.append(
                    Switch(
                        instant: ended, on: false, bySystem: true,
                        afterUser: process.launchedAt == ended))
            }
        }
        let ordered = switches.enumerated().sorted { left, right in
            (left.element.instant, left.element.rank, left.offset)
                < (right.element.instant, right.element.rank, right.offset)
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
        on = Stretches(parts)
        userStarts = ordered.filter { $0.on && !$0.bySystem }.map(\.instant)
        let users = ordered.filter { !$0.bySystem }
        userStops = users.indices.compactMap { index in
            guard !users[index].on else { return nil }
            let next = users[(index + 1)...].first { $0.on }?.instant
            return (users[index].instant, next)
        }
    }

    /// The first instant at or after `instant` at which the user turned tracking on.
    func nextUserStart(atOrAfter instant: Instant) -> Instant? {
        userStarts.first { $0 >= instant }
    }

    /// The last instant at or before `instant` at which the user turned tracking on.
    func lastUserStart(atOrBefore instant: Instant) -> Instant? {
        userStarts.last { $0 <= instant }
    }

    /// The first instant after `instant` at which the user turned tracking on.
    func nextUserStart(after instant: Instant) -> Instant? {
        userStarts.first { $0 > instant }
    }

    /// The user brought the app to the foreground.
    static func isForeground(_ kind: AppLogEntry.Kind) -> Bool {
        switch kind {
        case .launch(let context): context.state == .foreground
        case .lifecycle(let state): state == .foreground
        default: false
        }
    }

    private struct Switch {
        let instant: Instant
        let on: Bool
        let bySystem: Bool
        /// A system switch that comes after the user's at its instant.
        var afterUser = false

        /// Its place among the switches of one instant: the system's first, then the user's,
        /// then a system switch that follows the user's.
        var rank: Int { bySystem ? (afterUser ? 2 : 0) : 1 }
    }
}

extension RunRecord {
    /// The user's intent over the run (`TrackingIntent`), read once and kept: three
    /// invariants read it.
    var trackingIntent: TrackingIntent {
        derived.value(\.trackingIntent) { TrackingIntent(record: self) }
    }
}
