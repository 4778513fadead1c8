// R-D7: the region the standard engine leaves at a swipe-away must hold the device, or no exit
// ever relaunches the app. Built from the story `fuzz --engine standard --seed 2` found at
// case 48,786: a drive through a stretch of cell-only fixes, a stop, a swipe a second later.
import Fuzzing
import Invariants
import Scenarios
import Simulation
import Testing
import World

@Suite("The standard engine's region at a swipe-away")
struct SwipeRegionRadiusTests {
    /// Relaunched by a region exit at 3m35s, the engine's last precise fix is at 13m35s; cell
    /// fixes follow while the device drives on to a stop at 14m; the swipe comes at 14m1s.
    static let story = """
        engine standard
        policy measured
        authorization always
        accuracy full
        capabilities location-background scene-based
        seed 1
        horizon 31m
        route from 51.5007,-0.1246 heading 90
          drive 14m at 13.9 m/s
          park 1m
          drive 6m at 13.9 m/s
        events
          0s open
          1s force-quit
          14m1s force-quit
        """

    @Test(
        "R-D7, R-B6: after driving through imprecise fixes to a stop, the swipe's region holds the device and its exit relaunches the app"
    )
    func regionCoversTheDriveSinceThePreciseFix() throws {
        let record = try Scenario(parsing: Self.story, path: "swipe-region.scenario").record()
        let secondSwipe = Instant.start + .minutes(14) + .seconds(1)
        // Before: the region was drawn 100 m around the fix at 13m35s with the last fix's
        // speed (zero, parked), 347 m behind the device: no exit, no relaunch to the horizon.
        #expect(record.processes.contains { $0.launchedAt > secondSwipe })
        let violations = record.violations(of: [Invariant.boundedGaps()])
        #expect(violations.isEmpty, "\(violations)")
    }
}
