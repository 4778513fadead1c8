// bounded-gaps under When In Use (R-A3, R-F5): a fix is wanted in the background only from a
// process that asked for background configuration and started updates, never for the flag
// alone.
import Engines
import Invariants
import Simulation
import Testing
import World

/// A tracker that sets `allowsBackgroundLocationUpdates` in every mode, as real ones do, and
/// in its significant-change mode starts no updates (`startsUpdates` false); it stores
/// nothing, so any wanted time is a gap.
final class FlagEveryModeEngine: TrackingEngine {
    let startsUpdates: Bool
    private(set) var events: [TrackingEvent] = []
    private var manager: LocationManager?

    init(startsUpdates: Bool) { self.startsUpdates = startsUpdates }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = LocationManager(services: services)
        manager.allowsBackgroundLocationUpdates = true
        if startsUpdates {
            manager.startUpdatingLocation()
        } else {
            manager.startMonitoringSignificantLocationChanges()
        }
        self.manager = manager
    }
    func start(services: LocationServices) {}
    func stop(services: LocationServices) {}
    func state(at now: Instant) -> EngineState {
        EngineState(enabled: true, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }
}

@Suite("bounded-gaps under When In Use")
struct WhenInUseGapTests {
    /// The tracker opened at the start and left after a minute, When In Use, on a 30-minute
    /// drive.
    func record(startsUpdates: Bool) -> RunRecord {
        let route = Route(
            start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
            segments: [.init(.drive, .minutes(31), speedMetersPerSecond: 13.9)])
        return RunRecord.run(
            configuration: WorldConfiguration(authorization: .whenInUse, route: route),
            actions: [
                ScheduledAction(.start, .open), ScheduledAction(.start + .minutes(1), .leave),
            ],
            horizon: .start + .minutes(30), launchRules: LaunchRules()
        ) { FlagEveryModeEngine(startsUpdates: startsUpdates) }
    }

    @Test("R-A3: the background flag alone, with no updates started, wants no fix")
    func flagAloneWantsNothing() {
        let violations = Invariant.boundedGaps().check(record(startsUpdates: false))
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("R-A3: the flag with updates started wants fixes, and storing none is a gap")
    func flagWithUpdatesWantsFixes() {
        let violations = Invariant.boundedGaps().check(record(startsUpdates: true))
        #expect(violations.count == 1)
    }
}
