// Low Power Mode turns Background App Refresh off (R-H13, `UserAction.setLowPowerMode`): the
// system refuses task requests and runs none that come due while it is on, as with Background
// App Refresh turned off in Settings (R-H12); the app reads both.
import Simulation
import Testing

@testable import World

@Suite("Low Power Mode turns Background App Refresh off (R-H13)")
struct LowPowerModeRuleTests {
    @Test(
        "R-H13: in Low Power Mode the app reads Background App Refresh off and its request is refused"
    )
    func onRefusesRequests() {
        let notes = SubmitResults()
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .setLowPowerMode(true)), (1, .open), (3, .leave)]
        ) { RefreshSettingEngine(notes: notes) }
        #expect(notes.accepted == [false, false])
        #expect(world.wakeTimeline() == ["1.0 launch foreground"])
    }

    @Test("R-H13: turned on after the request, the due refresh is dropped, naming the rule")
    func onDropsDueRequests() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (30, .setLowPowerMode(true))]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 dropped app refresh refresh R-H13",
            ])
    }

    @Test("R-H13: turned off again before the date, the refresh runs")
    func offAgainRuns() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [
                (0, .open), (2, .leave), (30, .setLowPowerMode(true)),
                (40, .setLowPowerMode(false)),
            ]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(world.wakeTimeline().last == "60.0 app refresh refresh background")
    }

    @Test("R-H12 is named first when the user also turned Background App Refresh off")
    func userSettingNamedFirst() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [
                (0, .open), (2, .leave), (30, .setLowPowerMode(true)),
                (31, .setBackgroundRefresh(false)),
            ]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(world.wakeTimeline().last == "60.0 dropped app refresh refresh R-H12")
    }

    @Test("R-H13: a silent push does not depend on it (Apple's documentation is silent)")
    func silentPushUnaffected() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (10, .setLowPowerMode(true)), (30, .silentPush)]
        ) { WakeEngine() }
        #expect(world.wakeTimeline().last == "30.0 remote notification background")
    }
}
