// What counts as in use in the background, and what the user sees of it: a Live Activity
// (R-C4), the blue background location indicator (R-B8, R-A8), and the diagnostic flags of live
// updates (R-C1).
import Simulation
import Testing
@testable import World

/// Starts updating a plain manager (no background configuration) at every launch.
func plainManager() -> any AppEngine {
    ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
}

/// Starts live updates, with no session, at every launch.
func bareLiveUpdates() -> any AppEngine {
    ScriptedEngine { _, services in _ = services.startLiveUpdates() }
}

extension World {
    /// Seconds of every `didFailWithError(denied)`.
    var deniedSeconds: [Double] {
        seconds { if case .failure(.denied, _) = $0.kind { true } else { false } }
    }

    /// True if the process was ever suspended while something was logged.
    var everSuspended: Bool { log.contains { $0.processState == .suspended } }
}

@Suite("Background use: Live Activities")
struct LiveActivityRuleTests {
    @Test("R-C4: with a Live Activity, a When In Use plain manager delivers in the background")
    func plainManagerWithLiveActivity() {
        let with = runWorld(
            until: 60, actions: [(0, .open), (1, .startLiveActivity), (2, .leave)],
            engine: plainManager)
        #expect(with.fixSeconds.last.map { $0 >= 59 } == true, "\(with.fixSeconds)")
        #expect(drops(of: with).isEmpty)
        #expect(with.deniedSeconds.isEmpty)
        #expect(!with.everSuspended, "the Live Activity keeps the app running")
        // Without it, the grace ends the fixes (R-A4).
        let without = runWorld(until: 60, actions: [(0, .open), (2, .leave)], engine: plainManager)
        #expect(without.fixSeconds.last.map { $0 < 15 } == true)
    }

    @Test("R-C4: with a Live Activity, bare live updates (no session) go on in the background")
    func liveUpdatesWithLiveActivity() {
        let world = runWorld(
            until: 60, actions: [(0, .open), (1, .startLiveActivity), (2, .leave)],
            engine: bareLiveUpdates)
        #expect(world.fixSeconds.last.map { $0 >= 59 } == true, "\(world.fixSeconds)")
        #expect(drops(of: world).isEmpty)
    }

    @Test("R-C4: a Live Activity needs no other configuration, not even the background mode")
    func noBackgroundMode() {
        let world = runWorld(
            capabilities: AppCapabilities(locationBackgroundMode: false), until: 60,
            actions: [(0, .open), (1, .startLiveActivity), (2, .leave)], engine: plainManager)
        #expect(world.fixSeconds.last.map { $0 >= 59 } == true, "\(world.fixSeconds)")
    }

    @Test("R-C4, R-A4: when the Live Activity ends in the background, the grace starts")
    func endedInTheBackground() {
        // Ended at 30 s: fixes for the 10 s grace, then denied 2 s later (a test host keeps the
        // app running, as in source A, so that the grace shows).
        let world = runWorld(
            until: 60,
            actions: [
                (0, .attachTestHost(true)), (0, .open), (1, .startLiveActivity), (2, .leave),
                (30, .endLiveActivity),
            ], engine: plainManager)
        let last = world.fixSeconds.last ?? 0
        #expect(last >= 39 && last <= 40, "\(world.fixSeconds)")
        #expect(world.deniedSeconds.count == 1 && abs(world.deniedSeconds[0] - 42) < 0.01)
        #expect(drops(of: world).allSatisfy { $0.reason == .whenInUseGraceOver })
    }

    @Test("R-C4, R-A2: a Live Activity started while the app is suspended resumes its locations")
    func startedWhileSuspended() {
        // Left at 2 s without a Live Activity: suspended, its grace over; the activity at 30 s
        // makes it in use again and keeps it running.
        let world = runWorld(
            until: 60, actions: [(0, .open), (2, .leave), (30, .startLiveActivity)],
            engine: plainManager)
        #expect(world.everSuspended)
        #expect(world.fixSeconds.contains { $0 > 30 && $0 < 32 }, "\(world.fixSeconds)")
        #expect(world.fixSeconds.last.map { $0 >= 59 } == true)
    }
}
