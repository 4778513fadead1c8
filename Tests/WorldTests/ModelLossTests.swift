// Losses and deliveries the world model must not cause on its own, found by a review that
// probed it under FIFO and random orderings: each test asserts what iOS would do.
import Foundation
import Simulation
import Testing

@testable import World

private func dropTexts(_ world: World) -> [String] {
    world.log.compactMap {
        if case .dropped(let item, let reason) = $0.kind { "\(item): \(reason)" } else { nil }
    }
}

@Suite("Losses the model must not cause")
struct ModelLossTests {
    /// P1: a relaunch decided while Always is carried out after the user revoked location.
    @Test(
        "R-F5: no relaunch and no event after authorization is revoked during the relaunch latency")
    func relaunchAfterRevoke() {
        var policy = IOSPolicy.measured
        policy.relaunchLatencySignificantChange = .seconds(30)
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(50), until: 400,
            actions: [
                (0, .open), (1, .leave), (20, .memoryPressure), (40, .setAuthorization(.denied)),
            ]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        let launchesAfterRevoke = world.launches.filter { $0.seconds > 40 }
        #expect(
            launchesAfterRevoke.isEmpty,
            "relaunched at \(launchesAfterRevoke.map(\.seconds)) with authorization denied")
        let eventsAfterRevoke = world.eventSeconds.filter { $0 > 40 }
        #expect(eventsAfterRevoke.isEmpty, "events handed after revoke at \(eventsAfterRevoke)")
    }

    /// P2: the user force-quits between the relaunch decision and the relaunch.
    @Test("R-B5: no relaunch after a force-quit that came after the relaunch decision")
    func relaunchAfterForceQuit() {
        var policy = IOSPolicy.iOS26
        policy.relaunchLatencySignificantChange = .seconds(30)
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(50), until: 400,
            actions: [
                (0, .open), (1, .leave), (20, .memoryPressure), (30, .open), (31, .forceQuit),
            ]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        let after = world.launches.filter { $0.seconds > 31 }
        #expect(after.isEmpty, "relaunched at \(after.map(\.seconds)) after a force-quit")
    }

    /// P3: When In Use, background allowed at leave, allowance withdrawn later in the background.
    @Test(
        "R-A3, R-A4: a When In Use app that loses its background configuration gets no fixes after a grace"
    )
    func whenInUseLosesBackground() {
        var manager = ObjectID(0)
        let world = runWorld(
            authorization: .whenInUse, route: drive(10), until: 200,
            actions: [(0, .open), (2, .leave), (150, .open)]
        ) {
            let engine = ScriptedEngine { _, s in
                manager = s.makeManager()
                s.setAllowsBackgroundLocationUpdates(manager, true)
                s.startUpdatingLocation(manager)
                _ = s.scheduledTimer(after: .seconds(33))
            }
            engine.onTimer = { _, s in s.setAllowsBackgroundLocationUpdates(manager, false) }
            return engine
        }
        // The allowance is withdrawn at 33 s; the app is in the background until 150 s.
        let lateBackground = world.log.filter { entry in
            guard case .location(let u) = entry.kind, let fix = u.fix else { return false }
            return (fix.instant - .start).seconds > 50 && (fix.instant - .start).seconds < 150
        }
        #expect(
            lateBackground.isEmpty,
            "\(lateBackground.count) fixes taken in the background long after the app lost its background configuration were handed (first at \(lateBackground.first.map { "\($0.instant)" } ?? "-"))"
        )
    }

    /// P4: Always downgraded to When In Use while the app is in the background.
    @Test("R-A4: downgraded to When In Use in the background, no fixes beyond a grace")
    func downgradeInBackground() {
        let world = runWorld(
            authorization: .always, route: drive(10), until: 200,
            actions: [(0, .open), (2, .leave), (30, .setAuthorization(.whenInUse)), (150, .open)]
        ) {
            ScriptedEngine { _, s in
                let m = s.makeManager()
                s.startUpdatingLocation(m)
            }
        }
        let late = world.log.filter { entry in
            guard case .location(let u) = entry.kind, let fix = u.fix else { return false }
            return (fix.instant - .start).seconds > 45 && (fix.instant - .start).seconds < 150
        }
        #expect(late.isEmpty, "\(late.count) fixes taken after the downgrade and grace were handed")
    }

    /// P5: force-quit with a service session + SLC: the session relaunch comes; SLC events
    /// refused in between.
    @Test(
        "R-B4, R-B5: a significant-change event while a session relaunch is pending reaches the relaunched process"
    )
    func refusedWhileRelaunchPending() {
        let world = runWorld(
            policy: {
                var p = IOSPolicy.measured
                p.relaunchLatencySession = .seconds(60)
                return p
            }(),
            authorization: .always, route: drive(50), until: 400,
            actions: [(0, .open), (20, .forceQuit)]
        ) {
            ScriptedEngine { _, s in
                _ = s.beginServiceSession(authorization: .always)
                _ = s.beginBackgroundActivitySession()
                _ = s.startLiveUpdates()
                s.startMonitoringSignificantLocationChanges()
            }
        }
        let second = world.log.filter {
            $0.generation == 2 && { if case .event = $0.kind { true } else { false } }($0)
        }
        #expect(
            second.first.map { ($0.instant - .start).seconds < 100 } == true,
            "the SLC event refused at 24 s is lost although process 2 launches at 80 s and starts SLC"
        )
    }

    /// P6: SLC "first event is the cached location" for a process that starts it again.
    @Test("R-F7: starting significant change in a new process gives the cached location")
    func cachedLocationOnRestart() {
        let world = runWorld(
            policy: .measured, authorization: .always, route: parked, until: 100,
            actions: [(0, .open), (10, .forceQuit), (20, .open)]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        let second = world.log.filter {
            $0.generation == 2 && { if case .event = $0.kind { true } else { false } }($0)
        }
        #expect(!second.isEmpty, "the reopened process never got the cached location")
    }

    /// P7: reboot with no unlock: SLC and visits keep firing and relaunch the app before the
    /// first unlock.
    @Test("R-B7: visit monitoring does not outlive a reboot")
    func rebootBeforeUnlock() {
        var policy = IOSPolicy.iOS26
        policy.rebootRelaunchWithoutMovement = false
        let world = runWorld(
            policy: policy, authorization: .always,
            route: Route(
                start: home, headingDegrees: 90,
                segments: [
                    .init(.park, .seconds(30)),
                    .init(.drive, .minutes(5), speedMetersPerSecond: 40),
                    .init(.park, .minutes(10)),
                    .init(.drive, .minutes(5), speedMetersPerSecond: 40),
                ]),
            until: 1500,
            actions: [(0, .open), (5, .reboot)]
        ) {
            ScriptedEngine { launch, s in
                _ = s.makeManager()
                s.startMonitoringSignificantLocationChanges()
                // Started once, in the foreground: a relaunched process does not restart it.
                if launch.state == .foreground { s.startMonitoringVisits() }
            }
        }
        // Visit monitoring does not outlive the boot (only significant change and conditions
        // do, R-B7): no visit reaches the app after it.
        let visitsAfterBoot = world.log.filter { entry in
            guard entry.instant > .start + .seconds(5) else { return false }
            switch entry.kind {
            case .event(.visitArrival), .event(.visitDeparture): return true
            default: return false
            }
        }
        #expect(visitsAfterBoot.isEmpty)
    }
}

/// An engine that starts significant change when it receives the fix taken at `second`.
final class StartOnFixEngine: AppEngine {
    let second: Double
    init(second: Double) { self.second = second }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        if launch.state == .foreground {
            let m = services.makeManager()
            services.startUpdatingLocation(m)
        } else {
            services.startMonitoringSignificantLocationChanges()
        }
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        if let fix = update.fix, (fix.instant - .start).seconds == second {
            services.startMonitoringSignificantLocationChanges()
        }
    }
}

extension ModelLossTests {
    /// P8: the bound of the suspended queue pushes out the authorization callback.
    @Test("R-A2: the suspended queue's bound never drops a non-location callback")
    func queueFullDropsAuthorization() {
        let world = runWorld(
            authorization: .always, route: drive(10), until: 200,
            actions: [(0, .open), (2, .leave), (30, .setAuthorization(.whenInUse)), (190, .open)]
        ) {
            ScriptedEngine { _, s in s.startUpdatingLocation(s.makeManager()) }
        }
        let lost = dropTexts(world).filter { $0.hasPrefix("authorization") }
        #expect(lost.isEmpty, "\(lost)")
    }

    /// P9: a registration the process sent before its kill, at the same instant.
    @Test("R-A10: a registration a process sent before it ended survives, under every ordering")
    func registrationAtKillInstant() {
        var outcomes: [String: [String]] = [:]
        let orderings: [OrderingSpecification] = [.fifo] + (1...40).map { .random(seed: $0) }
        for ordering in orderings {
            var world = World(
                WorldConfiguration(authorization: .always, route: drive(50), ordering: ordering)
            ) { StartOnFixEngine(second: 10) }
            world.schedule(.open, at: .start)
            world.schedule(.exit, at: .start + .seconds(10))
            world.run(until: .start + .seconds(400))
            let startedSLC = world.log.contains { entry in
                if case .event(.significantChange) = entry.kind {
                    entry.generation == 1
                } else {
                    false
                }
            }
            let handed10 = world.log.contains { entry in
                if case .location(let u) = entry.kind, entry.generation == 1, let f = u.fix {
                    (f.instant - .start).seconds == 10
                } else {
                    false
                }
            }
            let key =
                "gen1 handed fix@10 (so called start SLC): \(handed10), gen1 got cached SLC: \(startedSLC), launches \(world.launches.map { Int($0.seconds) })"
            outcomes[key, default: []].append("\(ordering)")
        }
        // Whether the process was handed the 10 s fix before it exited depends on the
        // ordering; when it was, it called start, and the registration must survive it.
        #expect(
            outcomes.keys.allSatisfy {
                !$0.contains("fix@10 (so called start SLC): true")
                    || $0.hasSuffix("launches [0, 11]") || $0.hasSuffix("launches [0, 35]")
            }, "\(outcomes.keys.sorted())")
    }

    /// P11: reboot at the very instant of a significant-change event.
    @Test("R-B7: a reboot at an event's instant never relaunches the app with nothing to deliver")
    func rebootAtEventInstant() {
        var outcomes: [String: [String]] = [:]
        let orderings: [OrderingSpecification] = [.fifo] + (1...40).map { .random(seed: $0) }
        for ordering in orderings {
            var policy = IOSPolicy.iOS26
            policy.rebootRelaunchWithoutMovement = false
            var world = World(
                WorldConfiguration(
                    policy: policy, authorization: .always, route: drive(50), ordering: ordering)
            ) { ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() } }
            world.schedule(.open, at: .start)
            world.schedule(.reboot, at: Instant(nanosecondsSinceStart: 24_000_305_174))
            world.run(until: .start + .seconds(200))
            let key =
                "launches \(world.launches.map { String(format: "%.3f", $0.seconds) }), events \(world.eventSeconds.map { String(format: "%.3f", $0) }), drops \(dropTexts(world).map { $0.suffix(30) })"
            outcomes[key, default: []].append("\(ordering)")
        }
        // The event and the reboot fall on one instant: the event reaches process 1, or is
        // lost to the reboot (R-B7), or counts as after the boot and relaunches the app for it
        // (R-B7's registrations survive). Never a relaunch with nothing to deliver.
        for key in outcomes.keys {
            #expect(
                key.hasPrefix("launches [\"0.000\"], events [\"0.000\", \"24.000\"]")
                    || key.hasPrefix(
                        "launches [\"0.000\"], events [\"0.000\"], drops [\"0305174: device rebooted, R-B7\"]"
                    )
                    || key.hasPrefix(
                        "launches [\"0.000\", \"25.000\"], events [\"0.000\", \"25.000\"]"),
                "\(key)")
        }
    }
}

extension ModelLossTests {
    @Test(
        "R-F5: with the default 1 s relaunch latency, a revocation inside it prevents the relaunch")
    func relaunchAfterRevokeDefault() {
        let world = runWorld(
            authorization: .always, route: drive(50), until: 120,
            actions: [
                (0, .open), (1, .leave), (20, .memoryPressure), (25, .setAuthorization(.denied)),
            ]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        #expect(world.launches.filter { $0.seconds > 25 }.isEmpty)
    }

    @Test(
        "R-B5: on iOS 26, an open and a force-quit inside the relaunch latency prevent the relaunch"
    )
    func relaunchAfterForceQuitDefault() {
        let world = runWorld(
            policy: .iOS26, authorization: .always, route: drive(50), until: 120,
            actions: [
                (0, .open), (1, .leave), (20, .memoryPressure), (25, .open), (25, .forceQuit),
            ]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        #expect(world.launches.filter { $0.seconds > 25 }.isEmpty)
    }
}

extension ModelLossTests {
    @Test("R-A4: no denied after the user upgraded to Always during the grace")
    func deniedAfterUpgrade() {
        let world = runWorld(
            authorization: .whenInUse, route: drive(10), until: 60,
            actions: [
                (0, .open), (0, .attachTestHost(true)), (5, .leave),
                (8, .setAuthorization(.always)),
            ]
        ) {
            ScriptedEngine { _, s in s.startUpdatingLocation(s.makeManager()) }
        }
        let denied = world.log.filter {
            if case .failure(.denied, _) = $0.kind { true } else { false }
        }
        #expect(denied.isEmpty, "didFailWithError(denied) handed to an Always app: \(denied)")
    }
}

extension ModelLossTests {
    @Test("R-A3, R-F5: a suspended When In Use app is not woken for a significant change")
    func whenInUseWokenBySLC() {
        let world = runWorld(
            authorization: .whenInUse, route: drive(50), until: 120,
            actions: [(0, .open), (1, .leave)]
        ) {
            ScriptedEngine { _, s in s.startMonitoringSignificantLocationChanges() }
        }
        let woken = world.log.filter {
            if case .event = $0.kind { $0.appState != .foreground } else { false }
        }
        #expect(woken.isEmpty, "\(woken)")
    }
}
