// How the example trackers' story tests run a story the fuzzer wrote: its scenario text, with
// the header every such story shares (Always, the measured policy, FIFO ordering, seed 1).
import Engines
import Invariants
import Scenarios

/// The violations of `invariants` in the run of `engine` with `events` on `route` (a drive
/// east, by default one minute) until `horizon`.
func exampleStoryViolations(
    _ engine: CustomEngine, _ invariants: [Invariant], horizon: String = "11m",
    route: String = "  drive 1m at 13.9 m/s", events: String
) throws -> [String] {
    let text = """
        engine \(engine.name)
        policy measured
        authorization always
        accuracy full
        capabilities location-background
        answers whenInUse=when-in-use always=always responseDelay=2s temporaryFullAccuracy=true
        ordering fifo
        seed 1
        horizon \(horizon)
        route from 51.5007,-0.1246 heading 90
        \(route)
        events
        \(events)
        end
        """
    let scenario = try Scenario(parsing: text, path: "story.scenario", engines: [engine])
    return try scenario.record().violations(of: invariants).map(\.description)
}
