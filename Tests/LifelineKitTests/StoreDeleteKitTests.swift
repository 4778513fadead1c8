// Deleting from the store through LifelineKit's storage seam: an app delegate written against
// UIKit's shapes reaches the store through the `LocationServices` it is made with, and a
// deletion it commits leaves the disk once the commit completes (R-S1).
import Engines
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// Stores "sent" and "kept" at its first launch and deletes "sent" when it enters the
/// background, as a tracker prunes what its server accepted.
final class PruningAppDelegate: NSObject, UIApplicationDelegate {
    private weak var services: LocationServices?
    init(services: LocationServices) { self.services = services }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        guard let store = try? services?.openStore(), store.rows.isEmpty else { return true }
        for key in ["sent", "kept"] { store.insert(StoredRow(key: key)) }
        store.commit()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        guard let store = try? services?.openStore() else { return }
        store.delete(StoredRow(key: "sent"))
        store.commit()
    }
}

let pruningApp = CustomEngine.application(
    name: "pruning-app", summary: "stores two rows and deletes one in the background"
) { services in
    PruningAppDelegate(services: services)
} setTracking: { _, _ in
}

@Suite("LifelineKit: deleting from the store")
struct StoreDeleteKitTests {
    @Test("R-S1: an app delegate deletes a row through the storage seam; it leaves the disk")
    func delegateDeletes() {
        var world = World(WorldConfiguration(authorization: .always, route: drive(10))) {
            pruningApp.make(LaunchRules())
        }
        world.schedule(.open, at: .start)
        world.schedule(.leave, at: .start + .seconds(10))
        world.run(until: .start + .seconds(60))
        #expect(world.storedRows.map(\.key) == ["kept"])
        let deleted = world.log.compactMap { entry -> [String]? in
            if case .rowsDeleted(_, let rows, _) = entry.kind { rows.map(\.key) } else { nil }
        }
        #expect(deleted == [["sent"]])
    }
}
