// Examples/DelegateTracker's tracker, written against CoreLocation and UIKit, built outside the
// repository against LifelineKit: `.ci/run` copies LocationTracker.swift here unchanged (its
// imports pick LifelineKit where CoreLocation and UIKit are missing). A drive with a
// force-quit: iOS 18 relaunches it by significant change (R-B5), and it stores fixes before and
// after through its own storage seam, here the simulated device's store.
import Foundation
import Lifeline
import LifelineKit

final class DeviceStore: LocationStore {
    private weak var services: LocationServices?
    init(services: LocationServices) { self.services = services }
    func append(_ locations: [CLLocation]) -> Bool {
        guard let services, let store = try? services.openStore() else { return false }
        for fix in locations.compactMap(\.lifelineFix) {
            store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: fix))
        }
        store.commit()
        return true
    }
    var trackingSwitchedOff: Bool {
        get { services?.userDefaults.bool(forKey: "off") ?? false }
        set { services?.userDefaults.set(newValue, forKey: "off") }
    }
}

let tracker = CustomEngine.application(name: "outside", summary: "the example, outside") {
    TrackerAppDelegate(store: DeviceStore(services: $0))
} setTracking: { $0.tracker.setTracking($1) }

let route = Route(
    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
    segments: [.init(.drive, .minutes(15), speedMetersPerSecond: 20)])
var world = World(
    WorldConfiguration(
        policy: .iOS18, capabilities: tracker.profile.capabilities, authorization: .always,
        route: route)
) { tracker.make(LaunchRules()) }
world.schedule(.open, at: .start)
world.schedule(.leave, at: .start + .seconds(10))
world.schedule(.forceQuit, at: .start + .seconds(60))
world.run(until: .start + .minutes(15))
var launches = 0
for entry in world.log { if case .launch = entry.kind { launches += 1 } }
print("launches=\(launches) stored=\(world.storedRows.filter { $0.fix != nil }.count)")
