// no-capability-trap (layer 5): the engine never trips an Info.plist assertion (R-A9).
import Simulation
import World

extension Invariant {
    /// `no-capability-trap`: no `crashed` entry in the app's log. The world logs one only for
    /// an Info.plist assertion in the engine's own call (R-A9: `allowsBackgroundLocationUpdates`
    /// set to true without the `location` background mode), never for the scenario's `crash`
    /// action (a `killed(crash)` entry), so every such entry is the engine's.
    public static var noCapabilityTrap: Invariant {
        Invariant(
            name: "no-capability-trap",
            summary: "The engine never enables background updates without the location "
                + "background mode (R-A9)."
        ) { record in
            record.log.compactMap { entry in
                guard case .crashed(let reason) = entry.kind else { return nil }
                return Violation(
                    invariant: "no-capability-trap", instant: entry.instant,
                    explanation: "process \(entry.generation) crashed at "
                        + "\(TimeText.clock(entry.instant)) in the \(entry.appState.rawValue): "
                        + "\(reason) (R-A9)")
            }
        }
    }
}
