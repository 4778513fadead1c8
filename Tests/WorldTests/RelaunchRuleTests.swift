// Relaunch rules, one behaviour each (docs/rules.md): what relaunches an ended app,
// after what kind of ending, with which authorization, and what the new process must do.
import Simulation
import Testing

@testable import World

/// Starts significant-change monitoring in the foreground; in the background, only if `rejoins`.
func significantChangeEngine(rejoins: Bool) -> () -> any AppEngine {
    {
        ScriptedEngine { launch, services in
            if launch.state == .foreground || rejoins {
                services.startMonitoringSignificantLocationChanges()
            }
        }
    }
}

@Suite("Relaunch rules")
struct RelaunchRuleTests {
    @Test("R-A10: significant change relaunches a terminated Always app into the background")
    func significantChangeRelaunches() {
        let world = runWorld(
            authorization: .always, route: drive(50, parkedFor: .seconds(60)), until: 150,
            actions: [(0, .open), (10, .exit)], engine: significantChangeEngine(rejoins: false))
        #expect(world.launches.count == 2)
        #expect(world.launches[1].context.state == .background)
        #expect(
            abs(world.launches[1].seconds - 85) < 0.1, "60 s parked + 10 s to 500 m + 14 s + 1 s")
    }

    @Test("R-F5: with When In Use, nothing relaunches the app")
    func whenInUseNeverRelaunched() {
        let world = runWorld(
            authorization: .whenInUse, route: drive(50, parkedFor: .seconds(60)), until: 400,
            actions: [(0, .open), (10, .exit)], engine: significantChangeEngine(rejoins: false))
        #expect(world.launches.count == 1)
    }

    @Test(
        "R-A11: a relaunch carries no launch options in a scene-based app; a legacy app gets location"
    )
    func launchOptions() {
        for sceneBased in [true, false] {
            let world = runWorld(
                authorization: .always, capabilities: AppCapabilities(sceneBased: sceneBased),
                route: drive(50, parkedFor: .seconds(60)), until: 150,
                actions: [(0, .open), (10, .exit)], engine: significantChangeEngine(rejoins: false))
            #expect(world.launches[1].context.launchOptions == (sceneBased ? [] : ["location"]))
        }
    }

    @Test("R-A12: the event that woke an app reaches it only if it recreates the service")
    func recreateToReceive() {
        for rejoins in [false, true] {
            let world = runWorld(
                authorization: .always, route: drive(50, parkedFor: .seconds(60)), until: 150,
                actions: [(0, .open), (10, .exit)],
                engine: significantChangeEngine(rejoins: rejoins))
            let events = world.log.filter {
                $0.generation == 2 && { if case .event = $0.kind { true } else { false } }($0)
            }
            #expect(events.count == (rejoins ? 1 : 0))
            // An app that did not recreate anything ends after its wake runtime (R-F2).
            #expect(world.terminations.last == (rejoins ? .exit : .idle))
        }
    }

    @Test("R-B5: a force-quit app is relaunched by significant change on iOS 18, not on iOS 26")
    func forceQuitSignificantChange() {
        for (policy, relaunched) in [(IOSPolicy.iOS18, true), (.iOS26, false), (.measured, false)] {
            let world = runWorld(
                policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
                until: 150,
                actions: [(0, .open), (10, .forceQuit)],
                engine: significantChangeEngine(rejoins: true))
            #expect((world.launches.count == 2) == relaunched, "\(policy.name)")
        }
    }

    @Test("R-B6: a force-quit app is relaunched by a region exit on iOS 18, not on iOS 26")
    func forceQuitRegion() {
        for (policy, relaunched) in [(IOSPolicy.iOS18, true), (.iOS26, false)] {
            let world = runWorld(
                policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
                until: 200,
                actions: [(0, .open), (10, .forceQuit)]
            ) {
                ScriptedEngine { launch, services in
                    services.openMonitor("Places")
                    if launch.state == .foreground {
                        services.addCondition(
                            monitor: "Places", condition: "home", center: home, radiusMeters: 100)
                    }
                }
            }
            #expect((world.launches.count == 2) == relaunched, "\(policy.name)")
            if relaunched {
                #expect(
                    world.log.contains {
                        if case .event(.conditionExit) = $0.kind { true } else { false }
                    })
            }
        }
    }

    /// Live updates with a background activity session (and, if asked, a service session),
    /// recreated at every launch.
    func sessionEngine(serviceSession: Bool) -> () -> any AppEngine {
        {
            ScriptedEngine { _, services in
                if serviceSession { _ = services.beginServiceSession(authorization: .always) }
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }
    }

    @Test(
        "R-B4: a force-quit app holding live updates and a service session is relaunched within about 1 s"
    )
    func forceQuitSession() {
        for serviceSession in [true, false] {
            let world = runWorld(
                authorization: .always, route: drive(15), until: 120,
                actions: [(0, .open), (5, .leave), (60, .forceQuit)],
                engine: sessionEngine(serviceSession: serviceSession))
            if serviceSession {
                #expect(world.launches.count == 2 && abs(world.launches[1].seconds - 61) < 0.01)
            } else {
                #expect(world.launches.count == 1)
            }
        }
    }

    @Test(
        "R-B3, R-B10: killed for memory, the session app is relaunched and, recreating its session at once, loses about 1 s"
    )
    func memoryKillSession() {
        // Parked: live updates pause after 2 min (R-C2) and the app is suspended; purged at
        // 200 s; the drive from 300 s relaunches it.
        let world = runWorld(
            authorization: .whenInUse, route: drive(15, parkedFor: .seconds(300)), until: 400,
            actions: [(0, .open), (1, .leave), (200, .memoryPressure)],
            engine: sessionEngine(serviceSession: true))
        #expect(world.terminations.first == .memory)
        #expect(world.launches.count == 2 && abs(world.launches[1].seconds - 301) < 0.01)
        let fixes = world.fixSeconds.filter { $0 > 300 }
        #expect(
            fixes.first! < 302.01 && fixes.count >= 95,
            "fixes flow in the background from about 1 s after the relaunch")
    }

    @Test(
        "R-B10: relaunched without recreating its session, a When In Use app gets nothing in the background"
    )
    func noSessionNoFixes() {
        let world = runWorld(
            authorization: .whenInUse, route: drive(15, parkedFor: .seconds(300)), until: 400,
            actions: [(0, .open), (1, .leave), (200, .memoryPressure)]
        ) {
            ScriptedEngine { launch, services in
                _ = services.startLiveUpdates()
                if launch.state == .foreground { _ = services.beginBackgroundActivitySession() }
            }
        }
        #expect(world.launches.count == 2)
        #expect(world.fixSeconds.filter { $0 > 300 }.isEmpty)
    }

    @Test(
        "R-C5, R-B10: the rejoin window is a relaunch's: a session begun in the background 1.5 s after a foreground launch does nothing"
    )
    func rejoinWindowIsForRelaunches() {
        let world = runWorld(
            authorization: .whenInUse, until: 40,
            actions: [(0, .attachTestHost(true)), (0, .open), (0, .leave)]
        ) {
            let engine = ScriptedEngine { _, services in _ = services.startLiveUpdates() }
            engine.onLifecycle = { state, services in
                if state == .background { _ = services.beginBackgroundActivitySession() }
            }
            return engine
        }
        #expect(world.fixSeconds.last! < 12, "the When In Use grace ends the stream")
    }

    @Test(
        "R-C5: a background activity session begun in the background does nothing until the next foreground"
    )
    func sessionBegunInBackground() {
        let world = sessionBegunInBackgroundWorld()
        let fixes = world.fixSeconds
        #expect(
            fixes.filter { $0 > 14 && $0 < 30 }.isEmpty,
            "the grace ends; the session begun in the background holds nothing")
        #expect(
            fixes.last! > 79, "after a visit to the foreground the session keeps the stream running"
        )
    }

    @Test(
        "R-B7: after a reboot, significant change relaunches the app about a minute after boot, parked (measured); not on iOS 26"
    )
    func rebootRelaunch() {
        for (policy, relaunched) in [(IOSPolicy.measured, true), (.iOS26, false)] {
            let world = runWorld(
                policy: policy, authorization: .always, route: parked, until: 300,
                actions: [(0, .open), (10, .reboot)], engine: significantChangeEngine(rejoins: true)
            )
            #expect((world.launches.count == 2) == relaunched, "\(policy.name)")
            if relaunched { #expect(abs(world.launches[1].seconds - 70) < 0.01) }
        }
    }

    @Test("R-F6: monitor conditions run only after the first unlock following a reboot")
    func conditionsAfterUnlock() {
        var policy = IOSPolicy.measured
        policy.rebootRelaunchWithoutMovement = false
        for unlockAt in [50.0, 400.0] {
            let world = runWorld(
                policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(100)),
                until: 300,
                actions: [(0, .open), (10, .reboot), (unlockAt, .unlock)]
            ) {
                ScriptedEngine { launch, services in
                    services.openMonitor("Places")
                    if launch.state == .foreground {
                        services.addCondition(
                            monitor: "Places", condition: "home", center: home, radiusMeters: 100)
                    }
                }
            }
            #expect((world.launches.count == 2) == (unlockAt < 100), "unlocked at \(unlockAt) s")
        }
    }
}

@Suite("Relaunch latency")
struct RelaunchLatencyTests {
    @Test("R-B3, R-A10: each mechanism has its own relaunch latency, settable from a policy file")
    func perMechanism() throws {
        let policy = try IOSPolicy.parse(
            #"{"relaunchLatencySignificantChange": "4s", "relaunchLatencySession": "2s"}"#,
            path: "p.json")
        #expect(policy.relaunchLatency(for: .significantChange) == .seconds(4))
        #expect(policy.relaunchLatency(for: .session) == .seconds(2))
        #expect(policy.relaunchLatency(for: .region) == .seconds(1))
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 150,
            actions: [(0, .open), (10, .exit)], engine: significantChangeEngine(rejoins: false))
        // 60 s parked + 10 s to 500 m + 14 s detection + 4 s relaunch.
        #expect(world.launches.count == 2 && abs(world.launches[1].seconds - 88) < 0.1)
    }
}
