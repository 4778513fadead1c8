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
package final class SessionAppDelegate: UIResponder, KitTrackerApp {
    package let tracker: SessionTracker
    package var kitTracker: any KitTracker { tracker }

    package init(
        settings: SessionEngine.Settings, device: TrackerDevice, seams: SessionEngine.Seams,
        loopOnMainActor: Bool = false
    ) {
        tracker = SessionTracker(
            settings: settings, device: device, seams: seams, loopOnMainActor: loopOnMainActor)
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
        tracker.lifecycleChanged(to: .foreground)
    }

    package func applicationDidEnterBackground(_ application: UIApplication) {
        tracker.lifecycleChanged(to: .background)
    }

    package func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        tracker.protectedDataDidBecomeAvailable()
    }
}
