// no-watchdog-kill (layer 5): iOS never ends the app for holding a background task past its
// expiry (R-F1).
import Simulation
import World

extension Invariant {
    /// `no-watchdog-kill`: no `killed (watchdog)` entry in the app's log. iOS calls a
    /// background task's expiration handler when the app's background time is up and kills
    /// the app if the task is still not ended shortly after (R-F1): the app's own
    /// misbehaviour, which no scenario event causes. With `no-capability-trap` (R-A9), this is
    /// the rule that iOS never ends the app for the app's own fault.
    public static var noWatchdogKill: Invariant {
        Invariant(
            name: "no-watchdog-kill",
            summary: "iOS never kills the app for a background task not ended after its "
                + "expiry (R-F1)."
        ) { record in
            record.log.uncommon.compactMap { entry in
                guard case .killed(.watchdog) = entry.kind else { return nil }
                return Violation(
                    invariant: "no-watchdog-kill", instant: entry.instant,
                    explanation: "process \(entry.generation) was killed by iOS at "
                        + "\(TimeText.clock(entry.instant)) in the \(entry.appState.rawValue): "
                        + "a background task was still held after its expiration handler ran "
                        + "(R-F1)")
            }
        }
    }
}
