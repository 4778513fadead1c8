// Background App Refresh turned off in Settings (R-H12, `UserAction.setBackgroundRefresh`): the
// system refuses task requests and runs none that come due while it is off; the app reads the
// setting (`isBackgroundRefreshEnabled`).
import Simulation
import Testing

@testable import World

/// An engine that notes, at each launch, the setting it reads and whether its app refresh
/// request (due 60 s later) was accepted.
final class RefreshSettingEngine: AppEngine {
    let notes: SubmitResults
    init(notes: SubmitResults) { self.notes = notes }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let accepted = services.submitAppRefresh(
            identifier: "refresh", earliestBegin: services.now + .seconds(60))
        notes.accepted = [services.isBackgroundRefreshEnabled, accepted]
    }
}

@Suite("Background App Refresh off (R-H12)")
struct BackgroundRefreshRuleTests {
    @Test("R-H12: while it is off the app reads it and its request is refused")
    func offRefusesRequests() {
        let notes = SubmitResults()
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .setBackgroundRefresh(false)), (1, .open), (3, .leave)]
        ) { RefreshSettingEngine(notes: notes) }
        #expect(notes.accepted == [false, false])
        #expect(world.wakeTimeline() == ["1.0 launch foreground"])
    }

    @Test("R-H12: turned off after the request, the due refresh is dropped")
    func offDropsDueRequests() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (30, .setBackgroundRefresh(false))]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 dropped app refresh refresh R-H12",
            ])
    }

    @Test("R-H12: turned on again before the date, the refresh runs")
    func onAgainRuns() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [
                (0, .open), (2, .leave), (30, .setBackgroundRefresh(false)),
                (40, .setBackgroundRefresh(true)),
            ]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(world.wakeTimeline().last == "60.0 app refresh refresh background")
    }

    @Test("R-H12: a silent push does not depend on it (not modelled)")
    func silentPushUnaffected() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [
                (0, .open), (2, .leave), (10, .setBackgroundRefresh(false)), (30, .silentPush),
            ]
        ) { WakeEngine() }
        #expect(world.wakeTimeline().last == "30.0 remote notification background")
    }
}
