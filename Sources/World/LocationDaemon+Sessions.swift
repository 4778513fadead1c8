// The location daemon's session diagnostics (layer 3): what it tells a session object of its
// session, whenever that changes.
import Simulation

extension LocationDaemon {
    /// Sends each observed session's diagnostic to the current process when it differs from the
    /// last one sent (the first time, at once). Called after every message the daemon handles,
    /// so a change of authorization, accuracy, foreground or the session itself is told in the
    /// same instant. Only session objects observe: first-form sessions send nothing. Once
    /// every diagnostic is told, nothing changes until what they are worked out from does
    /// (`sessionDiagnosticsBasis`), so a message that changed none of it is passed at once.
    func reportSessionDiagnostics(_ context: inout Scheduler<WorldMessage>) {
        let basis = (
            generation: generation, exists: processState.exists, authorization: authorization,
            accuracy: accuracy, sessionChanges: objects.sessionChanges
        )
        if let last = sessionDiagnosticsBasis, last == basis { return }
        sessionDiagnosticsBasis = basis
        guard processState.exists, !observedSessions.isEmpty else { return }
        for index in observedSessions.indices {
            guard let diagnostic = diagnostic(ofSession: observedSessions[index].id),
                diagnostic != observedSessions[index].told
            else { continue }
            changeObjects { $0.observedSessions[index].told = diagnostic }
            sendToApp(.sessionDiagnostic(observedSessions[index].id, diagnostic), &context)
        }
    }

    /// The diagnostic of session `id`, if it is held.
    ///
    /// - A background activity session is active once it is effective (begun in the
    ///   foreground, or within the rejoin window of a relaunch) and the app has When In Use or
    ///   Always; one deferred to the next foreground is `insufficientlyInUse` (R-C5, R-B10).
    /// - A service session is active when its requirement is met (R-B9): `.none` unless access
    ///   is denied, `.whenInUse` with When In Use or Always, `.always` with Always only
    ///   (`alwaysAuthorizationDenied` under When In Use), and full accuracy if it requires it
    ///   (`fullAccuracyDenied` under reduced accuracy).
    func diagnostic(ofSession id: ObjectID) -> SessionDiagnostic? {
        let denied = authorization == .denied
        let authorized = authorization == .whenInUse || authorization == .always
        if activitySessions.contains(id) {
            return SessionDiagnostic(isActive: authorized, authorizationDenied: denied)
        }
        if deferredSessions.contains(id) {
            return SessionDiagnostic(
                isActive: false, insufficientlyInUse: true, authorizationDenied: denied)
        }
        guard let session = serviceSessions.first(where: { $0.id == id }) else { return nil }
        let met =
            switch session.requirement {
            case .none: !denied
            case .whenInUse: authorized
            case .always: authorization == .always
            }
        let alwaysDenied = session.requirement == .always && authorization == .whenInUse
        let accuracyDenied = session.fullAccuracy && accuracy == .reduced
        return SessionDiagnostic(
            isActive: met && !accuracyDenied, authorizationDenied: denied,
            alwaysAuthorizationDenied: alwaysDenied, fullAccuracyDenied: accuracyDenied)
    }
}
