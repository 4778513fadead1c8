// LifelineKit's `CLLocationManager` calls beyond updates (R-G1–R-G5), with Apple's names and
// delegate methods, and a team's unit test that injects a `CLLocationManager` subclass into
// its tracker.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// A delegate that notes the calls of R-G1–R-G5.
final class CallDelegate: NSObject, CLLocationManagerDelegate {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        journal.locations += locations
        journal.note("locations \(locations.count)")
    }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        journal.note(error is CLError && CLError.locationUnknown ~= error ? "unknown" : "failed")
    }
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        journal.note("started \(region.identifier)")
    }
    func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion
    ) {
        journal.note("state \(region.identifier) \(state.rawValue)")
    }
}

/// A tracker as a team writes it, with its manager injected (a real one by default, a mock in
/// the team's unit tests): when the user parks, it watches a region around the spot, once.
final class ParkingWatcher {
    let manager: CLLocationManager
    init(manager: CLLocationManager = CLLocationManager()) { self.manager = manager }

    /// Registers the parking region unless the system already monitors one with its name;
    /// returns whether it registered.
    @discardableResult
    func parked(at coordinate: CLLocationCoordinate2D) -> Bool {
        guard !manager.monitoredRegions.contains(where: { $0.identifier == "parked" }) else {
            return false
        }
        manager.startMonitoring(
            for: CLCircularRegion(center: coordinate, radius: 100, identifier: "parked"))
        return true
    }
}

let homeCoordinate = CLLocationCoordinate2D(latitude: home.latitude, longitude: home.longitude)

@Suite("LifelineKit: requestLocation, location, requestState, monitoredRegions")
struct CoreLocationCallKitTests {
    @Test(
        "a team's unit test injects a CLLocationManager subclass overriding monitoredRegions and startMonitoring(for:) into its tracker"
    )
    func mockManagerInjectedIntoTracker() {
        final class MockManager: CLLocationManager {
            var registered: [CLRegion] = []
            var monitored: Set<CLRegion> = []
            override var monitoredRegions: Set<CLRegion> { monitored }
            override func startMonitoring(for region: CLRegion) { registered.append(region) }
        }
        let mock = MockManager()
        let watcher = ParkingWatcher(manager: mock)
        #expect(watcher.parked(at: homeCoordinate))
        #expect(mock.registered.map(\.identifier) == ["parked"])
        #expect((mock.registered.first as? CLCircularRegion)?.radius == 100)
        mock.monitored = [
            CLCircularRegion(center: homeCoordinate, radius: 100, identifier: "parked")
        ]
        #expect(!watcher.parked(at: homeCoordinate), "the override decides: no second region")
        #expect(mock.registered.count == 1)
    }

    @Test(
        "the same tracker on a real CLLocationManager: a relaunched process sees the region an earlier one registered (R-G5)"
    )
    func trackerOnRealManagerAcrossRelaunch() {
        let (_, journal) = runProbe(
            route: drive(20, parkedFor: .seconds(120)), until: 60,
            actions: [(0, .open), (10, .exit), (20, .open)]
        ) { app, _ in
            let watcher = ParkingWatcher()
            app.keptDelegates.append(watcher)
            app.journal.note("registered \(watcher.parked(at: homeCoordinate))")
        }
        #expect(
            journal.notes.filter { $0.hasPrefix("registered") } == [
                "registered true", "registered false",
            ])
    }

    @Test("R-G1: requestLocation() gives one location, or CLError.locationUnknown in time")
    func requestLocation() {
        for timeout in [VirtualDuration.seconds(10), .milliseconds(200)] {
            var policy = IOSPolicy.iOS18
            policy.requestLocationTimeout = timeout
            let (_, journal) = runProbe(policy: policy, until: 60, actions: [(0, .open)]) {
                app, _ in
                let delegate = CallDelegate(journal: app.journal)
                app.keptDelegates.append(delegate)
                let manager = CLLocationManager()
                manager.delegate = delegate
                app.extraManagers.append(manager)
                manager.requestLocation()
            }
            let calls = journal.notes.filter { $0.hasPrefix("locations") || $0 == "unknown" }
            #expect(calls == (timeout == .seconds(10) ? ["locations 1"] : ["unknown"]))
        }
    }

    @Test(
        "R-G2: location in a freshly launched process is the system's last fix, as a CLLocation"
    )
    func cachedLocation() {
        let (world, journal) = runProbe(
            until: 90, actions: [(0, .open), (30, .exit), (60, .open)]
        ) { app, _ in
            let manager = app.makeManager()
            app.journal.cachedLocations.append(manager.location)
            if app.journal.launches == 1 { manager.startUpdatingLocation() }
        }
        // The daemon's last fix: handed to the app, or dropped as the first process ended.
        let last = world.log.compactMap { entry -> Fix? in
            switch entry.kind {
            case .location(let update), .dropped(.location(let update), _): update.fix
            default: nil
            }
        }.last
        let cached = journal.cachedLocations
        #expect(cached.count == 2)
        #expect(cached.first! == nil)
        #expect(cached.last??.lifelineFix == last)
        #expect(last != nil)
        #expect(CLLocationManager().location == nil, "a detached manager has none")
    }

    @Test(
        "R-G3, R-G4: didStartMonitoringFor after startMonitoring(for:), and requestState(for:) answers .inside and .outside"
    )
    func stateAndStart() {
        let (_, journal) = runProbe(
            route: drive(20, parkedFor: .seconds(60)), until: 30, actions: [(0, .open)]
        ) { app, _ in
            let delegate = CallDelegate(journal: app.journal)
            app.keptDelegates.append(delegate)
            let manager = CLLocationManager()
            manager.delegate = delegate
            app.extraManagers.append(manager)
            let near = CLCircularRegion(center: homeCoordinate, radius: 100, identifier: "home")
            let far = CLCircularRegion(
                center: CLLocationCoordinate2D(
                    latitude: home.latitude + 0.1, longitude: home.longitude),
                radius: 100, identifier: "far")
            manager.startMonitoring(for: near)
            manager.startMonitoring(for: far)
            manager.requestState(for: near)
            manager.requestState(for: far)
        }
        let calls = journal.notes.filter { $0.hasPrefix("started") || $0.hasPrefix("state") }
        #expect(calls == ["started home", "started far", "state home 1", "state far 2"])
    }
}
