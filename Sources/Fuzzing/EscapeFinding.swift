// escaped-simulation (layer 5): a run part of which ran outside the simulated device gets its
// own verdict, before and instead of any lifecycle invariant's.
import Invariants
import Scenarios
import Simulation
import VirtualConcurrency

extension FuzzFailure {
    /// The verdict of a case whose app's code ran something outside the simulation (a real
    /// thread, a block on a real Dispatch queue, a real sleep, a socket, a real run loop's
    /// timer, a blocking wait, work of an ended process): neither a pass nor a lifecycle
    /// invariant's failure, since part of the run was not simulated.
    public static let escapeInvariant = "escaped-simulation"
}

/// Running a scenario with the escapes its run reports collected (`SimulationEscapes`).
public enum EscapeFinding {
    /// Runs `run` (a scenario's run) with the escapes it reports collected: its result, and
    /// the `escaped-simulation` violation naming each call and its supported form when the
    /// app's code escaped the simulation.
    public static func collecting<Result>(_ run: () throws -> Result) rethrows
        -> (result: Result, escape: Violation?)
    {
        let (result, escapes) = try SimulationEscapes.collecting(run)
        guard let first = escapes.first else { return (result, nil) }
        let calls = escapes.map { "\($0.call) (use \($0.supportedForm))" }
        let violation = Violation(
            invariant: FuzzFailure.escapeInvariant,
            instant: Instant(nanosecondsSinceStart: first.nanosecondsSinceStart ?? 0),
            explanation: "the app's code ran outside the simulated device, so no verdict on "
                + "its lifecycle holds: " + calls.joined(separator: "; "))
        return (result, violation)
    }

    /// Runs `scenario`, and checks `invariants` unless the app's code escaped the simulation:
    /// then the one violation is `escaped-simulation`.
    static func check(_ scenario: Scenario, _ invariants: [Invariant]) throws
        -> (record: RunRecord, violations: [Violation])
    {
        // No timeline reads this run: its engines need not keep their narration.
        let (record, escape) = try collecting { try scenario.record(keepsNarration: false) }
        if let escape { return (record, [escape]) }
        return (record, record.violations(of: invariants))
    }
}
