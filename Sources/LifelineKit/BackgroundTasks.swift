// BackgroundTasks with Apple's names (layer 4): `BGTaskScheduler` and app refresh over the
// world's wakes (R-H1–R-H3), driven by `ApplicationEngine`.
import Dispatch
import Foundation
import Simulation
import World

/// `BGTaskScheduler`: one per simulated process, `BGTaskScheduler.shared` inside it, so the
/// launch handlers die with the process, as a real process's do (register them again in every
/// launch, before `application(_:didFinishLaunchingWithOptions:)` returns). Submitted requests
/// are the system's: they outlive the process (R-H1).
///
/// App refresh (`BGAppRefreshTaskRequest`, R-H1) and processing (`BGProcessingTaskRequest`,
/// with `requiresNetworkConnectivity` and `requiresExternalPower`, R-H10) are modelled; a
/// request of another kind is refused with `BGTaskScheduler.Error.Code.notPermitted`, and so is
/// one the Info.plist does not permit (R-H11: the `fetch` or `processing` background mode, and
/// `BGTaskSchedulerPermittedIdentifiers`, when the app's profile declares them; a launch
/// handler for an identifier not permitted is not registered), and with `.unavailable` while the
/// user has turned Background App Refresh off (R-H12). Not modelled: the limit on pending
/// requests (`tooManyPendingTaskRequests`), and the time of the launch handler's registration
/// (a handler registered later in the process is used too).
public class BGTaskScheduler: NSObject {
    /// `BGTaskScheduler.Error`: why `submit(_:)` refused a request.
    /// Shaped as Apple's generated error struct: a `Code` with Apple's raw values, every code
    /// as a static member (so `catch BGTaskScheduler.Error.notPermitted` compiles), and the
    /// `NSError` domain `BGTaskSchedulerErrorDomain`.
    public struct Error: Swift.Error, Hashable, Sendable, CustomNSError {
        /// `BGTaskScheduler.Error.Code`.
        public enum Code: Int, Sendable {
            /// Background work cannot be scheduled (Background App Refresh is off).
            case unavailable = 1
            /// Too many requests of this kind are pending (not modelled: never thrown).
            case tooManyPendingTaskRequests = 2
            /// The app may not schedule this request.
            case notPermitted = 3
            /// The system cannot run the task at once (iOS 26's continued processing tasks,
            /// not modelled: never thrown).
            case immediateRunIneligible = 4
        }
        public let code: Code
        public init(_ code: Code) { self.code = code }

        public static var unavailable: Code { .unavailable }
        public static var tooManyPendingTaskRequests: Code { .tooManyPendingTaskRequests }
        public static var notPermitted: Code { .notPermitted }
        public static var immediateRunIneligible: Code { .immediateRunIneligible }

        public static var errorDomain: String { BGTaskScheduler.errorDomain }
        public var errorCode: Int { code.rawValue }
    }

    /// `BGTaskScheduler.errorDomain`: the domain of `BGTaskScheduler.Error` as an `NSError`.
    public static let errorDomain = "BGTaskSchedulerErrorDomain"

    /// The launch handlers of this process, by identifier, in the order registered.
    private var launchHandlers: [(identifier: String, handler: (BGTask) -> Void)] = []
    /// `application(_:didFinishLaunchingWithOptions:)` has returned in this process: from now
    /// on a registration is too late (R-H14).
    var hasFinishedLaunching = false
    private weak var services: LocationServices?

    init(services: LocationServices) {
        self.services = services
        super.init()
    }

    /// `BGTaskScheduler.shared`: the calling process's scheduler.
    public class var shared: BGTaskScheduler {
        guard let scope = ProcessScope.current else {
            preconditionFailure(
                "BGTaskScheduler.shared read outside a simulated process: LifelineKit's app "
                    + "code runs inside an ApplicationEngine's callbacks")
        }
        return scope.taskScheduler
    }

    /// `register(forTaskWithIdentifier:using:launchHandler:)`: the handler runs, in the
    /// process, when the system runs a task with this identifier (the queue is ignored: the
    /// handler runs on the simulation's thread). Returns false for an identifier this process
    /// registered already (an assumption: Apple does not document it).
    ///
    /// Registered after `application(_:didFinishLaunchingWithOptions:)` returned, it raises
    /// the system's assertion and the app crashes, as on iOS (R-H14): the handler must be
    /// registered in every launch before it finishes.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        if hasFinishedLaunching {
            services?.raiseAssertion(
                "*** Assertion failure in -[BGTaskScheduler registerForTaskWithIdentifier:"
                    + "usingQueue:launchHandler:] (\(identifier): all launch handlers must be "
                    + "registered before the application finishes launching, R-H14)")
            return false
        }
        guard !launchHandlers.contains(where: { $0.identifier == identifier }) else {
            return false
        }
        // R-H11: the system runs only tasks whose identifier the Info.plist permits.
        if let permitted = services?.permittedTaskIdentifiers, !permitted.contains(identifier) {
            return false
        }
        launchHandlers.append((identifier, launchHandler))
        return true
    }

    /// `submit(_:)`: asks the system to run the task no earlier than the request's
    /// `earliestBeginDate` (R-H1), replacing a pending request with the same identifier.
    public func submit(_ taskRequest: BGTaskRequest) throws {
        let earliestBegin = taskRequest.earliestBeginDate.map(VirtualClock.instant)
        guard let services else { return }
        // R-H12: the user turned Background App Refresh off.
        guard services.isBackgroundRefreshEnabled else { throw Error(.unavailable) }
        let submitted: Bool
        if let processing = taskRequest as? BGProcessingTaskRequest {
            submitted = services.submitProcessing(
                identifier: processing.identifier, earliestBegin: earliestBegin,
                requiresNetworkConnectivity: processing.requiresNetworkConnectivity,
                requiresExternalPower: processing.requiresExternalPower)
        } else if taskRequest is BGAppRefreshTaskRequest {
            submitted = services.submitAppRefresh(
                identifier: taskRequest.identifier, earliestBegin: earliestBegin)
        } else {
            submitted = false
        }
        // R-H11: a mode or an identifier the Info.plist lacks.
        guard submitted else { throw Error(.notPermitted) }
    }

    /// `cancel(taskRequestWithIdentifier:)`.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        services?.cancelAppRefresh(identifier: identifier)
    }

    /// `cancelAllTaskRequests()`.
    public func cancelAllTaskRequests() {
        services?.cancelAppRefresh(identifier: nil)
    }

    /// `getPendingTaskRequests(completionHandler:)`: `completionHandler` runs after this call
    /// returns, in a later callback of the process, with copies of the app refresh and
    /// processing requests the system holds and has not run, whichever process submitted them
    /// (app refreshes first). Here it runs on the main thread; Apple says it "may execute on a
    /// background thread", so code that touches the UI from it works here and not on iOS.
    /// Outside a simulated process it runs at once with none.
    public func getPendingTaskRequests(
        completionHandler: @escaping @Sendable ([BGTaskRequest]) -> Void
    ) {
        guard let services else { return completionHandler([]) }
        services.getPendingTaskRequests { pending in completionHandler(pending.map(Self.request)) }
    }

    /// `pendingTaskRequests() async`: the requests `getPendingTaskRequests(completionHandler:)`
    /// hands its handler, on the caller's actor (`nonisolated(nonsending)`). If the process
    /// ends first the task waits forever, as the process's other tasks do.
    nonisolated(nonsending) public func pendingTaskRequests() async -> [BGTaskRequest] {
        guard let services else { return [] }
        let pending = await withUnsafeContinuation {
            (continuation: UnsafeContinuation<[PendingTaskRequest], Never>) in
            services.getPendingTaskRequests { continuation.resume(returning: $0) }
        }
        return pending.map(Self.request)
    }

    /// A new request object copying the system's `pending` request.
    private static func request(_ pending: PendingTaskRequest) -> BGTaskRequest {
        let request: BGTaskRequest
        switch pending.kind {
        case .appRefresh:
            request = BGAppRefreshTaskRequest(identifier: pending.identifier)
        case .processing(let network, let power):
            let processing = BGProcessingTaskRequest(identifier: pending.identifier)
            processing.requiresNetworkConnectivity = network
            processing.requiresExternalPower = power
            request = processing
        }
        request.earliestBeginDate = pending.earliestBegin.map(VirtualClock.date)
        return request
    }

    /// The launch handler registered for `identifier`, if any.
    func launchHandler(for identifier: String) -> ((BGTask) -> Void)? {
        launchHandlers.first { $0.identifier == identifier }?.handler
    }
}

/// `BGTaskRequest`: a request to run a task in the background.
open class BGTaskRequest: NSObject {
    /// `identifier`: the task's identifier, the one its launch handler was registered with.
    public let identifier: String
    /// `earliestBeginDate`: the task does not begin before it (nil: no delay). The system
    /// does not promise to begin it then; the model begins it then (R-H1).
    open var earliestBeginDate: Date?

    init(taskIdentifier: String) {
        identifier = taskIdentifier
        super.init()
    }
}

/// `BGAppRefreshTaskRequest`: a request to launch the app in the background for a short refresh
/// task.
open class BGAppRefreshTaskRequest: BGTaskRequest {
    /// `init(identifier:)`.
    public init(identifier: String) { super.init(taskIdentifier: identifier) }
}

/// `BGProcessingTaskRequest`: a request to launch the app in the background for a processing
/// task "that can take minutes to complete" (R-H10, `processingTaskRuntime`).
open class BGProcessingTaskRequest: BGTaskRequest {
    /// `requiresNetworkConnectivity` (default false): the system runs the task only while the
    /// network is up.
    open var requiresNetworkConnectivity = false
    /// `requiresExternalPower` (default false): the system runs the task only while the device
    /// is on external power, which the modelled device never is: such a task never runs.
    open var requiresExternalPower = false

    /// `init(identifier:)`.
    public init(identifier: String) { super.init(taskIdentifier: identifier) }
}

/// `BGTask`: a task the system runs while the app is in the background.
open class BGTask: NSObject {
    /// `identifier`: the identifier its launch handler was registered with.
    public let identifier: String
    /// `expirationHandler`: called shortly before the task's time is up (R-H3, after
    /// `appRefreshRuntime`); set to nil once it has run. Without one the task is marked
    /// completed, unsuccessful, when its time is up; with one, a task still not completed
    /// `backgroundTaskWatchdogDelay` after it ran gets the app killed.
    open var expirationHandler: (() -> Void)?

    let wake: WakeTaskID
    private weak var services: LocationServices?
    private var completed = false

    init(identifier: String, wake: WakeTaskID, services: LocationServices) {
        self.identifier = identifier
        self.wake = wake
        self.services = services
        super.init()
    }

    /// `setTaskCompleted(success:)`: the task no longer keeps the app running. Later calls do
    /// nothing.
    open func setTaskCompleted(success: Bool) {
        guard !completed else { return }
        completed = true
        services?.completeWake(wake, success: success)
    }
}

/// `BGAppRefreshTask`: a short task to refresh the app's content in the background (R-H3).
open class BGAppRefreshTask: BGTask {}

/// `BGProcessingTask`: a longer task the system runs when its request's requirements hold
/// (R-H10); its expiration works as an app refresh's (R-H3).
open class BGProcessingTask: BGTask {}

/// `catch BGTaskScheduler.Error.notPermitted` (or a `switch` over an `Error`).
public func ~= (code: BGTaskScheduler.Error.Code, error: any Error) -> Bool {
    (error as? BGTaskScheduler.Error)?.code == code
}
