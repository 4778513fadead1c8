// When the user wants tracking on (layer 5): read from what the user did and what the app
// declared, never from what the engine says of itself.
import Engines
import Simulation
import World

/// The stretches of a run in which the user wants tracking on, decided from the scenario's
/// actions, the world's log of what the app was shown, and the app's declared launch rules.
/// An engine's own `TrackingEvent`s play no part: an engine that narrates nothing is judged
/// exactly like one that narrates (judge what the app did, not what it says).
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
/// At one instant, the switches come in the order the app's log holds them (a launch into the
/// foreground at the instant of a kill comes after the kill and turns tracking back on; a
/// toggle the app was handed before its kill comes before it), and a reboot first.
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
        let stopsOnTerminate = record.launchRules?.stopOnTerminate == true
        // The switch, the foreground and the terminations are uncommon entries, in log order:
        // the order in which they happened, at one instant too (a toggle the app was handed
        // before its kill, a launch after the kill that ended the process before it).
        for (position, entry) in record.log.uncommon.enumerated() {
            if case .trackingToggled(let on) = entry.kind {
                switchOn = on
                switches.append(
                    Switch(instant: entry.instant, on: on, bySystem: false, sequence: position))
            } else if switchOn ?? (record.trackingStart == .atFirstLaunch),
                Self.isForeground(entry.kind)
            {
                switches.append(
                    Switch(instant: entry.instant, on: true, bySystem: false, sequence: position))
            } else if stopsOnTerminate, case .killed = entry.kind {
                // R-B11: the next launch clears the enabled flag.
                switches.append(
                    Switch(instant: entry.instant, on: false, bySystem: true, sequence: position))
            }
        }
        for scheduled in record.actions {
            switch scheduled.action {
            case .reboot where record.launchRules?.startOnBoot == false:
                // First at its instant: the boot comes before anything the app then sees.
                switches.append(
                    Switch(instant: scheduled.instant, on: false, bySystem: true, sequence: -1))
            default: continue
            }
        }
        let ordered = switches.enumerated().sorted { left, right in
            (left.element.instant, left.element.sequence, left.offset)
                < (right.element.instant, right.element.sequence, right.offset)
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
        /// Its place in the log (a reboot, which the log does not hold, is -1: first).
        let sequence: Int
    }
}

extension RunRecord {
    /// The user's intent over the run (`TrackingIntent`), read once and kept: three
    /// invariants read it.
    var trackingIntent: TrackingIntent {
        derived.value(\.trackingIntent) { TrackingIntent(record: self) }
    }
}
