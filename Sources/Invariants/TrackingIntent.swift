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
///   `lifecycle foreground` entry), for an app whose host turns tracking on when opened
///   (`startsWhenOpened`, every built-in engine);
/// - a `tracking on` action (the user's toggle in the app's UI).
///
/// It is wanted off from:
/// - a `tracking off` action;
/// - every termination, when the app declares `stopOnTerminate` (R-B11: the next launch
///   clears the enabled flag; the host app must start again);
/// - every reboot, when the app declares `startOnBoot` false (R-B12: the first launch after
///   a boot clears the flag).
///
/// At one instant, the system's switches (a termination, a reboot) come before the user's (a
/// launch into the foreground at the instant of the kill turns tracking back on).
struct TrackingIntent {
    /// The stretches in which tracking is wanted on.
    let on: Stretches
    /// The instants at which the user turned tracking on (an open or a toggle), whether or not
    /// it was already on, in time order.
    let userStarts: [Instant]

    init(record: RunRecord, startsWhenOpened: Bool = true) {
        var switches: [Switch] = []
        for entry in record.log where startsWhenOpened && Self.isForeground(entry.kind) {
            switches.append(Switch(instant: entry.instant, on: true, bySystem: false))
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
                switches.append(Switch(instant: ended, on: false, bySystem: true))
            }
        }
        let ordered = switches.enumerated().sorted { left, right in
            (left.element.instant, left.element.bySystem ? 0 : 1, left.offset)
                < (right.element.instant, right.element.bySystem ? 0 : 1, right.offset)
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
    }

    /// Whether tracking is wanted on at `instant`.
    func isOn(at instant: Instant) -> Bool { on.contains(instant) }

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
    private static func isForeground(_ kind: AppLogEntry.Kind) -> Bool {
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
    }
}
