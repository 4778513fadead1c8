// LifelineKit's beacons on the simulated device: ranging a beacon placed on the route while
// the app runs, and a beacon region whose entry relaunches a terminated app (R-L45–R-L48).
import Foundation
import LifelineKit
import Simulation
import Testing
import World

private let beaconUUID = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

/// Parked 5 minutes, then a drive east at 13.9 m/s for two hours.
private let route = drive(13.9, parkedFor: .minutes(5))
/// A beacon on the route, passed 10 minutes after the start (5 minutes into the drive).
private let beacon = Beacon(
    uuid: beaconUUID.uuidString, major: 7, minor: 1,
    coordinate: route.position(at: .start + .minutes(10)))

/// Notes beacon callbacks.
private final class BeaconDelegate: NSObject, CLLocationManagerDelegate {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    ) {
        for beacon in beacons {
            let second = Int(beacon.timestamp.timeIntervalSince(VirtualClock.startDate))
            journal.note("ranged \(beacon.major) \(beacon.proximity.rawValue) at \(second)")
        }
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        let beaconRegion = region as? CLBeaconRegion
        journal.note(
            "enter \(region.identifier) \(beaconRegion?.uuid == beaconUUID) "
                + "\(beaconRegion?.major?.intValue ?? -1)")
    }
}

/// Runs an app whose launch runs `setUp` with a manager and the noting delegate, on `route`
/// with `beacon`, Always.
private func runBeaconApp(
    until end: Double, actions: [(Double, UserAction)],
    setUp: @escaping @MainActor @Sendable (CLLocationManager) -> Void
) -> (World, Journal) {
    let journal = Journal()
    var world = World(
        WorldConfiguration(
            policy: .iOS18, capabilities: AppCapabilities(sceneBased: false),
            authorization: .always, route: route, beacons: [beacon])
    ) {
        ApplicationEngine(
            delegate: { _ in
                ProbeApp(journal: journal) { app, _ in
                    let manager = CLLocationManager()
                    let delegate = BeaconDelegate(journal: journal)
                    manager.delegate = delegate
                    app.manager = manager
                    app.keptDelegates.append(delegate)
                    setUp(manager)
                }
            }, setTracking: { _, _ in })
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return (world, journal)
}

@Suite("LifelineKit: beacons")
struct BeaconKitTests {
    let model = BeaconModel.standard

    @Test("R-L46, R-L48: ranging hears the beacon once a second while in range, nearest near")
    func rangingWhileInRange() {
        let (_, journal) = runBeaconApp(until: 900, actions: [(0, .open)]) { manager in
            manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: beaconUUID))
        }
        let ranged = journal.notes.filter { $0.hasPrefix("ranged") }
        // In range while within `rangeMeters` of the beacon, passed at 600 s at 13.9 m/s.
        let halfSeconds = model.rangeMeters / 13.9
        let expected = Int((2 * halfSeconds).rounded(.down))
        #expect(abs(ranged.count - expected) <= 1, "\(ranged)")
        #expect(ranged.allSatisfy { $0.hasPrefix("ranged 7 ") })
        let seconds = ranged.compactMap { Int($0.split(separator: " ").last!) }
        #expect(seconds.allSatisfy { abs(Double($0) - 600) <= halfSeconds + 1 })
        #expect(ranged.contains { $0.contains(" 3 at ") })  // far, at the edges
    }

    @Test("R-L47: a beacon region's entry relaunches a terminated app, which gets the region")
    func beaconRegionRelaunchesTheApp() {
        let (world, journal) = runBeaconApp(
            until: 900, actions: [(0, .open), (10, .leave), (60, .memoryPressure)]
        ) { manager in
            let region = CLBeaconRegion(uuid: beaconUUID, major: 7, identifier: "shop")
            if !manager.monitoredRegions.contains(region) { manager.startMonitoring(for: region) }
        }
        #expect(journal.launches == 2)
        #expect(journal.notes.contains("didFinishLaunching location background"))
        #expect(journal.notes.contains("enter shop true 7"))
        let relaunches = world.log.filter {
            if case .launch(let context) = $0.kind { context.state == .background } else { false }
        }
        #expect(relaunches.count == 1)
    }
}
