// What the ported trackers (KitEngines) read of Core Location's values in the world's terms:
// the fix a location stands for, and the authorization for their events.
import LifelineKit
import World

extension CLLocation {
    /// The world's fix this location stands for (every location Core Location delivers here
    /// has one).
    var fix: Fix { lifelineFix! }
}

extension CLAuthorizationStatus {
    /// The world's authorization, for the trackers' events.
    var world: Authorization {
        switch self {
        case .authorizedAlways: .always
        case .authorizedWhenInUse: .whenInUse
        case .denied, .restricted: .denied
        case .notDetermined: .notDetermined
        }
    }
}
