// The four probes of source A's background experiment (000_…): each starts one kind of
// location request when the app launches, and does nothing else.
import World

/// A plain `CLLocationManager` updating with When In Use access (R-A4).
final class PlainManagerProbe: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        services.startUpdatingLocation(services.makeManager())
    }
}

/// A manager with `allowsBackgroundLocationUpdates = true` (R-A6).
final class BackgroundManagerProbe: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = services.makeManager()
        services.setAllowsBackgroundLocationUpdates(manager, true)
        services.startUpdatingLocation(manager)
    }
}

/// `CLLocationUpdate.liveUpdates()` with no session (R-A5).
final class LiveUpdatesProbe: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = services.startLiveUpdates()
    }
}

/// Live updates while a `CLBackgroundActivitySession` is held (R-A6).
final class LiveSessionProbe: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = services.beginBackgroundActivitySession()
        _ = services.startLiveUpdates()
    }
}
