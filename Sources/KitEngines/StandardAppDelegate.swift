// The app delegate of the Apple-shaped standard tracker (KitEngines): UIKit's launch and
// lifecycle calls, turned into the calls `StandardEngine` gets from the world.
import Engines
import Foundation
import LifelineKit
import World

/// The host app of `StandardTracker`: makes the tracker (and so its `CLLocationManager`) at
/// every launch, first of all (R-A12), and tells it the launch, the unlock, the lifecycle and
/// the termination.
package final class StandardAppDelegate: UIResponder, UIApplicationDelegate {
    package let tracker: StandardTracker
    /// Whether the next tracking switch is the host app's own `start()`/`stop()` (not the
    /// user's switch, which the app also records).
    var switchIsHostCall = false

    package convenience init(settings: StandardEngine.Settings, device: TrackerDevice) {
        self.init(settings: settings, device: device, seams: StandardEngine.Seams())
    }

    package init(
        settings: StandardEngine.Settings, device: TrackerDevice, seams: StandardEngine.Seams
    ) {
        tracker = StandardTracker(settings: settings, device: device, seams: seams)
        super.init()
    }

    /// The tracking switch: the user's (recorded), or the host app's `start`/`stop`.
    func setTracking(_ on: Bool) {
        if switchIsHostCall {
            if on { tracker.start() } else { tracker.stop() }
        } else {
            tracker.userDidSetTracking(on)
        }
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
