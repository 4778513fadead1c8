// Legacy region monitoring (CLCircularRegion through a manager) and API availability by iOS
// version: the pre-iOS 17 relaunch path of R-B6, and calls to APIs a version lacks.
import Simulation
import Testing

@testable import World

/// Creates a manager at every launch; in the foreground it also monitors `regions` regions of
/// 100 m around home (named r0, r1, …).
func legacyRegionApp(regions: Int = 1) -> () -> any AppEngine {
    {
        ScriptedEngine { launch, services in
            let manager = services.makeManager()
            guard launch.state == .foreground else { return }
            for index in 0..<regions {
                services.startMonitoring(
                    manager,
                    for: CircularRegion(identifier: "r\(index)", center: home, radiusMeters: 100))
            }
        }
    }
}

/// Every `monitoringDidFailFor` the app saw, by region identifier.
func monitoringFailures(of world: World) -> [String] {
    world.log.compactMap {
        if case .monitoringFailure(let region, .regionMonitoringFailure, _) = $0.kind {
            region
        } else {
            nil
        }
    }
}

@Suite("Region monitoring and API availability")
struct RegionMonitoringTests {
    @Test("R-B6: on iOS 16, a legacy region's exit relaunches a force-quit app, which receives it")
    func legacyRegionRelaunchesOnIOS16() {
        // Parked 60 s, then 50 m/s: past 100 m plus the 200 m cushion at 66 s, the exit 85 s
        // later, the relaunch 1 s after that.
        let world = runWorld(
            policy: .iOS16, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 200, actions: [(0, .open), (10, .forceQuit)], engine: legacyRegionApp())
        #expect(world.launches.count == 2)
        #expect(abs(world.launches.last!.seconds - 152) < 0.01)
        #expect(
            events(of: world, generation: 2).map(\.event) == [.regionExit(identifier: "r0")])
    }

    @Test("R-B6: on iOS 26 the same region does not relaunch a force-quit app")
    func legacyRegionAfterForceQuitOnIOS26() {
        let world = runWorld(
            policy: .iOS26, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 200, actions: [(0, .open), (10, .forceQuit)], engine: legacyRegionApp())
        #expect(world.launches.count == 1)
    }

    @Test("R-F8: the 21st region fails with monitoringDidFailFor; the first 20 are monitored")
    func regionLimit() {
        let world = runWorld(
            authorization: .always, route: parked, until: 5, actions: [(0, .open)],
            engine: legacyRegionApp(regions: 21))
        #expect(monitoringFailures(of: world) == ["r20"])
    }

    @Test("R-F10: with reduced accuracy every region fails")
    func reducedAccuracyFailsRegions() {
        let world = runWorld(
            authorization: .always, accuracy: .reduced, route: parked, until: 5,
            actions: [(0, .open)], engine: legacyRegionApp(regions: 2))
        #expect(monitoringFailures(of: world) == ["r0", "r1"])
    }

    @Test("CLMonitor is an iOS 17 API: on iOS 16 the call is an error in the app's log")
    func monitorNeedsIOS17() {
        for (policy, available) in [(IOSPolicy.iOS16, false), (.iOS17, true)] {
            let world = runWorld(
                policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
                until: 200, actions: [(0, .open)]
            ) {
                ScriptedEngine { _, services in
                    services.openMonitor("Places")
                    services.addCondition(
                        monitor: "Places", condition: "home", center: home, radiusMeters: 100)
                }
            }
            let errors = world.log.filter {
                if case .unavailableAPI(.monitor) = $0.kind { true } else { false }
            }
            #expect(errors.count == (available ? 0 : 2), "\(policy.name)")
            #expect(world.eventSeconds.count == (available ? 1 : 0), "\(policy.name)")
        }
    }

    @Test(
        "R-B9: CLServiceSession is an iOS 18 API: on iOS 17 the call is an error in the app's log")
    func serviceSessionNeedsIOS18() {
        for (policy, available) in [(IOSPolicy.iOS17, false), (.iOS18, true)] {
            let world = runWorld(policy: policy, until: 5, actions: [(0, .open)]) {
                ScriptedEngine { _, services in
                    _ = services.beginServiceSession(authorization: .always)
                }
            }
            let errors = world.log.filter {
                if case .unavailableAPI(.serviceSession) = $0.kind { true } else { false }
            }
            #expect(errors.count == (available ? 0 : 1), "\(policy.name)")
        }
    }

    /// Source D's standard engine in small: at every launch a manager (with a delegate) runs
    /// standard updates in the background with no automatic pause; at the first launch, in the
    /// foreground, it also monitors a legacy region of `radius` around the parked position if
    /// `withRegion`.
    static func standardUpdatesApp(
        _ recorder: DelegateRecorder, radius: Double, withRegion: Bool
    ) -> () -> any AppEngine {
        {
            ManagerEngine(recorder: recorder) { launch, services, engine in
                let manager = engine.makeManager(services)
                manager.allowsBackgroundLocationUpdates = true
                manager.pausesLocationUpdatesAutomatically = false
                manager.startUpdatingLocation()
                guard withRegion, launch.state == .foreground else { return }
                manager.startMonitoring(
                    for: CircularRegion(identifier: "wake", center: home, radiusMeters: radius))
            }
        }
    }

    @Test(
        "R-D6, R-B6: a standard-updates app swiped away while parked stays stopped; its legacy region relaunches it once the drive is radius + exit cushion away, after the exit latency; not on iOS 26"
    )
    func swipeAwayRelaunchedAfterAFewHundredMetres() throws {
        let radius = 100.0
        let speed = 15.0
        let forceQuit = 60.0
        let driveStart = 300.0
        let route = drive(speed, parkedFor: VirtualDuration(seconds: driveStart))
        for (policy, withRegion, relaunched) in [
            (IOSPolicy.measured, true, true), (.measured, false, false), (.iOS26, true, false),
        ] {
            let label = "\(policy.name), region \(withRegion)"
            let recorder = DelegateRecorder()
            let world = runWorld(
                policy: policy, authorization: .always, route: route, until: 600,
                actions: [(0, .open), (2, .leave), (forceQuit, .forceQuit)],
                engine: Self.standardUpdatesApp(recorder, radius: radius, withRegion: withRegion))
            #expect(world.terminations == [.forceQuit], "\(label)")
            #expect(
                world.fixSeconds.filter { $0 > forceQuit }.allSatisfy { $0 > driveStart },
                "\(label): stopped while parked")
            guard relaunched else {
                #expect(world.launches.count == 1, "\(label)")
                #expect(world.fixSeconds.allSatisfy { $0 <= forceQuit }, "\(label)")
                continue
            }
            #expect(policy.forceQuitRelaunchByRegion)
            // The exit comes once the device is radius + cushion from the centre (R-F8), after
            // the exit latency; the relaunch after the region's relaunch latency (R-B6).
            let exitDistance = radius + policy.regionExitCushionMeters
            let crossing = driveStart + exitDistance / speed
            let expected =
                crossing + policy.regionExitLatency.seconds + policy.relaunchLatencyRegion.seconds
            let relaunch = try #require(world.launches.dropFirst().first, "\(label)")
            #expect(world.launches.count == 2, "\(label)")
            #expect(relaunch.context.state == .background, "\(label)")
            #expect(abs(relaunch.seconds - expected) < 0.1, "\(label)")
            #expect(
                route.position(at: .start + VirtualDuration(seconds: crossing)).distance(to: home)
                    > exitDistance - 1, "a few hundred metres, not a wander in the car park")
            // The relaunched process's new manager gets the exit (R-A12) and its updates run
            // again, from where the device now is.
            #expect(
                recorder.calls.contains(.exit(generation: 2, manager: ObjectID(1), region: "wake")))
            let restarted = world.fixSeconds.filter { $0 > forceQuit }
            #expect(restarted.first.map { $0 >= relaunch.seconds } == true, "\(label)")
            #expect(restarted.count > 100, "\(label): updates for the rest of the drive")
        }
    }
}
