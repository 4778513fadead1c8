// A background `URLSession`'s uploads (layer 3): the system's transfer service, which carries
// an app's upload on while the app is suspended or after iOS ended it, and relaunches the app
// with the session's events when the session's work is done (R-H5–R-H9).
import Simulation

/// One task of a background session, as the app names it: the session's identifier
/// (`URLSessionConfiguration.background(withIdentifier:)`) and the task's `taskIdentifier`.
///
/// The system numbers the tasks of an app from 1, across its processes, so a task made by a
/// process that has since ended keeps its number when a later process hears of it.
public struct BackgroundTransferID: Hashable, Sendable, CustomStringConvertible {
    /// The background session's identifier.
    public var session: String
    /// `URLSessionTask.taskIdentifier`.
    public var taskIdentifier: Int

    package init(session: String, taskIdentifier: Int) {
        self.session = session
        self.taskIdentifier = taskIdentifier
    }

    public var description: String { "background task \(session)#\(taskIdentifier)" }
}

/// What a background session's configuration says about its transfers (R-H6, R-H9).
public struct BackgroundTransferOptions: Sendable, Equatable {
    /// `sessionSendsLaunchEvents` (default true): the system resumes or launches the app in
    /// the background when the session's transfers are done (R-H6). False: the events wait
    /// until the app runs again.
    public var sendsLaunchEvents: Bool
    /// `isDiscretionary` (default false): the system may wait for better conditions before it
    /// begins the transfer (R-H9, `IOSPolicy.backgroundTransferDiscretionaryDelay`). A transfer
    /// the app starts while it is in the background is discretionary whatever this says.
    public var isDiscretionary: Bool

    public init(sendsLaunchEvents: Bool = true, isDiscretionary: Bool = false) {
        self.sendsLaunchEvents = sendsLaunchEvents
        self.isDiscretionary = isDiscretionary
    }
}

/// How one background transfer ended, as the session's delegate is told
/// (`urlSession(_:task:didCompleteWithError:)`): the server's answer, or a cancellation that
/// names its rule (a force-quit, R-H7; an upload from data whose process ended, R-H5).
public struct BackgroundTransferEvent: Sendable, Equatable, CustomStringConvertible {
    public var task: BackgroundTransferID
    public var result: UploadResult
    /// The app's own label for the task (`URLSessionTask.taskDescription`), kept by the system
    /// with the transfer and handed back with its end, in whatever process gets it.
    public var taskDescription: String?
    /// The URL of the task's request (`URLSessionTask.originalRequest`), kept by the system
    /// with the transfer like `taskDescription`.
    public var requestURL: String?

    package init(
        task: BackgroundTransferID, result: UploadResult, taskDescription: String? = nil,
        requestURL: String? = nil
    ) {
        self.task = task
        self.result = result
        self.taskDescription = taskDescription
        self.requestURL = requestURL
    }

    public var description: String { "\(task) completed: \(result)" }
}

/// A background upload as the app process hands it to the system's transfer service.
package struct BackgroundUploadRequest: Sendable, Equatable, CustomStringConvertible {
    package var task: BackgroundTransferID
    package var batch: UploadBatch
    /// `earliestBeginDate`, as a delay from the request.
    package var earliestBeginDelay: VirtualDuration
    package var options: BackgroundTransferOptions
    /// `uploadTask(with:fromFile:)` (true) or `uploadTask(with:from:)` (false): an upload from
    /// data fails when the process that made it ends (R-H5).
    package var fromFile: Bool
    /// Set by the app process: the app was not in the foreground, so the transfer is
    /// discretionary (R-H9).
    package var startedInBackground = false
    /// Set by the app process: the process that made it.
    package var generation = 0
    /// `URLSessionTask.taskDescription` at `resume()`, returned with the task's end.
    package var taskDescription: String?
    /// The URL of the task's request, returned with the task's end.
    package var requestURL: String?

    package var description: String {
        "\(task) \(batch)" + (fromFile ? "" : " from data")
            + (earliestBeginDelay == .zero ? "" : " after \(earliestBeginDelay)")
            + (options.isDiscretionary || startedInBackground ? " discretionary" : "")
            + (options.sendsLaunchEvents ? "" : " without launch events")
    }
}

/// Which background transfers the app process asks the transfer service to cancel.
package enum BackgroundTransferCancellation: Sendable, Equatable, CustomStringConvertible {
    /// The user force-quit the app: every transfer of every session (R-H7).
    case forceQuit
    /// Process `generation` ended: its uploads from data fail (R-H5).
    case uploadsFromData(generation: Int, TerminationCause)
    /// The app cancelled this task (`URLSessionTask.cancel()`): if it has not reached the
    /// server it ends with `UploadError.cancelledByApp`.
    case task(BackgroundTransferID)

    package var description: String {
        switch self {
        case .forceQuit: "all (force-quit)"
        case .task(let task): "\(task) (cancelled by the app)"
        case .uploadsFromData(let generation, let cause):
            "uploads from data of process \(generation) (\(cause.rawValue))"
        }
    }
}

/// The system's background transfer service, owned by the `Network` actor (it needs the
/// network's condition and the server; on iOS it is a daemon of its own, `nsurlsessiond`).
///
/// States of a transfer: `scheduled` until its earliest begin date (plus the discretionary
/// delay, R-H9); `waiting` while the network is down (R-H8: background sessions always wait
/// for connectivity); `inFlight` for `backgroundTransferDuration` (plus a slow network's extra
/// latency), after which the server accepts its batch. One that reaches its end while the
/// network is down waits and begins again when the network is up (R-H8). Transitions out:
/// accepted, or cancelled (force-quit, R-H7; an upload from data whose process ended, R-H5).
/// Each end goes to the operating system, which resumes or relaunches the app when the
/// session's last transfer is done (R-H6).
struct BackgroundTransferService {
    enum Phase: Equatable { case scheduled, waiting, inFlight }

    struct Transfer {
        var request: BackgroundUploadRequest
        var phase: Phase
        var timer: EventHandle?
    }

    // invariant: in the order received; one entry per task
    var transfers: [Transfer] = []

    func index(of task: BackgroundTransferID) -> Int? {
        transfers.firstIndex { $0.request.task == task }
    }

    /// True when a transfer of `session` is not yet done.
    func hasTransfers(of session: String) -> Bool {
        transfers.contains { $0.request.task.session == session }
    }
}

extension Network {
    /// A background upload handed to the system: scheduled after its earliest begin date,
    /// and the discretionary delay when it is discretionary (R-H9).
    func receiveBackgroundUpload(
        _ request: BackgroundUploadRequest, _ context: inout Scheduler<WorldMessage>
    ) {
        precondition(backgroundTransfers.index(of: request.task) == nil, "a task is sent once")
        let discretionary = request.options.isDiscretionary || request.startedInBackground
        let delay =
            request.earliestBeginDelay
            + (discretionary ? policy.backgroundTransferDiscretionaryDelay : .zero)
        let timer = context.setTimer(
            after: delay, .networkTimer(.backgroundBegin(request.task)))
        backgroundTransfers.transfers.append(
            BackgroundTransferService.Transfer(request: request, phase: .scheduled, timer: timer))
    }

    /// A timer of the transfer service came due.
    func backgroundTimer(_ timer: NetworkTimer, _ context: inout Scheduler<WorldMessage>) {
        switch timer {
        case .backgroundBegin(let task):
            guard let index = backgroundTransfers.index(of: task) else { return }
            beginBackgroundTransfer(at: index, &context)
        case .backgroundArrive(let task):
            guard let index = backgroundTransfers.index(of: task) else { return }
            backgroundTransfers.transfers[index].timer = nil
            guard condition != .down else {
                // R-H8: cut by the network; it begins again when the network is up.
                backgroundTransfers.transfers[index].phase = .waiting
                return
            }
            let transfer = backgroundTransfers.transfers.remove(at: index)
            let served = serve(
                UploadRequest(
                    task: UploadTaskID(transfer.request.task.taskIdentifier),
                    batch: transfer.request.batch, earliestBeginDelay: .zero),
                at: context.now)
            finishBackgroundTransfer(transfer.request, served, &context)
        default: break
        }
    }

    /// The network is up (or slow) again: the transfers waiting for it begin, in the order
    /// received (R-H8).
    func resumeWaitingBackgroundTransfers(_ context: inout Scheduler<WorldMessage>) {
        guard condition != .down else { return }
        for index in backgroundTransfers.transfers.indices
        where backgroundTransfers.transfers[index].phase == .waiting {
            beginBackgroundTransfer(at: index, &context)
        }
    }

    /// Cancels the transfers `cancellation` names, each ending with its reason (R-H5, R-H7).
    func cancelBackgroundTransfers(
        _ cancellation: BackgroundTransferCancellation, _ context: inout Scheduler<WorldMessage>
    ) {
        let error: UploadError
        let cancels: (BackgroundUploadRequest) -> Bool
        switch cancellation {
        case .forceQuit:
            error = .cancelled(.processEnded(.forceQuit))
            cancels = { _ in true }
        case .uploadsFromData(let generation, let cause):
            error = .cancelled(.processEnded(cause))
            cancels = { !$0.fromFile && $0.generation == generation }
        case .task(let task):
            error = .cancelledByApp
            cancels = { $0.task == task }
        }
        let cancelled = backgroundTransfers.transfers.filter { cancels($0.request) }
        backgroundTransfers.transfers.removeAll { cancels($0.request) }
        for transfer in cancelled {
            if let timer = transfer.timer { context.cancel(timer) }
            finishBackgroundTransfer(transfer.request, .failed(error), &context)
        }
    }

    // MARK: - Internals

    private func beginBackgroundTransfer(at index: Int, _ context: inout Scheduler<WorldMessage>) {
        let latency: VirtualDuration
        switch condition {
        case .down:
            backgroundTransfers.transfers[index].phase = .waiting  // R-H8
            backgroundTransfers.transfers[index].timer = nil
            return
        case .up: latency = policy.backgroundTransferDuration + serverExtraLatency
        case .slow(let extra):
            latency = policy.backgroundTransferDuration + extra + serverExtraLatency
        }
        let task = backgroundTransfers.transfers[index].request.task
        backgroundTransfers.transfers[index].phase = .inFlight
        backgroundTransfers.transfers[index].timer = context.setTimer(
            after: latency, .networkTimer(.backgroundArrive(task)))
    }

    /// Tells the operating system how the transfer ended, and whether its session has work
    /// left (R-H6).
    private func finishBackgroundTransfer(
        _ request: BackgroundUploadRequest, _ result: UploadResult,
        _ context: inout Scheduler<WorldMessage>
    ) {
        let finished = !backgroundTransfers.hasTransfers(of: request.task.session)
        context.send(
            .backgroundTransferDone(
                BackgroundTransferEvent(
                    task: request.task, result: result, taskDescription: request.taskDescription,
                    requestURL: request.requestURL),
                sessionFinished: finished, sendsLaunchEvents: request.options.sendsLaunchEvents),
            to: operatingSystem)
    }
}

/// The ends of background transfers the operating system holds for an app that is not
/// running, in the order they came (R-H6, R-H7).
struct BackgroundSessionEvents {
    // invariant: in arrival order
    private(set) var held: [BackgroundTransferEvent] = []

    mutating func hold(_ event: BackgroundTransferEvent) { held.append(event) }

    /// Takes the held events of `session`, or of every session (nil), in arrival order.
    mutating func take(session: String?) -> [BackgroundTransferEvent] {
        let taken = held.filter { session == nil || $0.task.session == session }
        held.removeAll { session == nil || $0.task.session == session }
        return taken
    }
}

extension OperatingSystem {
    /// A background transfer ended (R-H6): a running app's session is told at once; otherwise
    /// the end is held, and when it was the session's last transfer the app is resumed, or
    /// launched into the background, with the session's events, unless the session does not
    /// send launch events or the user force-quit the app (R-H7): then the events wait until the
    /// app runs again.
    func backgroundTransferDone(
        _ event: BackgroundTransferEvent, sessionFinished: Bool, sendsLaunchEvents: Bool,
        _ context: inout Scheduler<WorldMessage>
    ) {
        if state.isRunning {
            deliverToApp(.backgroundTransferCompleted(event), &context)
            return
        }
        backgroundSessionEvents.hold(event)
        guard sessionFinished, sendsLaunchEvents, lastTermination != .forceQuit else { return }
        let session = event.task.session
        let events = backgroundSessionEvents.take(session: session)
        switch state {
        case .suspended:
            resumeForWake(&context)
        case .notRunning, .terminated:
            launchForWake(&context)
        case .foreground, .background:
            preconditionFailure("a running app was told at once")
        }
        startWake(.backgroundURLSession(identifier: session), &context)
        for event in events { deliverToApp(.backgroundTransferCompleted(event), &context) }
        deliverToApp(.backgroundSessionEventsFinished(session: session), &context)
    }

    /// The app runs again (the user opened it, or the system resumed or launched it for
    /// something else): the held ends of background transfers reach its sessions (R-H6, R-H7).
    func deliverHeldBackgroundTransferEvents(_ context: inout Scheduler<WorldMessage>) {
        guard !backgroundSessionEvents.held.isEmpty else { return }
        for event in backgroundSessionEvents.take(session: nil) {
            deliverToApp(.backgroundTransferCompleted(event), &context)
        }
    }
}

extension NetworkTimer {
    /// True for the transfer service's timers.
    var isBackgroundTransferTimer: Bool {
        switch self {
        case .backgroundBegin, .backgroundArrive: true
        case .begin, .arrive: false
        }
    }
}
