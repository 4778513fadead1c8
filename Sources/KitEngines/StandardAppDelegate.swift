// The app delegate of the Apple-shaped standard tracker (KitEngines): UIKit's launch and
// lifecycle calls, turned into the calls `StandardEngine` gets from the world.
import Engines
import Foundation
import LifelineKit
import World

/// The host app of `StandardTracker`: makes the tracker (and so its `CLLocationManager`) at
/// every launch, first of all (R-A12), and tells it the launch, the unlock, the lifecycle and
/// the termination.
package final class StandardAppDelegate: UIResponder, KitTrackerApp {
    package let tracker: StandardTracker
    package var kitTracker: any KitTracker { tracker }

    package convenience init(settings: StandardEngine.Settings, device: TrackerDevice) {
        self.init(settings: settings, device: device, seams: StandardEngine.Seams())
    }

    package init(
        settings: StandardEngine.Settings, device: TrackerDevice, seams: StandardEngine.Seams
    ) {
        tracker = StandardTracker(settings: settings, device: device, seams: seams)
        super.init()
    }

    package func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        tracker.didFinishLaunching(application)
        return true
    }

    package func applicationDidBecomeActive(_ application: UIApplication) {
        tracker.didBecomeActive()
    }

    package func applicationDidEnterBackground(_ application: UIApplication) {
        tracker.didEnterBackground()
    }

    package func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        tracker.protectedDataDidBecomeAvailable()
    }

    package func applicationWillTerminate(_ application: UIApplication) {
        tracker.willTerminate()
    }
}
