// What the system hands the app (layer 3), and why something meant for it never arrived: the
// words of the one delivery path (`AppMailbox`).
import Simulation

/// One thing for the app's code: a location, an error, a monitoring event or a system
/// callback. Everything the location daemon and the operating system have for the app goes
/// through the app's mailbox as one of these, which delivers it, holds it, or drops it with a
/// `DropReason`.
public enum AppItem: Sendable, Equatable, CustomStringConvertible {
    /// A location from a manager or a live-updates stream.
    case location(LocationUpdate)
    /// `didFailWithError` on a manager.
    case failure(LocationError, manager: ObjectID)
    /// `monitoringDidFailFor` a legacy region (R-F8, R-F10).
    case monitoringFailure(region: String, LocationError, manager: ObjectID)
    /// `didStartMonitoringFor` a legacy region the daemon now monitors (R-G4).
    case monitoringStarted(region: String, manager: ObjectID)
    /// `didDetermineState`: the answer to `requestState(for:)` (R-G3), inside (`satisfied`),
    /// outside (`unsatisfied`) or `unknown`.
    case regionState(region: String, ConditionState, manager: ObjectID)
    /// A significant-change, region, condition or visit event: meant for whichever process
    /// listens for it, including one launched for it (R-A10, R-A12).
    case event(MonitoringEvent)
    /// The authorization changed.
    case authorization(Authorization)
    /// The accuracy authorization changed (the user turned precise location on or off). Sent
    /// only to a process with a delegate on a manager, as Core Location calls
    /// `locationManagerDidChangeAuthorization` only on a delegate (and once when the delegate
    /// is set, if the accuracy changed since the app was last told).
    case accuracyAuthorization(AccuracyAuthorization)
    /// `locationManagerDidPauseLocationUpdates`: the manager's updates paused automatically
    /// (R-F4); sent only for a manager with a delegate.
    case locationUpdatesPaused(manager: ObjectID)
    /// `locationManagerDidResumeLocationUpdates`: the app restarted the paused manager's
    /// updates (R-F4); sent only for a manager with a delegate.
    case locationUpdatesResumed(manager: ObjectID)
    /// The first unlock after a boot made saved data readable (R-D9).
    case protectedDataAvailable
    /// A background task's time is up (R-F1).
    case backgroundTaskExpiring(ObjectID)
    /// A commit of the app's store completed: its rows are durable. Not an iOS callback but
    /// the app's own completion; it runs only while the process runs, so it goes through the
    /// mailbox like the others.
    case storeDidCommit(CommitID)
    /// An upload request ended (`URLSession`'s `didCompleteWithError`): the server's answer, a
    /// network failure, or a cancellation naming its rule. The app's own request: it runs only
    /// while the process runs, and dies with it.
    case uploadCompleted(UploadTaskID, UploadResult)
    /// A session object's diagnostic changed (`SessionDiagnostic`): sent by the daemon to the
    /// process that made the session, only for session objects, which observe it.
    case sessionDiagnostic(ObjectID, SessionDiagnostic)
    /// The records of a `Monitor`'s conditions, sent to the process that opened it (R-A12: a
    /// relaunched app learns what happened while it was not running).
    case monitorRecords(monitor: String, [MonitorRecord])
    /// A timer the app scheduled came due (`LocationServices.scheduledTimer(after:)`): the
    /// app's own, it runs only while the process runs, and dies with it.
    case timerFired(ObjectID)
    /// The user turned tracking on (true) or off in the app's UI (`UserAction.trackingOn`,
    /// `.trackingOff`): sent by the operating system once the app is in the foreground.
    case trackingToggled(on: Bool)
    /// The system runs the app in the background for `WakeKind` (R-H1, R-H4): the engine's
    /// `didBeginWake`. It keeps the app running until the engine completes it or its time is
    /// up (R-H3, R-H4).
    case wake(WakeTaskID, WakeKind)
    /// An app refresh task's time is up (R-H3): the engine's `wakeWillExpire`.
    case wakeExpiring(WakeTaskID)
    /// A background `URLSession` transfer ended (R-H5–R-H7): the engine's
    /// `didCompleteBackgroundTransfer` (`urlSession(_:task:didCompleteWithError:)`). Boxed, as
    /// `MonitoringEvent.conditionChanged` is, to keep every other item small.
    indirect case backgroundTransferCompleted(BackgroundTransferEvent)
    /// Every event of the background session `session` has been delivered, after a wake for it
    /// (R-H6): the engine's `backgroundSessionDidFinishEvents`
    /// (`urlSessionDidFinishEvents(forBackgroundURLSession:)`).
    indirect case backgroundSessionEventsFinished(session: String)
    /// The system's answer to the request `request` the app made with a completion handler
    /// (`SystemAnswer`): the completion's call. Boxed, as the transfers above are.
    indirect case answer(request: ObjectID, SystemAnswer)

    public var description: String {
        switch self {
        case .location(let update): "\(update)"
        case .failure(let error, let manager): "manager \(manager) failed: \(error.rawValue)"
        case .monitoringFailure(let region, let error, let manager):
            "manager \(manager) monitoring \(region) failed: \(error.rawValue)"
        case .monitoringStarted(let region, let manager):
            "manager \(manager) monitoring \(region) started"
        case .regionState(let region, let state, let manager):
            "manager \(manager) region \(region) state \(state.rawValue)"
        case .event(let event): "\(event)"
        case .authorization(let value): "authorization \(value.rawValue)"
        case .accuracyAuthorization(let value): "accuracy authorization \(value.rawValue)"
        case .locationUpdatesPaused(let manager): "manager \(manager) paused updates"
        case .locationUpdatesResumed(let manager): "manager \(manager) resumed updates"
        case .protectedDataAvailable: "protected data available"
        case .backgroundTaskExpiring(let task): "background task \(task) expiring"
        case .storeDidCommit(let commit): "store \(commit) completed"
        case .uploadCompleted(let task, let result): "\(task) completed: \(result)"
        case .sessionDiagnostic(let session, let diagnostic):
            "session \(session) diagnostic \(diagnostic)"
        case .monitorRecords(let monitor, let records):
            "monitor \(monitor) records [\(records.map(\.description).joined(separator: "; "))]"
        case .timerFired(let timer): "timer \(timer) fired"
        case .trackingToggled(let on): "user turned tracking \(on ? "on" : "off")"
        case .wake(let task, let kind): "\(kind) (\(task))"
        case .wakeExpiring(let task): "\(task) expiring"
        case .backgroundTransferCompleted(let event): "\(event)"
        case .backgroundSessionEventsFinished(let session):
            "background session \(session) events finished"
        case .answer(let request, let answer): "answer to \(request): \(answer)"
        }
    }
}

/// Why something meant for the app never reached its code, naming the rule of
/// `docs/rules.md` that loses it. Every drop is recorded in the trace and the app's
/// log, so an invariant can tell a loss that iOS causes from one that the engine causes.
public enum DropReason: Sendable, Equatable, CustomStringConvertible {
    /// No location authorization (R-A3).
    case notAuthorized
    /// A When In Use app in the background without background configuration, after its grace
    /// (R-A4, R-A5).
    case whenInUseGraceOver
    /// The process it was meant for has ended (R-A1; R-F3 for memory: no callback).
    case processEnded(TerminationCause)
    /// A suspended app's queue was full: the oldest item goes (R-A2, `queuedUpdateCountMax`).
    case queueFull
    /// A relaunched or running app did not recreate the service that listens for the event
    /// within the window (R-A12, `backgroundWakeRuntime`).
    case noListener
    /// The device rebooted: events not yet delivered do not survive it, registrations do
    /// (R-B7).
    case reboot
    /// The operating system does not relaunch the app for this event: not Always (R-F5), or
    /// after a force-quit the preset does not allow it (R-B4, R-B5, R-B6); `rule` names which.
    ///
    /// `indirect` (its string boxed): inline, the string made every reason 17 bytes and so
    /// `WorldMessage` 129, one past the 128 bytes that Swift copies with inline moves; every
    /// copy and move of a message (several per delivery) was a call to `memcpy`. This reason
    /// is rare, so the box costs little.
    indirect case notRelaunched(rule: String)
    /// The device has not been unlocked since it booted: the app's data cannot be written
    /// (R-D9).
    case protectedDataUnavailable
    /// The process was suspended while its upload was in flight outside a background task: a
    /// suspended app runs no code, and its request is cancelled (R-D13).
    case suspendedWithoutBackgroundTask

    /// The rule that loses the item.
    public var rule: String {
        switch self {
        case .notAuthorized: "R-A3"
        case .whenInUseGraceOver: "R-A4"
        case .processEnded(.memory): "R-F3"
        case .processEnded: "R-A1"
        case .queueFull: "R-A2"
        case .noListener: "R-A12"
        case .reboot: "R-B7"
        case .notRelaunched(let rule): rule
        case .protectedDataUnavailable: "R-D9"
        case .suspendedWithoutBackgroundTask: "R-D13"
        }
    }

    public var description: String {
        let why =
            switch self {
            case .notAuthorized: "not authorized"
            case .whenInUseGraceOver: "When In Use grace over"
            case .processEnded(let cause): "process ended (\(cause.rawValue))"
            case .queueFull: "suspended queue full"
            case .noListener: "no listener recreated in time"
            case .reboot: "device rebooted"
            case .notRelaunched: "the app is not relaunched for it"
            case .protectedDataUnavailable: "protected data unavailable"
            case .suspendedWithoutBackgroundTask: "suspended outside a background task"
            }
        return "\(why), \(rule)"
    }
}

extension AppItem {
    /// True for the items that R-A2's bound (`queuedUpdateCountMax`) applies to: queued
    /// location updates. Errors, events and callbacks are not discarded to make room for
    /// fixes, and the completions of the app's own commits and uploads are work the process
    /// already has: they wait until the process runs (or die with it).
    var isBoundByQueue: Bool {
        if case .location = self { true } else { false }
    }
}
