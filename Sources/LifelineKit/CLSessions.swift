// Core Location's session objects with Apple's names (layer 4): `CLBackgroundActivitySession`
// and `CLServiceSession`, over the world's session objects.
import World

/// `CLBackgroundActivitySession` (iOS 17): while it is held, a When In Use app's location
/// keeps running in the background (R-A7, R-C5). Begun in the foreground, or in the background
/// within `sessionRejoinWindow` of a relaunch (R-B10), it takes effect at once; otherwise it
/// waits for the next foreground. It belongs to the process that made it and ends with it;
/// `invalidate()` ends it earlier. On a modelled iOS without it (16), making one does nothing
/// and the app's log names the missing API, as the world's `BackgroundActivitySession` does.
///
/// Made outside a simulated process it is detached and does nothing. Not here yet: its
/// `diagnostics` async sequence.
public final class CLBackgroundActivitySession: @unchecked Sendable {
    private let session: BackgroundActivitySession?

    /// `init()`: begins the session in the calling process.
    public init() {
        session = ProcessScope.current?.services.map(BackgroundActivitySession.init)
    }

    /// `invalidate()`: the session ends when the callback returns.
    public func invalidate() { session?.invalidate() }
}

/// `CLServiceSession` (iOS 18): declares the authorization the app's features need while it
/// is held (R-B9). For an Always app it keeps the grant across a termination; with live
/// updates it lets a force-quit app be relaunched when the device moves (R-B4). It belongs to
/// the process that made it. Made outside a simulated process it is detached and does
/// nothing. Not here yet: its `diagnostics` async sequence.
public final class CLServiceSession: @unchecked Sendable {
    /// `CLServiceSession.AuthorizationRequirement`.
    public enum AuthorizationRequirement: Hashable, Sendable {
        case none
        case whenInUse
        case always

        var world: ServiceSessionRequirement {
            switch self {
            case .none: .none
            case .whenInUse: .whenInUse
            case .always: .always
            }
        }
    }

    private let session: ServiceSession?

    /// `init(authorization:)`.
    public init(authorization: AuthorizationRequirement) {
        session = ProcessScope.current?.services.map {
            ServiceSession(services: $0, authorization: authorization.world)
        }
    }

    /// `init(authorization:fullAccuracyPurposeKey:)`: also requires full accuracy (R-F10).
    public init(authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String) {
        session = ProcessScope.current?.services.map {
            ServiceSession(services: $0, authorization: authorization.world, fullAccuracy: true)
        }
    }

    /// `invalidate()`: the session ends when the callback returns.
    public func invalidate() { session?.invalidate() }
}
