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
/// Made outside a simulated process it is detached and does nothing.
///
/// `diagnostics` (iOS 18) is an asynchronous sequence of what the system says of the session
/// (`CLSessionDiagnostics`): the world's `SessionDiagnostic` each time it changes.
public final class CLBackgroundActivitySession: @unchecked Sendable {
    /// `CLBackgroundActivitySession.Diagnostic` (iOS 18): why the session does not keep the
    /// app's location running, if it does not.
    public struct Diagnostic: Sendable, Equatable {
        /// The user denied the app location access (R-A3).
        public var authorizationDenied: Bool
        /// Location Services are off for the whole device. Not modelled: always false.
        public var authorizationDeniedGlobally: Bool
        /// An authorization prompt is showing. Not modelled: always false.
        public var authorizationRequestInProgress: Bool
        /// The app's authorization is restricted. Not modelled: always false.
        public var authorizationRestricted: Bool
        /// Begun in the background outside the rejoin window after a relaunch: the system
        /// ignores the session until the app next comes to the foreground (R-C5, R-B10).
        public var insufficientlyInUse: Bool
        /// The app must hold a `CLServiceSession`. Never set (R-C1).
        public var serviceSessionRequired: Bool

        init(_ world: SessionDiagnostic) {
            authorizationDenied = world.authorizationDenied
            authorizationDeniedGlobally = false
            authorizationRequestInProgress = false
            authorizationRestricted = false
            insufficientlyInUse = world.insufficientlyInUse
            serviceSessionRequired = world.serviceSessionRequired
        }
    }

    /// `CLBackgroundActivitySession.Diagnostics`: the sequence `diagnostics` returns.
    public typealias Diagnostics = CLSessionDiagnostics<Diagnostic>

    private let session: BackgroundActivitySession?
    private let feed = SessionDiagnosticFeed<Diagnostic>()

    /// `init()`: begins the session in the calling process.
    public init() {
        session = ProcessScope.current?.services.map(BackgroundActivitySession.init)
        feed.attach(to: session, convert: Diagnostic.init)
    }

    /// `diagnostics` (iOS 18): the session's diagnostics as the system sends them.
    public var diagnostics: Diagnostics { Diagnostics { [feed] in feed.subscribe() } }

    /// `invalidate()`: the session ends when the callback returns, and so do its diagnostics'
    /// iterations.
    public func invalidate() {
        session?.invalidate()
        feed.finish()
    }
}

/// `CLServiceSession` (iOS 18): declares the authorization the app's features need while it
/// is held (R-B9). For an Always app it keeps the grant across a termination; with live
/// updates it lets a force-quit app be relaunched when the device moves (R-B4). It belongs to
/// the process that made it. Made outside a simulated process it is detached and does
/// nothing. `diagnostics` (`CLSessionDiagnostics`) says, each time it changes, whether the
/// requirement is met and why not.
public final class CLServiceSession: @unchecked Sendable {
    /// `CLServiceSession.Diagnostic`: why the session's requirement is not met, if it is not.
    public struct Diagnostic: Sendable, Equatable {
        /// The session requires Always and the app has When In Use (R-B9).
        public var alwaysAuthorizationDenied: Bool
        /// The user denied the app location access (R-A3).
        public var authorizationDenied: Bool
        /// Location Services are off for the whole device. Not modelled: always false.
        public var authorizationDeniedGlobally: Bool
        /// An authorization prompt is showing. Not modelled: always false.
        public var authorizationRequestInProgress: Bool
        /// The app's authorization is restricted. Not modelled: always false.
        public var authorizationRestricted: Bool
        /// The session requires full accuracy and the app has reduced accuracy (R-F10).
        public var fullAccuracyDenied: Bool
        /// The app is not in use enough for the requirement. Never set for a service session
        /// here (the world sets it only for a deferred background activity session).
        public var insufficientlyInUse: Bool
        /// Never set (`NSLocationRequireExplicitServiceSession` is not modelled, R-C1).
        public var serviceSessionRequired: Bool

        init(_ world: SessionDiagnostic) {
            alwaysAuthorizationDenied = world.alwaysAuthorizationDenied
            authorizationDenied = world.authorizationDenied
            authorizationDeniedGlobally = false
            authorizationRequestInProgress = false
            authorizationRestricted = false
            fullAccuracyDenied = world.fullAccuracyDenied
            insufficientlyInUse = world.insufficientlyInUse
            serviceSessionRequired = world.serviceSessionRequired
        }
    }

    /// `CLServiceSession.Diagnostics`: the sequence `diagnostics` returns.
    public typealias Diagnostics = CLSessionDiagnostics<Diagnostic>

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
    private let feed = SessionDiagnosticFeed<Diagnostic>()

    /// `init(authorization:)`.
    public convenience init(authorization: AuthorizationRequirement) {
        self.init(authorization: authorization, fullAccuracy: false)
    }

    /// `init(authorization:fullAccuracyPurposeKey:)`: also requires full accuracy (R-F10).
    public convenience init(
        authorization: AuthorizationRequirement, fullAccuracyPurposeKey: String
    ) {
        self.init(authorization: authorization, fullAccuracy: true)
    }

    private init(authorization: AuthorizationRequirement, fullAccuracy: Bool) {
        session = ProcessScope.current?.services.map {
            ServiceSession(
                services: $0, authorization: authorization.world, fullAccuracy: fullAccuracy)
        }
        feed.attach(to: session, convert: Diagnostic.init)
    }

    /// `diagnostics`: the session's diagnostics as the system sends them.
    public var diagnostics: Diagnostics { Diagnostics { [feed] in feed.subscribe() } }

    /// `invalidate()`: the session ends when the callback returns, and so do its diagnostics'
    /// iterations.
    public func invalidate() {
        session?.invalidate()
        feed.finish()
    }
}

/// `CLServiceSession.Diagnostics` and `CLBackgroundActivitySession.Diagnostics`: the
/// asynchronous sequence of a session's diagnostics. An iteration begins with the last
/// diagnostic the system sent the session, if any, then gets each new one as the process
/// receives it (a suspended app learns a change when it runs again, R-A2). It ends when the
/// session is invalidated, or when the iterating task is cancelled; a session made outside a
/// simulated process has an empty sequence.
public typealias CLSessionDiagnostics<Diagnostic: Sendable> = CLEventSequence<Diagnostic>

/// The diagnostics of one session object, handed to every iteration of its `diagnostics`.
/// Only the simulation's thread touches it (the process's callbacks and jobs), hence
/// `@unchecked Sendable`.
final class SessionDiagnosticFeed<Diagnostic: Sendable>: @unchecked Sendable {
    private var last: Diagnostic?
    private var iterations: [AsyncStream<Diagnostic>.Continuation] = []
    private var finished = false

    /// Takes the world session's last diagnostic and follows its next ones (none for a
    /// session made outside a simulated process).
    func attach(
        to session: (any DiagnosticSource)?,
        convert: @escaping (SessionDiagnostic) -> Diagnostic
    ) {
        last = session?.diagnostic.map(convert)
        session?.diagnosticHandler = { [weak self] in self?.send(convert($0)) }
    }

    /// A new iteration: the last diagnostic first, if any, then every new one.
    func subscribe() -> AsyncStream<Diagnostic> {
        let (stream, continuation) = AsyncStream<Diagnostic>.makeStream()
        if let last { continuation.yield(last) }
        if finished {
            continuation.finish()
        } else {
            iterations.append(continuation)
        }
        return stream
    }

    private func send(_ diagnostic: Diagnostic) {
        last = diagnostic
        for iteration in iterations { iteration.yield(diagnostic) }
    }

    func finish() {
        finished = true
        for iteration in iterations { iteration.finish() }
        iterations = []
    }
}
