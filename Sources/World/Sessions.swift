// The engine API's session objects (layer 3): `BackgroundActivitySession` and `ServiceSession`,
// shaped like `CLBackgroundActivitySession` and `CLServiceSession`, with their diagnostics.
import Simulation

/// What the system says of one session (`CLBackgroundActivitySession.Diagnostic`,
/// `CLServiceSession.Diagnostic`), as the app last learned it.
///
/// The truth is the location daemon's. Whenever a session's diagnostic changes (it begins, a
/// deferred background activity session becomes effective at the next foreground, the
/// authorization or the accuracy changes), the daemon sends the new value to the process as a
/// `sessionDiagnostic` item, through the app's mailbox like every other item; the session
/// object keeps the last one it was handed. So a suspended app reads the value it had when it
/// was suspended, and learns the change when it runs again (R-A2).
public struct SessionDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The session holds its grant: a background activity session keeps the app's location
    /// running in the background (R-C5, R-A7); a service session's authorization requirement
    /// is met (R-B9).
    public var isActive: Bool
    /// A background activity session begun in the background outside the rejoin window after a
    /// relaunch: the system ignores it until the app next comes to the foreground (R-C5,
    /// R-B10).
    public var insufficientlyInUse: Bool
    /// The user denied the app location access (R-A3).
    public var authorizationDenied: Bool
    /// A service session requires Always, and the app has When In Use (R-B9).
    public var alwaysAuthorizationDenied: Bool
    /// A service session requires full accuracy, and the app has reduced accuracy (R-F10).
    public var fullAccuracyDenied: Bool
    /// `serviceSessionRequired`: never set, as `NSLocationRequireExplicitServiceSession` is not
    /// modelled (R-C1).
    public var serviceSessionRequired: Bool

    package init(
        isActive: Bool, insufficientlyInUse: Bool = false, authorizationDenied: Bool = false,
        alwaysAuthorizationDenied: Bool = false, fullAccuracyDenied: Bool = false,
        serviceSessionRequired: Bool = false
    ) {
        self.isActive = isActive
        self.insufficientlyInUse = insufficientlyInUse
        self.authorizationDenied = authorizationDenied
        self.alwaysAuthorizationDenied = alwaysAuthorizationDenied
        self.fullAccuracyDenied = fullAccuracyDenied
        self.serviceSessionRequired = serviceSessionRequired
    }

    public var description: String {
        let flags = [
            (insufficientlyInUse, "insufficiently-in-use"),
            (authorizationDenied, "authorization-denied"),
            (alwaysAuthorizationDenied, "always-authorization-denied"),
            (fullAccuracyDenied, "full-accuracy-denied"),
            (serviceSessionRequired, "service-session-required"),
        ].filter(\.0).map(\.1)
        let state = isActive ? "active" : "inactive"
        return flags.isEmpty ? state : "\(state) [\(flags.joined(separator: ", "))]"
    }
}

/// The authorization a `ServiceSession` declares that its features need
/// (`CLServiceSession.AuthorizationRequirement`). There is no `denied`: a session cannot
/// require the absence of access (the first form's `beginServiceSession(authorization:)`
/// wrongly accepts `.denied`).
public enum ServiceSessionRequirement: String, Sendable, CaseIterable {
    /// `.none`: the session asks for no authorization; it is active unless access is denied.
    case none
    /// `.whenInUse`: active with When In Use or Always.
    case whenInUse = "when-in-use"
    /// `.always`: active only with Always.
    case always
}

/// A session object whose diagnostics another layer reads and follows: LifelineKit's
/// `diagnostics` sequences, over either kind of session.
package protocol DiagnosticSource: AnyObject {
    /// The last diagnostic the system sent (nil before the first).
    var diagnostic: SessionDiagnostic? { get }
    /// Called with each new diagnostic, after `diagnostic` is updated.
    var diagnosticHandler: ((SessionDiagnostic) -> Void)? { get set }
}

extension BackgroundActivitySession: DiagnosticSource {}
extension ServiceSession: DiagnosticSource {}

/// A session object of this process whose diagnostics the app process hands it.
protocol DiagnosedSession: AnyObject {
    var id: ObjectID { get }
    func receive(_ diagnostic: SessionDiagnostic)
}

/// `CLBackgroundActivitySession`: while it is held, a When In Use app's location keeps running
/// in the background (R-A7, R-C5). Begun in the foreground, or in the background within
/// `sessionRejoinWindow` of a relaunch (R-B10), it takes effect at once; begun in the
/// background otherwise, it waits for the next foreground and its diagnostic says
/// `insufficientlyInUse`.
///
/// Made inside a callback, it belongs to that process and dies with it; `invalidate()` ends it
/// earlier. `diagnostic` is nil until the system has answered (the item arrives after the
/// callback returns, through the mailbox).
public final class BackgroundActivitySession: DiagnosedSession {
    /// The session's handle, the one the first form's calls use.
    package let id: ObjectID
    private weak var services: LocationServices?
    /// The last diagnostic the system sent (nil before the first, and on iOS versions without
    /// `CLBackgroundActivitySession`, where the call does nothing).
    public private(set) var diagnostic: SessionDiagnostic?
    /// True once `invalidate()` was called: later diagnostics are ignored.
    public private(set) var isInvalidated = false
    /// Called with each new diagnostic, after `diagnostic` is updated.
    public var diagnosticHandler: ((SessionDiagnostic) -> Void)?

    /// `CLBackgroundActivitySession()` within the process that `services` serves.
    public init(services: LocationServices) {
        self.services = services
        id = services.beginBackgroundActivitySession(observed: true)
        services.register(self)
    }

    /// `invalidate()`: the session ends when the callback returns.
    public func invalidate() {
        guard !isInvalidated else { return }
        isInvalidated = true
        services?.invalidateBackgroundActivitySession(id)
    }

    func receive(_ diagnostic: SessionDiagnostic) {
        guard !isInvalidated else { return }
        self.diagnostic = diagnostic
        diagnosticHandler?(diagnostic)
    }
}

/// `CLServiceSession`: declares the authorization the app's features need while it is held
/// (R-B9). A force-quit app with live updates and a held service session is relaunched when
/// the device moves (R-B4); for an Always app the service session keeps the grant across a
/// termination on its own, with no background activity session (R-B3, R-B9). Its diagnostic
/// says whether the requirement is met: not with access denied (`authorizationDenied`), not
/// for Always under When In Use (`alwaysAuthorizationDenied`), not for full accuracy under
/// reduced accuracy (`fullAccuracyDenied`). The standing authorization prompt is not modelled: while the
/// authorization is undetermined a session that requires some is inactive with no flag.
///
/// It exists from iOS 18 (`CoreLocationAPI.serviceSession`); it belongs to the process that
/// made it, and `diagnostic` is nil until the system has answered.
public final class ServiceSession: DiagnosedSession {
    /// The session's handle.
    package let id: ObjectID
    /// The authorization it requires.
    public let authorization: ServiceSessionRequirement
    /// True when it also requires full accuracy (`fullAccuracyPurposeKey`).
    public let requiresFullAccuracy: Bool
    private weak var services: LocationServices?
    /// The last diagnostic the system sent (nil before the first).
    public private(set) var diagnostic: SessionDiagnostic?
    /// True once `invalidate()` was called: later diagnostics are ignored.
    public private(set) var isInvalidated = false
    /// Called with each new diagnostic, after `diagnostic` is updated.
    public var diagnosticHandler: ((SessionDiagnostic) -> Void)?

    /// `CLServiceSession(authorization:)`, or `(authorization:fullAccuracyPurposeKey:)` when
    /// `fullAccuracy` is true.
    public init(
        services: LocationServices, authorization: ServiceSessionRequirement,
        fullAccuracy: Bool = false
    ) {
        self.services = services
        self.authorization = authorization
        requiresFullAccuracy = fullAccuracy
        id = services.beginServiceSession(requiring: authorization, fullAccuracy: fullAccuracy)
        services.register(self)
    }

    /// `invalidate()`: the session ends when the callback returns.
    public func invalidate() {
        guard !isInvalidated else { return }
        isInvalidated = true
        services?.invalidateServiceSession(id)
    }

    func receive(_ diagnostic: SessionDiagnostic) {
        guard !isInvalidated else { return }
        self.diagnostic = diagnostic
        diagnosticHandler?(diagnostic)
    }
}
