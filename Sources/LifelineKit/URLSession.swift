// A background `URLSession` with Apple's names (layer 4): upload tasks that the system's
// transfer service carries on after the app is suspended or ended, and the session delegate's
// calls when they end (R-H5–R-H9), over the world's `UploadSession.backgroundUploadTask`.
//
// On Apple platforms Foundation declares `URLSession`; on Linux FoundationNetworking does. A
// file that imports both Foundation (and FoundationNetworking) and LifelineKit names these
// types in two modules, and Swift does not let an importing module's types shadow them in a
// type position; scoped imports (`import class LifelineKit.URLSession`) take precedence over
// whole-module imports, which is what docs/your-engine.md tells a team to write.
import Foundation
import Simulation
import World

#if canImport(FoundationNetworking)
    import FoundationNetworking
    /// `URLRequest`: Foundation's own, from FoundationNetworking on Linux, so that a tracker that
    /// imports only Foundation and LifelineKit (as its iOS source imports only Foundation)
    /// finds it. An alias, so the type is the same whichever import names it.
    public typealias URLRequest = FoundationNetworking.URLRequest
#endif

/// `URLSessionConfiguration`: the background configuration (`background(withIdentifier:)`),
/// with `sessionSendsLaunchEvents` (R-H6) and `isDiscretionary` (R-H9), and the default one
/// (`default`), whose uploads are the process's own (R-D13). Other configurations and their
/// properties are not here.
open class URLSessionConfiguration: NSObject {
    /// `identifier`: the background session's identifier.
    public let identifier: String?
    /// `sessionSendsLaunchEvents` (default true): the system resumes or launches the app in
    /// the background when the session's transfers are done (R-H6).
    open var sessionSendsLaunchEvents = true
    /// `isDiscretionary` (default false): the system may delay the transfers
    /// (`IOSPolicy.backgroundTransferDiscretionaryDelay`, R-H9). Transfers started while the
    /// app is in the background are discretionary anyway.
    open var isDiscretionary = false

    init(identifier: String?) {
        self.identifier = identifier
        super.init()
    }

    /// `default`: a new standard configuration. A session made with it uploads in the
    /// process's own name (the world's `UploadSession.uploadTask`): a suspension outside a
    /// background task or the end of the process cancels its requests (R-D13, R-A1).
    open class var `default`: URLSessionConfiguration { URLSessionConfiguration(identifier: nil) }

    /// `background(withIdentifier:)`: a configuration whose transfers the system performs in a
    /// separate process (R-H5). The identifier must not be empty.
    open class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
        precondition(!identifier.isEmpty, "a background session's identifier is not empty")
        return URLSessionConfiguration(identifier: identifier)
    }

    /// The world's options for this configuration's transfers.
    var transferOptions: BackgroundTransferOptions {
        BackgroundTransferOptions(
            sendsLaunchEvents: sessionSendsLaunchEvents, isDiscretionary: isDiscretionary)
    }
}

/// `URLSession` with a background configuration, made in a simulated process
/// (`init(configuration:delegate:delegateQueue:)`). Its upload tasks go to the system's
/// transfer service when resumed (R-H5); their ends reach the delegate
/// (`URLSessionTaskDelegate.urlSession(_:task:didCompleteWithError:)`) while the app runs, or,
/// when the app was suspended or ended, after `application(_:handleEventsForBackgroundURLSession:
/// completionHandler:)`, followed by `urlSessionDidFinishEvents(forBackgroundURLSession:)`
/// (R-H6). A relaunched process receives the events once it makes a session with the same
/// identifier, as Apple asks ("recreate the background session … using the same session
/// identifier"). The delegate queue is ignored: the calls run one at a time on the
/// simulation's thread.
///
/// A standard session (`URLSession.shared`, or the `default` configuration) uploads in the
/// process's own name: its request is cancelled by a suspension outside a background task or
/// the end of the process (R-D13, R-A1), and its end goes to the task's completion handler,
/// else to the delegate. Only upload tasks are modelled, in both kinds of session.
open class URLSession: NSObject, @unchecked Sendable {
    /// `configuration`.
    public let configuration: URLSessionConfiguration
    /// `delegate`: held strongly, as `URLSession` holds it.
    public let delegate: (any URLSessionDelegate)?
    /// `delegateQueue`: kept, not used.
    public let delegateQueue: OperationQueue
    private weak var services: LocationServices?
    /// The tasks this session object made or was told of, by `taskIdentifier`, in order.
    private var tasks: [URLSessionTask] = []
    /// Tasks a standard session made so far: the next one's `taskIdentifier`.
    private var standardTaskCount = 0

    /// `shared`: the calling simulated process's shared session, a standard one (`default`
    /// configuration, no delegate): use the completion-handler tasks
    /// (`uploadTask(with:from:completionHandler:)`). A fresh one in every process; outside a
    /// simulated process a detached one, whose tasks never run.
    open class var shared: URLSession {
        guard let scope = ProcessScope.current else {
            return URLSession(configuration: .default, delegate: nil, delegateQueue: nil)
        }
        if let shared = scope.sharedURLSession { return shared }
        let shared = URLSession(configuration: .default, delegate: nil, delegateQueue: nil)
        scope.sharedURLSession = shared
        return shared
    }

    /// `init(configuration:delegate:delegateQueue:)`. Outside a simulated process the session
    /// is detached: its tasks never run.
    public init(
        configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        delegateQueue queue: OperationQueue?
    ) {
        self.configuration = configuration
        self.delegate = delegate
        delegateQueue = queue ?? OperationQueue()
        let scope = ProcessScope.current
        services = scope?.services
        super.init()
        scope?.register(self)
    }

    /// `uploadTask(with:fromFile:)`: an upload of the file at `fileURL`, which the app's
    /// storage seam made with `SimulatedUploadBody.file(for:)` in this process. The one kind
    /// of upload a background session carries on after the app ends (R-H5).
    open func uploadTask(with request: URLRequest, fromFile fileURL: URL) -> URLSessionUploadTask {
        makeTask(request, body: fileURL.path, fromFile: true)
    }

    /// `uploadTask(with:from:)`: an upload of `bodyData`, which the storage seam made with
    /// `SimulatedUploadBody.data(for:)`. A background session accepts it, but it fails when
    /// the process that made it ends ("uploads from data instances or a stream fail after the
    /// app exits", R-H5).
    open func uploadTask(with request: URLRequest, from bodyData: Data) -> URLSessionUploadTask {
        makeTask(request, body: String(decoding: bodyData, as: UTF8.self), fromFile: false)
    }

    /// `getAllTasks(completionHandler:)`: the session's tasks that have not completed, in the
    /// order of their `taskIdentifier`: those this object made and has not seen end (a task not
    /// yet resumed included), and those an earlier process of the app handed the system whose
    /// end has not reached the app yet (reconstituted, with their `taskDescription` and
    /// `originalRequest`, as iOS hands a recreated session its tasks). Apple calls the handler
    /// asynchronously; here it is called at once, before this method returns.
    open func getAllTasks(completionHandler: @escaping @Sendable ([URLSessionTask]) -> Void) {
        var found = tasks.filter { $0.state != .completed }
        if let services, let identifier = configuration.identifier {
            for pending in services.urlSession.pendingBackgroundTasks(session: identifier)
            where !found.contains(where: { $0.taskIdentifier == pending.task.taskIdentifier }) {
                let known = task(pending.task.taskIdentifier)
                guard known.state != .completed else { continue }
                known.adopt(taskDescription: pending.taskDescription, url: pending.requestURL)
                found.append(known)
            }
        }
        completionHandler(found.sorted { $0.taskIdentifier < $1.taskIdentifier })
    }

    /// `uploadTask(with:from:completionHandler:)`: an upload of `bodyData` (made by
    /// `SimulatedUploadBody.data(for:)`) whose end goes to `completionHandler` (data nil, the
    /// `response` and the error), not to the delegate. In a standard session it is the
    /// process's own request (R-D13); in a background session, as `uploadTask(with:from:)`.
    open func uploadTask(
        with request: URLRequest, from bodyData: Data?,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        let task = makeTask(
            request, body: String(decoding: bodyData ?? Data(), as: UTF8.self), fromFile: false)
        task.completionHandler = completionHandler
        return task
    }

    /// `uploadTask(with:fromFile:completionHandler:)`: as `uploadTask(with:fromFile:)`, its end
    /// going to `completionHandler`.
    open func uploadTask(
        with request: URLRequest, fromFile fileURL: URL,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionUploadTask {
        let task = makeTask(request, body: fileURL.path, fromFile: true)
        task.completionHandler = completionHandler
        return task
    }

    // MARK: - Internals

    private func makeTask(_ request: URLRequest, body: String, fromFile: Bool)
        -> URLSessionUploadTask
    {
        guard let identifier = configuration.identifier else {
            return makeStandardTask(request, body: body)
        }
        guard let services, let scope = ProcessScope.current else {
            return URLSessionUploadTask(taskIdentifier: 0, request: request, start: nil)
        }
        guard let batch = scope.uploadBody(body) else {
            preconditionFailure(
                "upload body \(body) was not made by SimulatedUploadBody in this process")
        }
        let options = configuration.transferOptions
        let task = services.urlSession.makeBackgroundTaskID(session: identifier)
        let url = request.url?.absoluteString
        let made = URLSessionUploadTask(taskIdentifier: task.taskIdentifier, request: request) {
            delay, label in
            services.urlSession.backgroundUploadTask(
                task, with: batch, fromFile: fromFile, options: options,
                earliestBeginAfter: delay, taskDescription: label, requestURL: url)
        }
        made.cancelTransfer = { services.urlSession.cancelBackgroundTask(task) }
        tasks.append(made)
        return made
    }

    /// An upload of a standard session: the world's `uploadTask` at `resume()`, its end
    /// handed back by `ApplicationEngine.didCompleteUpload` through the process scope.
    private func makeStandardTask(_ request: URLRequest, body: String) -> URLSessionUploadTask {
        let batch = ProcessScope.current.map { scope in
            guard let batch = scope.uploadBody(body) else {
                preconditionFailure(
                    "upload body \(body) was not made by SimulatedUploadBody in this process")
            }
            return batch
        }
        return makeStandardTask(
            { URLSessionUploadTask(taskIdentifier: $0, request: request, start: nil) }
        ) { uploads, delay in
            // Sent only from a simulated process, where `batch` was found.
            uploads.uploadTask(with: batch!, earliestBeginAfter: delay)
        }
    }

    /// A task of a standard session made by `make` with its `taskIdentifier`, which `send`
    /// hands the world at `resume()`; its end comes back through the process scope. Outside a
    /// simulated process the task is detached: it never runs.
    func makeStandardTask<Task: URLSessionTask>(
        _ make: (Int) -> Task,
        sending send: @escaping (UploadSession, VirtualDuration) -> UploadTaskID
    ) -> Task {
        standardTaskCount += 1
        let made = make(standardTaskCount)
        guard let services, let scope = ProcessScope.current else { return made }
        made.start = { [unowned made] delay, _ in
            let upload = send(services.urlSession, delay)
            scope.register(upload, task: made, session: self)
        }
        tasks.append(made)
        return made
    }

    /// Hands the end of a standard task to its completion handler (the body the server sent,
    /// as `Data`, when it answered; nil when no answer came), or else to the delegate.
    func complete(_ task: URLSessionTask, with result: UploadResult) {
        task.complete(with: result)
        if let handler = task.completionHandler {
            task.completionHandler = nil
            handler(task.responseBody, task.response, task.error)
        } else {
            (delegate as? any URLSessionTaskDelegate)?.urlSession(
                self, task: task, didCompleteWithError: task.error)
        }
    }

    /// The task with `identifier`: one this object made, or one an earlier process made,
    /// reconstituted as iOS does for a recreated session.
    func task(_ identifier: Int) -> URLSessionTask {
        if let known = tasks.first(where: { $0.taskIdentifier == identifier }) { return known }
        let reconstituted = URLSessionUploadTask(
            taskIdentifier: identifier, request: nil, start: nil)
        reconstituted.state = .running  // handed to the system by an earlier process
        tasks.append(reconstituted)
        return reconstituted
    }

    /// Hands the delegate one event of the transfer service.
    func deliver(_ event: BackgroundSessionEvent) {
        switch event {
        case .completed(let completed):
            let task = task(completed.task.taskIdentifier)
            task.adopt(taskDescription: completed.taskDescription, url: completed.requestURL)
            task.complete(with: completed.result)
            (delegate as? any URLSessionTaskDelegate)?.urlSession(
                self, task: task, didCompleteWithError: task.error)
        case .finished:
            delegate?.urlSessionDidFinishEvents(forBackgroundURLSession: self)
        }
    }
}

/// `URLSessionTask`: its `taskIdentifier` (unique among the app's background tasks, across
/// processes), `taskDescription`, `earliestBeginDate`, `originalRequest`, `currentRequest`,
/// `response`, `state`, `error`, `resume()` and `cancel()`.
open class URLSessionTask: NSObject {
    /// `URLSessionTask.State`.
    public enum State: Int, Sendable {
        case running = 0
        case suspended = 1
        case canceling = 2
        case completed = 3
    }

    /// `taskIdentifier`.
    public let taskIdentifier: Int
    /// `earliestBeginDate`: the transfer does not begin before it (read at `resume()`).
    open var earliestBeginDate: Date?
    /// `taskDescription`: the app's own label for the task. The system keeps the label it had
    /// at `resume()` with the transfer, so the task a relaunched process is handed carries it
    /// (how an app tells which of its rows a finished upload held).
    open var taskDescription: String?
    /// `state`: suspended until `resume()`, running, then completed.
    public internal(set) var state = State.suspended
    /// `error`: nil for an upload the server accepted; a `URLError` otherwise.
    public internal(set) var error: (any Error)?
    /// `originalRequest`: the request the task was made with. For a task an earlier process
    /// made (handed to a relaunched process's recreated session), a request for the URL the
    /// system kept with the transfer; its headers and method are not kept.
    public private(set) var originalRequest: URLRequest?
    /// `currentRequest`: the request as it is now, which Apple says is the original request
    /// unless the server redirected it; the world's server never redirects.
    open var currentRequest: URLRequest? { originalRequest }
    /// `response`: the server's answer once the task has ended with one, an `HTTPURLResponse`:
    /// 200 for an upload the server stored (R-N40; R-S2: a repeat is accepted too, "already
    /// have it"), the refusal's status for one it refused (503 or 429 with a `Retry-After`
    /// header in whole seconds, 500; R-N41–R-N43), 200 or 404 for a fetch (R-N45). A failure
    /// of the network (down, lost, timed out) or a cancellation reached no server and has
    /// none (nil), as a `URLError` without a response has on iOS. A server's answer, whatever
    /// its status, ends the task without an error, as on iOS.
    public private(set) var response: URLResponse?
    /// The body the server sent, when it answered (the `data` of a completion handler):
    /// `{"stored":true}` for a stored upload, the resource for a fetch, `{"error":<status>}`
    /// for a refusal or a 404. Nil when no answer came.
    var responseBody: Data?
    /// What `resume()` does: hands the upload to the system with its begin delay.
    var start: ((VirtualDuration, String?) -> Void)?
    /// Where a task made with a completion handler hands its end.
    var completionHandler: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?
    /// What `cancel()` does to a resumed task: asks the system to cancel its transfer.
    var cancelTransfer: (() -> Void)?

    init(
        taskIdentifier: Int, request: URLRequest?, start: ((VirtualDuration, String?) -> Void)?
    ) {
        self.taskIdentifier = taskIdentifier
        originalRequest = request
        self.start = start
        super.init()
    }

    /// `resume()`: hands the upload to the system's transfer service (once).
    open func resume() {
        guard state == .suspended, let start else { return }
        self.start = nil
        state = .running
        var delay = VirtualDuration.zero
        if let begin = earliestBeginDate, let now = ProcessScope.current?.services?.now {
            let instant = VirtualClock.instant(begin)
            if instant > now { delay = instant - now }
        }
        start(delay, taskDescription)
    }

    /// `cancel()`: a resumed task's transfer is cancelled by the system unless it has
    /// already reached the server; either way its end reaches the delegate's
    /// `urlSession(_:task:didCompleteWithError:)`, with `URLError.cancelled`
    /// (`NSURLErrorCancelled`) when the cancellation won, and the upload is not delivered.
    /// The state is `.canceling` until then. A task never resumed is completed at once with
    /// that error and never runs; its delegate is not called (not modelled). A standard
    /// session's request is not cancelled (not modelled: it ends as the world decides). A
    /// completed task is unchanged.
    open func cancel() {
        switch state {
        case .running:
            state = .canceling
            cancelTransfer?()
        case .suspended:
            start = nil
            state = .completed
            error = URLError(.cancelled)
        case .canceling, .completed:
            break
        }
    }

    /// Keeps what the system kept with the transfer: its label and its request's URL, for a
    /// task this process did not make.
    func adopt(taskDescription label: String?, url: String?) {
        if let label { taskDescription = label }
        if originalRequest == nil, let url, let parsed = URL(string: url) {
            originalRequest = URLRequest(url: parsed)
        }
    }

    /// The world's end of the transfer, as `error`, `response` and the body.
    func complete(with result: UploadResult) {
        state = .completed
        error = Self.error(for: result)
        let answer: ServerAnswer
        switch result {
        case .failed: return
        case .accepted: answer = ServerAnswer(statusCode: 200, body: #"{"stored":true}"#)
        case .answered(let answered): answer = answered
        }
        responseBody = Data(answer.body.utf8)
        guard let url = originalRequest?.url else { return }
        var headers: [String: String] = ["Content-Type": "application/json"]
        if let retryAfter = answer.retryAfter {
            // RFC 9110: `Retry-After` in whole seconds, rounded up.
            let second = VirtualDuration.seconds(1).nanoseconds
            headers["Retry-After"] = "\((retryAfter.nanoseconds + second - 1) / second)"
        }
        response = HTTPURLResponse(
            url: url, statusCode: answer.statusCode, httpVersion: "HTTP/1.1",
            headerFields: headers)
    }

    static func error(for result: UploadResult) -> (any Error)? {
        switch result {
        case .accepted, .answered: nil
        case .failed(.notConnectedToInternet): URLError(.notConnectedToInternet)
        case .failed(.networkConnectionLost): URLError(.networkConnectionLost)
        case .failed(.timedOut): URLError(.timedOut)
        case .failed(.cancelled(.processEnded(.forceQuit))):
            // R-H7: `URLError.BackgroundTaskCancelledReason.userForceQuitApplication`.
            URLError(
                .cancelled,
                userInfo: [
                    NSURLErrorBackgroundTaskCancelledReasonKey:
                        NSURLErrorCancelledReasonUserForceQuitApplication
                ])
        case .failed(.cancelled), .failed(.cancelledByApp): URLError(.cancelled)
        }
    }
}

/// `URLSessionDataTask`: made by `dataTask(with:completionHandler:)` (a fetch, or an upload
/// whose body is the request's `httpBody`), or the base of an upload task.
open class URLSessionDataTask: URLSessionTask {}

/// `URLSessionUploadTask`: made by `URLSession.uploadTask(with:fromFile:)` or
/// `uploadTask(with:from:)`.
open class URLSessionUploadTask: URLSessionDataTask {}

/// `URLSessionDelegate`, every method optional. Not `Sendable`, unlike Apple's: code written
/// for the stricter protocol compiles against this one.
public protocol URLSessionDelegate: NSObjectProtocol {
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: every event held for the session
    /// was delivered after the app was resumed or launched for it (R-H6); call the completion
    /// handler of `application(_:handleEventsForBackgroundURLSession:completionHandler:)` now.
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

extension URLSessionDelegate {
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {}
}

/// `URLSessionTaskDelegate`, every method optional.
public protocol URLSessionTaskDelegate: URLSessionDelegate {
    /// `urlSession(_:task:didCompleteWithError:)`: the upload ended; `error` is nil when the
    /// server accepted it (R-H5–R-H8).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
}

extension URLSessionTaskDelegate {
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {}
}

/// The body of a background upload on the simulated device: the world does not model files,
/// so the app's storage seam (the code a team writes for its tests, as `DeviceLocationStore`
/// is) turns the rows it uploads into a file URL or a `Data` that stands for them, and the
/// tracker hands that to `uploadTask(with:fromFile:)` or `uploadTask(with:from:)` unchanged.
/// Not an Apple API. A body is known only to the process that made it, as a temporary file a
/// process writes and uploads at once would be.
public enum SimulatedUploadBody {
    /// A file URL whose upload sends `batch` to the server.
    public static func file(for batch: UploadBatch) -> URL {
        URL(fileURLWithPath: register(batch))
    }

    /// A body whose upload sends `batch` to the server.
    public static func data(for batch: UploadBatch) -> Data {
        Data(register(batch).utf8)
    }

    private static func register(_ batch: UploadBatch) -> String {
        guard let scope = ProcessScope.current else {
            preconditionFailure(
                "SimulatedUploadBody used outside a simulated process: call it from the app's "
                    + "code, inside an ApplicationEngine's callbacks")
        }
        return scope.registerUploadBody(batch)
    }
}

/// One event of a background session for a process's `URLSession` object.
enum BackgroundSessionEvent {
    case completed(BackgroundTransferEvent)
    case finished
}
