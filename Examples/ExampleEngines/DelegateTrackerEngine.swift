// Examples/DelegateTracker as an engine: its app delegate over `DeviceLocationStore`.
import DelegateTrackerExample
import Engines
import LifelineKit

/// The delegate-style tracker as written; it keeps its locations on the phone.
package let delegateTracker = CustomEngine.application(
    name: "delegate-tracker",
    summary:
        "Examples/DelegateTracker: a CLLocationManager delegate with significant change and a restart region",
    profile: .phoneOnly()
) { services in
    TrackerAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.tracker.setTracking(on)
}
