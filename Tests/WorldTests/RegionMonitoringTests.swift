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

    @Test("CLServiceSession is an iOS 18 API: on iOS 17 the call is an error in the app's log")
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
}
