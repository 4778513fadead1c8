// The glue that runs an Apple-shaped app as a Lifeline engine (layer 4): a `TrackingEngine`
// that makes the app delegate at every launch and calls it as UIKit would.
import Engines
import Foundation
import Simulation
import World

/// An app written against UIKit's and Core Location's shapes (`UIApplicationDelegate`,
/// `CLLocationManager`), run as a Lifeline engine: the world makes one at every process launch
/// (memory dies with the process), and it makes the app's `UIApplication` and app delegate,
/// then turns the world's callbacks into UIKit's (see `UIApplicationDelegate` for the order).
/// Location reaches the app through its `CLLocationManager` delegates, not through this
/// engine.
///
/// Everything the app's code calls runs inside this process's scope, so `CLLocationManager()`
/// and `UIApplication.shared` reach this process. The app delegate and its `UIApplication` are
/// main-actor isolated, as UIKit's are: the world calls the app on the simulation's thread as
/// the process's main thread, so each UIKit call enters the main actor there
/// (`MainActor.assumeIsolated`, docs/concurrency.md). Calls that reach no UIKit code (a live
/// update, a timer, an upload's end) do not enter it.
///
/// The host app's tracking switch (`UserAction.trackingOn`/`trackingOff`, and `start`/`stop`)
/// is the app's own UI, not an Apple API: `setTracking` says what it calls in the app.
/// Register it with `CustomEngine.application(name:summary:profile:delegate:setTracking:)`.
public final class ApplicationEngine<Delegate: UIApplicationDelegate>: TrackingEngine {
    /// Makes the app delegate on the main actor, inside the process scope, with the process's
    /// services (for the app's storage seam: the store and the saved record are the world's).
    public typealias MakeDelegate = @MainActor (LocationServices) -> Delegate
    /// The app's own tracking switch, on the main actor.
    public typealias SetTracking = @MainActor (Delegate, Bool) -> Void

    /// The app's `UIApplication` and delegate, on the main actor.
    private let host: ApplicationHost<Delegate>
    private var scope: ProcessScope?
    private var trackingOn = false

    /// What this engine tells: nothing (an Apple-shaped app has no such stream). The
    /// invariants judge the app from the disk and the trace.
    public var events: [TrackingEvent] { [] }

    public init(delegate: @escaping MakeDelegate, setTracking: @escaping SetTracking) {
        host = ApplicationHost(makeDelegate: delegate, setTracking: setTracking)
    }

    /// The app delegate of this process, once launched.
    @MainActor public var delegate: Delegate? { host.delegate }

    // MARK: - TrackingEngine

    public func start(services: LocationServices) { switchTracking(true) }
    public func stop(services: LocationServices) { switchTracking(false) }
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {
        switchTracking(on)
    }

    /// `enabled` is the switch as this process last set it; the rest is the app's own and not
    /// known here.
    public func state(at now: Instant) -> EngineState {
        EngineState(enabled: trackingOn, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }

    private func switchTracking(_ on: Bool) {
        trackingOn = on
        MainActor.assumeIsolated { [host] in host.switchTracking(on) }
    }

    // MARK: - UIKit's calls

    public func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let scope = ProcessScope(services: services)
        ProcessScope.ofProcess.setInProcess(scope)
        self.scope = scope
        MainActor.assumeIsolated { [host] in host.launch(launch, scope: scope) }
    }

    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        MainActor.assumeIsolated { [host] in host.lifecycleChanged(to: state) }
    }

    /// A live update: to the `CLLocationUpdate.liveUpdates(_:)` iteration whose stream sent
    /// it (a manager's locations reach its `CLLocationManager` delegate, not this).
    public func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard case .liveUpdates = update.channel else { return }
        scope?.liveStreams.deliver(update)
    }

    public func protectedDataDidBecomeAvailable(services: LocationServices) {
        MainActor.assumeIsolated { [host] in host.protectedDataDidBecomeAvailable() }
    }

    public func applicationWillTerminate(services: LocationServices) {
        MainActor.assumeIsolated { [host] in host.willTerminate() }
    }

    /// The expiration handler the app gave the task, if any. Without one the task is left
    /// running, as UIKit leaves it: the watchdog then ends the process (R-F1).
    public func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        guard let handler = scope?.expirationHandlers[task.object.value] else { return }
        MainActor.assumeIsolated { handler() }
    }

    /// A wake (R-H1, R-H4): an app refresh task goes to the launch handler this process
    /// registered for its identifier (`BGTaskScheduler.register`); with none registered, the
    /// task is completed unsuccessfully at once (an assumption: Apple documents no behaviour
    /// for it). A silent push goes to the app delegate's
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`, whose completion
    /// handler completes the wake.
    public func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        switch kind {
        case .appRefresh(let identifier), .processing(let identifier):
            // R-H10: a processing task goes as an app refresh does, as its own task class.
            guard let scope, let handler = scope.taskScheduler.launchHandler(for: identifier)
            else { return services.completeWake(task, success: false) }
            let handed: BGTask =
                if case .processing = kind {
                    BGProcessingTask(identifier: identifier, wake: task, services: services)
                } else {
                    BGAppRefreshTask(identifier: identifier, wake: task, services: services)
                }
            scope.refreshTasks[task.value] = handed
            handler(handed)
        case .remoteNotification:
            let taken = MainActor.assumeIsolated { [host] in
                host.didReceiveRemoteNotification(completing: task)
            }
            if !taken { services.completeWake(task, success: false) }
        case .backgroundURLSession(let identifier):
            // R-H6: the session's events follow; the app calls the handler when it is done.
            let taken = MainActor.assumeIsolated { [host] in
                host.handleEvents(forBackgroundURLSession: identifier, completing: task)
            }
            if !taken { services.completeWake(task, success: false) }
        }
    }

    /// A background upload ended (R-H5–R-H7): to the delegate of this process's `URLSession`
    /// for its session, or held until the app makes one.
    public func didCompleteBackgroundTransfer(
        _ event: BackgroundTransferEvent, services: LocationServices
    ) {
        scope?.deliver(.completed(event), session: event.task.session)
    }

    /// A standard session's upload ended (R-D13): to its completion handler or its session's
    /// delegate.
    public func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        scope?.completeStandardUpload(task, result: result)
    }

    /// Every event of `session` was delivered after a wake for it (R-H6):
    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
    public func backgroundSessionDidFinishEvents(_ session: String, services: LocationServices) {
        scope?.deliver(.finished, session: session)
    }

    /// An app refresh task's time is up (R-H3): its expiration handler runs (and is cleared);
    /// a task without one is marked completed, unsuccessful, as Apple documents.
    public func wakeWillExpire(_ task: WakeTaskID, services: LocationServices) {
        guard let refresh = scope?.refreshTasks.removeValue(forKey: task.value) else {
            return services.completeWake(task, success: false)
        }
        guard let handler = refresh.expirationHandler else {
            return refresh.setTaskCompleted(success: false)
        }
        refresh.expirationHandler = nil
        handler()
    }

    /// A run-loop timer of LifelineKit's own: the first authorization callback of the managers
    /// made since it was set.
    public func timerDidFire(_ timer: TimerID, services: LocationServices) {
        guard let scope else { return }
        if scope.deliverHeldSessionEvents(firedBy: timer) { return }
        let managers = scope.takeNewManagers(firedBy: timer)
        guard !managers.isEmpty else { return }
        for manager in managers { manager.announceAuthorization() }
    }
}

extension CustomEngine {
    /// An Apple-shaped app as a custom engine: `delegate` makes its app delegate at every
    /// launch (with the process's `LocationServices`, for the app's storage seam), and
    /// `setTracking` is the app's own tracking switch. Both run on the main actor, as UIKit's
    /// code does, so a `@MainActor` app delegate is made and called as it is on iOS.
    ///
    /// The profile is the app's Info.plist and authorization: by default the location
    /// background mode without scenes (so launch options carry `.location`, R-A11), Always
    /// asked at the first launch, tracking from the first launch, and launch rules left to
    /// each scenario. An Apple-shaped app has no `stopOnTerminate`/`startOnBoot` settings
    /// (`honoursLaunchRules` false) unless the team says otherwise.
    public static func application<Delegate: UIApplicationDelegate & SendableMetatype>(
        name: String, summary: String,
        profile: AppProfile = AppProfile(
            capabilities: AppCapabilities(locationBackgroundMode: true, sceneBased: false)),
        honoursLaunchRules: Bool = false,
        delegate: @escaping @MainActor @Sendable (LocationServices) -> Delegate,
        setTracking: @escaping @MainActor @Sendable (Delegate, Bool) -> Void
    ) -> CustomEngine {
        var engine = CustomEngine(
            name: name, summary: summary, honoursLaunchRules: honoursLaunchRules
        ) { _ in
            ApplicationEngine(delegate: delegate, setTracking: setTracking)
        }
        engine.profile = profile
        return engine
    }
}
