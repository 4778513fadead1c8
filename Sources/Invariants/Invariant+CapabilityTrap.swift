// no-capability-trap (layer 5): the engine never trips an Info.plist assertion (R-A9).
import Simulation
import World

extension Invariant {
    /// `no-capability-trap`: no `crashed` entry in the app's log. The world logs one only for
    /// a system framework's assertion in the engine's own call, never for the scenario's
    /// `crash` action (a `killed(crash)` entry), so every such entry is the engine's: an
    /// Info.plist assertion (R-A9: `allowsBackgroundLocationUpdates` set to true without the
    /// `location` background mode) or a task launch handler registered after the app finished
    /// launching (R-H14). The explanation quotes the assertion, which names its rule.
    public static var noCapabilityTrap: Invariant {
        Invariant(
            name: "no-capability-trap",
            summary: "The engine never trips a system assertion: background updates without "
                + "the location background mode (R-A9), a task launch handler registered "
                + "after launch (R-H14)."
        ) { record in
            record.log.uncommon.compactMap { entry in
                guard case .crashed(let reason) = entry.kind else { return nil }
                return Violation(
                    invariant: "no-capability-trap", instant: entry.instant,
                    explanation: "process \(entry.generation) crashed at "
                        + "\(TimeText.clock(entry.instant)) in the \(entry.appState.rawValue): "
                        + Self.trapExplanation(reason))
            }
        }
    }

    /// The assertion, with its rule named when it does not name one itself (R-A9's predates
    /// the others and is quoted as iOS prints it).
    static func trapExplanation(_ reason: String) -> String {
        reason.contains("R-") ? reason : "\(reason) (R-A9)"
    }
}
