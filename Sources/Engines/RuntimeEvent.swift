// The events only LocationRuntime tells its host app (layer 4): carried in the one stream of
// `TrackingEvent`s as `.runtime(_)`, beside the fixes, starts and stops every engine tells.
import World

/// Which of `LocationRuntime`'s sessions a diagnostic is about.
public enum RuntimeSession: String, Sendable, Equatable {
    /// The `ServiceSession` (R-B9).
    case service
    /// The `BackgroundActivitySession` of a workout (R-C5).
    case backgroundActivity = "background-activity"
}

/// One event of `LocationRuntime` beyond those every tracking engine tells (source A: "expose
/// one AsyncStream of events"; here one array and a closure, as nothing in a run uses Swift
/// concurrency).
public enum RuntimeEvent: Sendable, Equatable, CustomStringConvertible {
    /// The features were saved to the saved record (a feature started or stopped, R-A14).
    case featuresSaved(LocationFeatures)
    /// The saved record held a features text this runtime cannot read: it restores nothing.
    case savedFeaturesUnreadable
    /// The runtime asked the user for this authorization (in the foreground only).
    case authorizationRequested(Authorization)
    /// A launch recreated these objects from the saved features, in this order (R-A14).
    case restored([Restoration])
    /// A watched place's condition changed: an exit is `unsatisfied`, an entry `satisfied`
    /// (R-F8), possibly the event that relaunched the app (R-A12).
    case place(MonitorEvent)
    /// A significant location change (commute detection, R-F7).
    case significantChange(Fix)
    /// A session's diagnostic changed (R-B9, R-C5).
    case sessionDiagnostic(RuntimeSession, SessionDiagnostic)

    public var description: String {
        switch self {
        case .featuresSaved(let features): "features saved: \(features)"
        case .savedFeaturesUnreadable: "saved features unreadable: nothing restored"
        case .authorizationRequested(let authorization):
            "authorization requested: \(authorization.rawValue)"
        case .restored(let steps):
            "restored [\(steps.map(\.description).joined(separator: ", "))]"
        case .place(let event): "place \(event)"
        case .significantChange(let fix): "significant change \(fix)"
        case .sessionDiagnostic(let session, let diagnostic):
            "\(session.rawValue) session \(diagnostic)"
        }
    }
}
