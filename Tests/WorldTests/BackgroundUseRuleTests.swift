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

/// Starts live updates and begins a background activity session at launch; invalidates the
/// session after `updatesWithSession` updates.
final class ExpiringSessionEngine: AppEngine {
    private let updatesWithSession: Int
    private var session: ObjectID?
    private var updates = 0

    init(updatesWithSession: Int) { self.updatesWithSession = updatesWithSession }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = services.startLiveUpdates()
        session = services.beginBackgroundActivitySession()
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        updates += 1
        if updates == updatesWithSession, let session {
            services.invalidateBackgroundActivitySession(session)
            self.session = nil
        }
    }
}

/// An Always app's manager allowed in the background, with `showsBackgroundLocationIndicator`
/// set to `shows`.
func alwaysManager(shows: Bool) -> () -> any AppEngine {
    {
        ScriptedEngine { _, services in
            let manager = services.makeManager()
            services.setAllowsBackgroundLocationUpdates(manager, true)
            services.setShowsBackgroundLocationIndicator(manager, shows)
            services.startUpdatingLocation(manager)
        }
    }
}

extension World {
    /// The indicator's changes as (seconds, shown).
    var indicatorTimeline: [(seconds: Double, shown: Bool)] {
        locationIndicatorChanges.map { (($0.instant - .start).seconds, $0.shown) }
    }
}

@Suite("Background use: the blue location indicator")
struct LocationIndicatorRuleTests {
    @Test("R-B8: a background activity session shows the indicator for as long as it lives")
    func sessionShowsIndicator() {
        // An Always app (which would not show it otherwise): in the background at 3.5 s; the
        // session is invalidated at its 25th update, at 25 s.
        let world = runWorld(
            authorization: .always, until: 40, actions: [(0, .open), (2, .leave)]
        ) { ExpiringSessionEngine(updatesWithSession: 25) }
        let timeline = world.indicatorTimeline
        #expect(timeline.map(\.shown) == [true, false], "\(timeline)")
        #expect(abs(timeline[0].seconds - 3.5) < 0.01)
        #expect(abs(timeline[1].seconds - 25) < 0.01)
        #expect(!world.isLocationIndicatorShown)
    }

    @Test(
        "R-A8, R-B8: a When In Use app shows the indicator while location reaches it in the background"
    )
    func whenInUseShowsIndicator() {
        // A plain manager under a test host: shown on reaching the background at 3.5 s, gone
        // when the grace ends at 13.5 s (R-A4).
        let world = runWorld(
            until: 30, actions: [(0, .attachTestHost(true)), (0, .open), (2, .leave)],
            engine: plainManager)
        let timeline = world.indicatorTimeline
        #expect(timeline.map(\.shown) == [true, false], "\(timeline)")
        #expect(abs(timeline[0].seconds - 3.5) < 0.01 && abs(timeline[1].seconds - 13.5) < 0.01)
    }

    @Test("R-A8: an Always app shows the indicator only with showsBackgroundLocationIndicator")
    func alwaysNeedsTheProperty() {
        let hidden = runWorld(
            authorization: .always, until: 30, actions: [(0, .open), (2, .leave)],
            engine: alwaysManager(shows: false))
        #expect(hidden.locationIndicatorChanges.isEmpty)
        let shown = runWorld(
            authorization: .always, until: 30, actions: [(0, .open), (2, .leave), (20, .open)],
            engine: alwaysManager(shows: true))
        // Shown in the background, gone when the user opens the app again.
        #expect(shown.indicatorTimeline.map(\.shown) == [true, false])
        #expect(abs(shown.indicatorTimeline[0].seconds - 3.5) < 0.01)
        #expect(abs(shown.indicatorTimeline[1].seconds - 20) < 0.01)
    }

    @Test(
        "R-B8, R-C4: a When In Use app with a Live Activity shows the indicator in the background")
    func liveActivityShowsIndicator() {
        let world = runWorld(
            until: 60, actions: [(0, .open), (1, .startLiveActivity), (2, .leave)],
            engine: plainManager)
        #expect(world.isLocationIndicatorShown)
    }
}

extension World {
    /// Every live update the app received, with its second.
    var liveUpdates: [(seconds: Double, update: LocationUpdate)] {
        log.compactMap { entry in
            guard case .location(let update) = entry.kind, case .liveUpdates = update.channel
            else { return nil }
            return ((entry.instant - .start).seconds, update)
        }
    }

    /// The live updates without a location.
    var signals: [(seconds: Double, update: LocationUpdate)] {
        liveUpdates.filter { $0.update.fix == nil }
    }
}

@Suite("Background use: live updates' diagnostic flags")
struct LiveUpdateDiagnosticsRuleTests {
    @Test(
        "R-C1: under denied authorization a stream gets one update: authorizationDenied, no location"
    )
    func deniedFromTheStart() {
        let world = runWorld(
            authorization: .denied, until: 20, actions: [(0, .open)], engine: bareLiveUpdates)
        #expect(world.liveUpdates.count == 1)
        #expect(world.signals.map(\.update.diagnostics) == [.authorizationDenied])
        #expect(world.fixSeconds.isEmpty)
        #expect(
            !drops(of: world).isEmpty && drops(of: world).allSatisfy { $0.reason.rule == "R-A3" })
    }

    @Test(
        "R-C1: denied while streaming gives one authorizationDenied; allowed again, locations resume unflagged"
    )
    func deniedThenAllowed() {
        let world = runWorld(
            until: 30,
            actions: [
                (0, .open), (10, .setAuthorization(.denied)), (20, .setAuthorization(.whenInUse)),
            ], engine: bareLiveUpdates)
        let signals = world.signals
        #expect(signals.map(\.update.diagnostics) == [.authorizationDenied])
        #expect(signals.allSatisfy { $0.seconds >= 10 && $0.seconds <= 11 })
        #expect(world.fixSeconds.filter { $0 > 11 && $0 < 20 }.isEmpty)
        #expect(world.fixSeconds.last.map { $0 >= 29 } == true)
        #expect(
            world.liveUpdates.filter { $0.update.fix != nil }.allSatisfy {
                $0.update.diagnostics.isEmpty
            })
    }

    @Test(
        "R-C1, R-F10: under reduced accuracy every live update carries accuracyLimited; a manager's none"
    )
    func reducedAccuracy() {
        let world = runWorld(
            accuracy: .reduced, until: 10, actions: [(0, .open)]
        ) {
            ScriptedEngine { _, services in
                _ = services.startLiveUpdates()
                services.startUpdatingLocation(services.makeManager())
            }
        }
        let updates = world.log.compactMap { entry -> LocationUpdate? in
            if case .location(let update) = entry.kind { update } else { nil }
        }
        let live = updates.filter { if case .liveUpdates = $0.channel { true } else { false } }
        let manager = updates.filter { if case .manager = $0.channel { true } else { false } }
        // One each in 10 s: the first at once, the next `reducedAccuracyUpdateInterval` later
        // (R-F10; `ModelQuestionTests` pins the rate).
        #expect(live.count == 1 && live.allSatisfy { $0.diagnostics == .accuracyLimited })
        #expect(manager.count == 1 && manager.allSatisfy { $0.diagnostics.isEmpty })
        // CLLocationUpdate's names read the same flags.
        #expect(live.allSatisfy { $0.accuracyLimited && !$0.isStationary && $0.location != nil })
        #expect(manager.allSatisfy { !$0.accuracyLimited })
    }

    @Test("R-A5, R-C1: bare live updates get no signal at all when the When In Use grace ends")
    func graceEndsWithoutSignal() {
        let world = runWorld(
            until: 40, actions: [(0, .attachTestHost(true)), (0, .open), (2, .leave)],
            engine: bareLiveUpdates)
        #expect(world.signals.isEmpty)
        #expect(world.liveUpdates.allSatisfy { $0.update.diagnostics.isEmpty })
        #expect(world.fixSeconds.last.map { $0 < 14 } == true)
    }

    @Test(
        "R-C5, R-C1: a session begun in the background gives one insufficientlyInUse when the grace ends"
    )
    func sessionBegunInBackground() {
        let world = sessionBegunInBackgroundWorld()
        // The grace ends at 13.5 s: the next epoch, at 14 s, carries the flag.
        let signals = world.signals
        #expect(signals.map(\.update.diagnostics) == [.insufficientlyInUse])
        #expect(signals.allSatisfy { $0.seconds > 13.5 && $0.seconds <= 14 })
    }
}
