// Examples/MotionTracker as engines: the tracker as written (updates paused while Core Motion
// says stationary) and its planted bug (a stationary spell turns every location service off
// and waits for Core Motion, which never wakes a suspended app, R-M5).
import Engines
import LifelineKit
import MotionTrackerExample

/// The motion tracker as written; it keeps its locations on the phone.
package let motionTracker = CustomEngine.application(
    name: "motion-tracker",
    summary: "Examples/MotionTracker: location updates paused while Core Motion says stationary",
    profile: .phoneOnly()
) { services in
    MotionTrackerAppDelegate(tracker: MotionTracker(store: DeviceLocationStore(services: services)))
} setTracking: { app, on in
    app.tracker.setTracking(on)
}

/// The planted bug: a stationary spell turns every location service off (updates,
/// significant change, the restart region) to save power, counting on Core Motion to say when
/// the device moves again. In the background the app is then suspended, and a Core Motion
/// update never wakes it (R-M5): it never resumes.
final class EverythingOffTracker: MotionTracker {
    override func pauseLocationServices() {
        locationManager.stopUpdatingLocation()
        locationManager.stopMonitoringSignificantLocationChanges()
        for region in locationManager.monitoredRegions {
            locationManager.stopMonitoring(for: region)
        }
    }
}

/// The motion tracker's planted bug as an engine (`bounded-gaps` finds it).
package let everythingOffTracker = CustomEngine.application(
    name: "everything-off-motion-tracker",
    summary: "the motion tracker that turns every location service off while stationary",
    profile: .phoneOnly()
) { services in
    MotionTrackerAppDelegate(
        tracker: EverythingOffTracker(store: DeviceLocationStore(services: services)))
} setTracking: { app, on in
    app.tracker.setTracking(on)
}
