// The device's tracks of a Chrome trace (Pictures, layer 5): the user, the operating system,
// the location daemon and the network, read from the run's actions, trace, log and server.
import Invariants
import Simulation
import World

extension ChromeTrace {
    /// The external actions on their actor's track, what the operating system and the daemon
    /// did (from the trace), the network's conditions and the uploads.
    static func deviceEvents(_ picture: RunPicture) -> [ChromeTraceEvent] {
        var events: [ChromeTraceEvent] = []
        for action in picture.actions {
            let track: ChromeTrack =
                switch action.source {
                case .user: user
                case .system: operatingSystem
                case .network: network
                }
            events.append(
                .instant(
                    action.text, category: action.source.rawValue, track: track, at: action.instant)
            )
        }
        events += traceEvents(picture.record)
        let serverWords = "server "
        events += networkConditions(
            picture.actions.filter { !$0.text.hasPrefix(serverWords) },
            upText: UserAction.networkUp.description, horizon: picture.horizon)
        events += networkConditions(
            picture.actions.filter { $0.text.hasPrefix(serverWords) },
            upText: UserAction.serverUp.description, horizon: picture.horizon)
        for entry in picture.record.log {
            guard case .uploadCompleted(let task, let result) = entry.kind else { continue }
            events.append(
                .instant(
                    "upload completed: \(result)", category: "upload", track: network,
                    at: entry.instant,
                    args: [
                        ("task", .text("\(task)")),
                        ("generation", .integer(Int64(entry.generation))),
                    ]))
        }
        for batch in picture.record.server.accepted {
            events.append(
                .instant(
                    "server accepted \(batch.rows.count) rows", category: "upload", track: network,
                    at: batch.instant))
        }
        return events
    }

    /// The operating system's wake requests, relaunches and refusals, the daemon's timers (its
    /// fix epochs merged into `GNSS on` slices) and the uploads sent, from the trace (none
    /// when the record did not keep it).
    private static func traceEvents(_ record: RunRecord) -> [ChromeTraceEvent] {
        var events: [ChromeTraceEvent] = []
        let epoch = record.policy.fixInterval
        var gnss: (start: Instant, end: Instant)?
        for delivery in record.trace?.records ?? [] {
            let instant = delivery.instant
            switch delivery.message {
            case .wake(let mechanism, _):
                events.append(
                    .instant(
                        "wake requested for \(mechanism.rawValue)", category: "system",
                        track: operatingSystem, at: instant))
            case .osTimer(.relaunch(let mechanism)):
                events.append(
                    .instant(
                        "relaunch for \(mechanism.rawValue)", category: "system",
                        track: operatingSystem, at: instant))
            case .wakeRefused(let mechanism, let reason):
                events.append(
                    .instant(
                        "relaunch refused for \(mechanism.rawValue): \(reason)",
                        category: "system", track: operatingSystem, at: instant))
            case .daemonTimer(.fix):
                if let open = gnss, instant <= open.end {
                    gnss = (open.start, instant + epoch)
                } else {
                    if let open = gnss { events.append(gnssSlice(open)) }
                    gnss = (instant, instant + epoch)
                }
            case .daemonTimer(let timer):
                events.append(.instant("\(timer)", category: "daemon", track: daemon, at: instant))
            case .upload(let request, let generation):
                events.append(
                    .instant(
                        "upload sent", category: "upload", track: network, at: instant,
                        args: [
                            ("request", .text("\(request)")),
                            ("generation", .integer(Int64(generation))),
                        ]))
            default: break
            }
        }
        if let open = gnss { events.append(gnssSlice((open.start, min(open.end, record.horizon)))) }
        return events
    }

    private static func gnssSlice(_ stretch: (start: Instant, end: Instant)) -> ChromeTraceEvent {
        .slice("GNSS on", category: "daemon", track: daemon, from: stretch.start, to: stretch.end)
    }

    /// The network's (or the server's) conditions other than up (`upText`), as slices from the
    /// action that set each to the next action of `actions` (or the horizon).
    private static func networkConditions(
        _ actions: [RunPicture.Action], upText: String, horizon: Instant
    ) -> [ChromeTraceEvent] {
        var events: [ChromeTraceEvent] = []
        var open: (name: String, start: Instant)?
        for action in actions where action.source == .network {
            if let current = open, action.instant > current.start {
                events.append(
                    .slice(
                        current.name, category: "network", track: network, from: current.start,
                        to: action.instant))
            }
            open = action.text == upText ? nil : (action.text, action.instant)
        }
        if let current = open, horizon > current.start {
            events.append(
                .slice(
                    current.name, category: "network", track: network, from: current.start,
                    to: horizon))
        }
        return events
    }
}
