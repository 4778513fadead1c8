// The app delegate of the Apple-shaped session tracker (KitEngines): UIKit's launch and
// lifecycle calls, turned into the calls `SessionEngine` gets from the world.
import Engines
import Foundation
import LifelineKit
import World

/// The host app of `SessionTracker`: makes the tracker (and so its `CLLocationManager`) at
/// every launch, first of all (R-A12), and tells it the launch, the unlock and the lifecycle.
/// Source B's engine does nothing at `applicationWillTerminate`: its service session and
/// registrations already outlive the process (R-B4, R-B6).
package final class SessionAppDelegate: UIResponder, UIApplicationDelegate {
    package let tracker: SessionTracker
    /// Whether the next tracking switch is the host app's own `start()`/`stop()` (not the
    /// user's switch, which the app also records).
    var switchIsHostCall = false

    package init(
        settings: SessionEngine.Settings, device: TrackerDevice, seams: SessionEngine.Seams,
        loopOnMainActor: Bool = false
    ) {
        tracker = SessionTracker(
            settings: settings, device: device, seams: seams, loopOnMainActor: loopOnMainActor)
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
        tracker.lifecycleChanged(to: .foreground)
    }

    package func applicationDidEnterBackground(_ application: UIApplication) {
        tracker.lifecycleChanged(to: .background)
    }

    package func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        tracker.protectedDataDidBecomeAvailable()
    }
}
