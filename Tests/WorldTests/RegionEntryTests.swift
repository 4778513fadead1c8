// Region entry (R-F8, R-A10): monitor conditions and legacy regions report entries as well as
// exits, continuously, and an entry relaunches an Always app as an exit does.
import Simulation
import Testing

@testable import World

/// Parked at home 10 s; east at 50 m/s for 60 s (3 km); parked 60 s; back home at 50 m/s;
/// parked 200 s; east again at 50 m/s.
let outAndBack = Route(
    start: home, headingDegrees: 90,
    segments: [
        .init(.park, .seconds(10)),
        .init(.drive, .seconds(60), speedMetersPerSecond: 50),
        .init(.park, .seconds(60)),
        .init(.drive, .seconds(60), speedMetersPerSecond: 50, headingChangeDegrees: 180),
        .init(.park, .seconds(200)),
        .init(.drive, .seconds(60), speedMetersPerSecond: 50, headingChangeDegrees: 180),
    ])

/// Opens the monitor "Places" at every launch (R-A12); in the foreground it adds a 100 m
/// condition "home".
func homeConditionApp() -> any AppEngine {
    ScriptedEngine { launch, services in
        services.openMonitor("Places")
        guard launch.state == .foreground else { return }
        services.addCondition(monitor: "Places", condition: "home", center: home, radiusMeters: 100)
    }
}

@Suite("Region entry")
struct RegionEntryTests {
    // On `outAndBack` around a 100 m region at home: past 300 m (radius and the 200 m exit
    // cushion) at 16 s, so the exit at 101 s; back within 100 m at 188 s (3 km out, 2.9 km back
    // at 50 m/s from 130 s), so the entry at 273 s; out past 300 m again at 396 s, the second
    // exit at 481 s. Each after the 85 s latency.
    static let crossings = [101.0, 273, 481]

    @Test("R-F8: a condition reports its exit, its entry on the way back, and a second exit")
    func conditionExitEntryExit() {
        let world = runWorld(
            authorization: .always, route: outAndBack, until: 600,
            actions: [(0, .open), (0, .attachTestHost(true))], engine: homeConditionApp)
        let seen = events(of: world, generation: 1)
        #expect(
            seen.map(\.event) == [
                .conditionExit(monitor: "Places", condition: "home"),
                .conditionEntry(monitor: "Places", condition: "home"),
                .conditionExit(monitor: "Places", condition: "home"),
            ])
        #expect(zip(seen.map(\.seconds), Self.crossings).allSatisfy { abs($0 - $1) < 0.05 })
    }

    @Test("R-F8: a legacy region reports didEnterRegion on the way back, between its exits")
    func legacyRegionExitEntryExit() {
        let world = runWorld(
            authorization: .always, route: outAndBack, until: 600,
            actions: [(0, .open), (0, .attachTestHost(true))], engine: legacyRegionApp())
        let seen = events(of: world, generation: 1)
        #expect(
            seen.map(\.event) == [
                .regionExit(identifier: "r0"), .regionEntry(identifier: "r0"),
                .regionExit(identifier: "r0"),
            ])
        #expect(zip(seen.map(\.seconds), Self.crossings).allSatisfy { abs($0 - $1) < 0.05 })
    }

    @Test("R-F8: a condition added outside it reports its entry when the device arrives")
    func conditionAddedOutside() {
        // Added 3 km away (at 100 s, parked there): the first event is the entry at 273 s.
        let world = runWorld(
            authorization: .always, route: outAndBack, until: 300,
            actions: [(0, .attachTestHost(true)), (100, .open)], engine: homeConditionApp)
        let seen = events(of: world, generation: 1)
        #expect(seen.map(\.event) == [.conditionEntry(monitor: "Places", condition: "home")])
        #expect(abs(seen[0].seconds - 273) < 0.05)
    }

    @Test("R-A10, R-F8: an entry relaunches a terminated Always app, which receives it")
    func entryRelaunches() {
        // Exited at 5 s: the exit at 101 s relaunches it at 102 s; suspended, then purged for
        // memory at 200 s; the entry at 273 s relaunches it again at 274 s.
        let world = runWorld(
            authorization: .always, route: outAndBack, until: 300,
            actions: [(0, .open), (5, .exit), (200, .memoryPressure)], engine: homeConditionApp)
        #expect(world.launches.map(\.seconds).map { $0.rounded() } == [0, 102, 274])
        #expect(
            events(of: world, generation: 3).map(\.event) == [
                .conditionEntry(monitor: "Places", condition: "home")
            ])
    }

    @Test("R-F5, R-F8: an entry does not relaunch a When In Use app; it is dropped with R-F5")
    func entryNeedsAlways() {
        let world = runWorld(
            authorization: .whenInUse, route: outAndBack, until: 300,
            actions: [(100, .open), (110, .exit)], engine: homeConditionApp)
        #expect(world.launches.count == 1)
        #expect(
            drops(of: world).map(\.item) == [
                .event(.conditionEntry(monitor: "Places", condition: "home"))
            ])
        #expect(drops(of: world).map(\.reason.rule) == ["R-F5"])
    }

    @Test("R-F8: an entry cushion as large as the radius leaves nothing to enter")
    func entryCushionAsLargeAsTheRadius() {
        var policy = IOSPolicy.measured
        policy.regionEntryCushionMeters = 150
        let world = runWorld(
            policy: policy, authorization: .always, route: outAndBack, until: 600,
            actions: [(0, .open), (0, .attachTestHost(true))], engine: homeConditionApp)
        #expect(
            events(of: world, generation: 1).map(\.event) == [
                .conditionExit(monitor: "Places", condition: "home")
            ])
    }
}
