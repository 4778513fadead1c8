// Which Core Location APIs exist on the modelled iOS version (layer 3), so that an engine that
// calls one the version lacks gets a clear error in its log instead of a silent no-op.

/// A Core Location API that not every iOS version has, with the version that introduced it.
public enum CoreLocationAPI: String, Sendable, CaseIterable {
    /// `CLLocationUpdate.liveUpdates` (iOS 17, C).
    case liveUpdates = "CLLocationUpdate.liveUpdates"
    /// `CLBackgroundActivitySession` (iOS 17, R-C5, C).
    case backgroundActivitySession = "CLBackgroundActivitySession"
    /// `CLMonitor` (iOS 17, F).
    case monitor = "CLMonitor"
    /// `CLServiceSession` (iOS 18, R-B9, F).
    case serviceSession = "CLServiceSession"

    /// The major iOS version that introduced the API.
    package var introducedInVersion: Int {
        switch self {
        case .liveUpdates, .backgroundActivitySession, .monitor: 17
        case .serviceSession: 18
        }
    }

    /// Whether the API exists on iOS `version`.
    package func isAvailable(onVersion version: Int) -> Bool { version >= introducedInVersion }
}
