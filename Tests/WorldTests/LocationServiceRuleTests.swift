// The location daemon's rules, one behaviour each (docs/rules.md): significant
// change, conditions, visits, fixes and their accuracy, automatic pause, live updates.
import Simulation
import Testing

@testable import World

@Suite("Location service rules")
struct LocationServiceRuleTests {
    @Test(
        "R-F7: significant change: the cached location first, then 500 m and 5 min apart, cell accuracy"
    )
    func significantChange() {
        var fixes: [Fix] = []
        let world = runWorld(
            authorization: .always, route: drive(50), until: 1_500,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            let engine = ScriptedEngine { _, services in
                services.startMonitoringSignificantLocationChanges()
            }
            engine.onEvent = { event, _ in
                if case .significantChange(let fix) = event { fixes.append(fix) }
            }
            return engine
        }
        let seconds = world.eventSeconds
        #expect(seconds.first == 0, "the first event is the cached location")
        #expect(seconds.count >= 4)
        for (earlier, later) in zip(seconds.dropFirst(), seconds.dropFirst(2)) {
            #expect(later - earlier >= 300)
        }
        #expect(abs(seconds[1] - 24) < 0.01, "500 m at 50 m/s is 10 s, plus the 14 s latency")
        #expect(fixes.allSatisfy { $0.source == .cell && $0.horizontalAccuracyMeters == 1_414 })
    }

    @Test(
        "R-F8: a condition's exit comes after the radius plus the 200 m cushion, then the latency")
    func conditionExit() {
        let world = runWorld(
            authorization: .always, route: drive(10, parkedFor: .seconds(30)), until: 400,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            ScriptedEngine { _, services in
                services.openMonitor("Places")
                services.addCondition(
                    monitor: "Places", condition: "home", center: home, radiusMeters: 100)
            }
        }
        // 300 m at 10 m/s is 30 s after the drive starts at 30 s; then 85 s.
        #expect(world.eventSeconds.count == 1 && abs(world.eventSeconds[0] - 145) < 0.05)
    }

    @Test("R-F8: an app holds at most 20 conditions")
    func conditionLimit() {
        let world = runWorld(
            authorization: .always, route: drive(10), until: 400,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            ScriptedEngine { _, services in
                services.openMonitor("Places")
                for index in 0..<25 {
                    services.addCondition(
                        monitor: "Places", condition: "c\(index)", center: home, radiusMeters: 100)
                }
            }
        }
        #expect(world.eventSeconds.count == 20)
    }

    @Test(
        "R-F10: with reduced accuracy there is no region monitoring, and fixes are kilometres wide")
    func reducedAccuracy() {
        var accuracies: [Double] = []
        let world = runWorld(
            authorization: .always, accuracy: .reduced, route: drive(10), until: 400,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            let engine = ReducedProbe()
            engine.record = { accuracies.append($0) }
            return engine
        }
        #expect(world.eventSeconds.isEmpty)
        #expect(!accuracies.isEmpty && accuracies.allSatisfy { (1_000...20_000).contains($0) })
    }

    @Test("R-F10: a GNSS fix is about 5 m accurate, and lies within that of the true position")
    func gnssAccuracy() {
        var fixes: [Fix] = []
        _ = runWorld(authorization: .always, route: drive(10), until: 30, actions: [(0, .open)]) {
            let engine = ReducedProbe()
            engine.recordFix = { fixes.append($0) }
            return engine
        }
        let route = drive(10)
        #expect(fixes.count == 30)
        for fix in fixes {
            #expect(fix.source == .gnss && fix.horizontalAccuracyMeters == 5)
            #expect(fix.coordinate.distance(to: route.position(at: fix.instant)) <= 2.5 + 1e-6)
        }
    }

    @Test(
        "R-F9: a visit arrives after the dwell and departs after leaving its radius plus the latency"
    )
    func visits() {
        var events: [MonitoringEvent] = []
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(2), speedMetersPerSecond: 10), .init(.park, .minutes(10)),
                .init(.drive, .minutes(10), speedMetersPerSecond: 10),
            ])
        let world = runWorld(
            authorization: .always, route: route, until: 1_500,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            let engine = ScriptedEngine { _, services in services.startMonitoringVisits() }
            engine.onEvent = { event, _ in events.append(event) }
            return engine
        }
        // Parked from 120 s: arrival at 120 + 300 s; leaving at 720 s passes 100 m at 730 s,
        // departure 3 min later.
        #expect(world.eventSeconds.count == 2)
        #expect(abs(world.eventSeconds[0] - 420) < 0.01 && abs(world.eventSeconds[1] - 910) < 0.01)
        if case .visitArrival = events.first {} else { Issue.record("expected an arrival first") }
    }

    @Test(
        "R-F4: a manager pauses automatically when still and stays paused until the app restarts it"
    )
    func automaticPause() {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
                .init(.drive, .minutes(5), speedMetersPerSecond: 10),
            ])
        let world = runWorld(
            authorization: .always, route: route, until: 1_600, actions: [(0, .open)]
        ) {
            ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
        }
        let fixes = world.fixSeconds
        let pausedBy: Double = 60 + 15 * 60 + 1
        #expect(fixes.last! < pausedBy, "paused 15 min after stopping")
        #expect(!fixes.contains { $0 > 1_300 }, "not resumed by movement")
    }

    @Test(
        "R-C2: live updates send one stationary update, pause, and resume on movement in the background"
    )
    func stationaryPause() {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(10)),
                .init(.drive, .minutes(1), speedMetersPerSecond: 10),
            ])
        let world = runWorld(route: route, until: 800, actions: [(0, .open), (5, .leave)]) {
            ScriptedEngine { _, services in
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }
        let stationary = world.seconds {
            if case .location(let update) = $0.kind { update.stationary } else { false }
        }
        #expect(stationary == [180], "still from 60 s, paused 2 min later")
        let resumed = world.fixSeconds.filter { $0 > 180 }
        // Movement at 660 s resumes delivery in the background; still again from 720 s, the
        // stream runs on until the next stationary pause would come at 840 s.
        #expect(resumed.first == 661 && resumed.count == 140)
        #expect(world.launches.count == 1, "no foreground visit, no relaunch")
    }

    @Test("R-C3: live updates take each of the five configurations")
    func liveConfigurations() {
        #expect(
            LiveConfiguration.allCases.map(\.rawValue) == [
                "default", "automotiveNavigation", "otherNavigation", "fitness", "airborne",
            ])
        for configuration in LiveConfiguration.allCases {
            let world = runWorld(until: 5, actions: [(0, .open)]) {
                ScriptedEngine { _, services in _ = services.startLiveUpdates(configuration) }
            }
            #expect(world.fixSeconds.count == 5)
        }
    }

    @Test("iOS 16 has no live updates: the call does nothing and the app's log says why")
    func liveUpdatesNeedIOS17() {
        for (policy, available) in [(IOSPolicy.iOS16, false), (.iOS17, true)] {
            let world = runWorld(policy: policy, until: 5, actions: [(0, .open)]) {
                ScriptedEngine { _, services in _ = services.startLiveUpdates() }
            }
            #expect(world.fixSeconds.isEmpty == !available, "\(policy.name)")
            #expect(
                world.log.contains {
                    if case .unavailableAPI(.liveUpdates) = $0.kind { true } else { false }
                } == !available, "\(policy.name)")
        }
        #expect(
            IOSPolicy.iOS18.forceQuitRelaunchBySignificantChange
                && !IOSPolicy.iOS26.forceQuitRelaunchBySignificantChange)
    }
}

/// Records every fix it gets (and its accuracy), from a manager; also adds a condition.
final class ReducedProbe: AppEngine {
    var record: (Double) -> Void = { _ in }
    var recordFix: (Fix) -> Void = { _ in }
    var configure: (ObjectID, LocationServices) -> Void = { _, _ in }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = services.makeManager()
        configure(manager, services)
        services.startUpdatingLocation(manager)
        services.openMonitor("Places")
        services.addCondition(monitor: "Places", condition: "home", center: home, radiusMeters: 100)
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        if let fix = update.fix {
            record(fix.horizontalAccuracyMeters)
            recordFix(fix)
        }
    }
}

@Suite("Standard update configuration")
struct StandardUpdateConfigurationTests {
    func fixes(_ configure: @escaping (ObjectID, LocationServices) -> Void) -> [Fix] {
        var fixes: [Fix] = []
        _ = runWorld(authorization: .always, route: drive(10), until: 60, actions: [(0, .open)]) {
            let engine = ReducedProbe()
            engine.recordFix = { fixes.append($0) }
            engine.configure = configure
            return engine
        }
        return fixes
    }

    @Test(
        "R-F10, R-D4: the desired accuracy chooses the source: GNSS, Wi-Fi 30–65 m, or cell 1,414 m"
    )
    func desiredAccuracy() {
        #expect(
            fixes { _, _ in }.allSatisfy { $0.source == .gnss && $0.horizontalAccuracyMeters == 5 })
        let wifi = fixes { manager, services in services.setDesiredAccuracy(manager, meters: 100.5)
        }
        #expect(
            wifi.allSatisfy {
                $0.source == .wifi && (30...65).contains($0.horizontalAccuracyMeters)
            })
        let cell = fixes { manager, services in services.setDesiredAccuracy(manager, meters: 3_000)
        }
        #expect(cell.allSatisfy { $0.source == .cell && $0.horizontalAccuracyMeters == 1_414 })
    }

    @Test("a distance filter drops fixes closer than it to the last one delivered")
    func distanceFilter() {
        let filtered = fixes { manager, services in services.setDistanceFilter(manager, meters: 95)
        }
        // At 10 m/s with ±2.5 m noise, every tenth fix clears 95 m.
        #expect((5...7).contains(filtered.count))
        for (earlier, later) in zip(filtered, filtered.dropFirst()) {
            #expect(earlier.coordinate.distance(to: later.coordinate) >= 95)
        }
    }
}
