// The wake paths that are not location events (layer 3): a `BGTaskScheduler` app refresh and a
// silent push, each of which runs the app in the background for a bounded time (R-H1–R-H4).
import Simulation

/// Why the system runs the app in the background for a bounded time, outside location: an app
/// refresh task the app submitted (R-H1, R-H3), a silent push (R-H4), or the events of a
/// background `URLSession` whose transfers are done (R-H6).
public enum WakeKind: Sendable, Equatable, CustomStringConvertible {
    /// A `BGAppRefreshTaskRequest` with this identifier came due (R-H1).
    case appRefresh(identifier: String)
    /// A background (silent) remote notification arrived (`UserAction.silentPush`, R-H4).
    case remoteNotification
    /// Every transfer of the background session `identifier` is done and the app was not
    /// running: `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, whose
    /// completion handler completes the wake (R-H6). The session's events follow it.
    case backgroundURLSession(identifier: String)
    /// A `BGProcessingTaskRequest` with this identifier came due and its requirements hold
    /// (R-H10).
    case processing(identifier: String)

    /// True for the task requests Background App Refresh governs (R-H12).
    var needsBackgroundRefresh: Bool {
        switch self {
        case .appRefresh, .processing: true
        case .remoteNotification, .backgroundURLSession: false
        }
    }

    /// The rule by which the system runs the app for it.
    var rule: String {
        switch self {
        case .appRefresh: "R-H1"
        case .remoteNotification: "R-H4"
        case .backgroundURLSession: "R-H6"
        case .processing: "R-H10"
        }
    }

    public var description: String {
        switch self {
        case .appRefresh(let identifier): "app refresh \(identifier)"
        case .remoteNotification: "remote notification"
        case .backgroundURLSession(let identifier): "background session \(identifier) events"
        case .processing(let identifier): "processing \(identifier)"
        }
    }
}

/// The handle of one wake: a `BGAppRefreshTask`, or a remote notification's fetch completion
/// handler. Numbered by the operating system across processes, so a completion from a process
/// that did not get the wake matches nothing.
public struct WakeTaskID: Hashable, Sendable, CustomStringConvertible {
    package let value: Int
    package init(_ value: Int) { self.value = value }
    public var description: String { "wake \(value)" }
}
