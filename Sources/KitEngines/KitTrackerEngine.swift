// A ported tracker run as an engine (KitEngines): LifelineKit's `ApplicationEngine` runs the
// app, and this engine hands the tracker's device the world callbacks that `ApplicationEngine`
// does not pass on (the store's commits, the uploads' ends, the recorder's and the tracker's
// timers), and tells the tracker's events. `standard-kit` and `session-kit` are this engine
// around their app delegates.
import Engines
import LifelineKit
import Simulation
import World

/// What `KitTrackerEngine` asks of a ported tracker: the host app's switch, and what the
/// engine it ports tells (`TrackingEngine.events`, `state(at:)`).
package protocol KitTracker: AnyObject {
    var events: [TrackingEvent] { get }
    func state(at now: Instant) -> EngineState
    /// The host app's `start()`.
    func start()
    /// The host app's `stop()`.
    func stop()
    /// The user's switch in the host app (recorded, then `start()` or `stop()`).
    func userDidSetTracking(_ on: Bool)
}

/// The app delegate of a ported tracker, made at every launch with its tracker.
package protocol KitTrackerApp: UIApplicationDelegate {
    /// This process's tracker.
    var kitTracker: any KitTracker { get }
}

/// A ported tracker's app under `ApplicationEngine`, plus the device seam's callbacks.
///
/// Why not `CustomEngine.application(...)` alone: `ApplicationEngine` drops `storeDidCommit`,
/// `didCompleteUpload` and every timer but LifelineKit's own, and hands expiring background
/// tasks only to `UIApplication` expiration handlers, so the shared `FixRecorder` (the store
/// and the batched uploader, R-D13) would never upload, and a `Timer` has no Apple-named call
/// to be scheduled with. It also tells no `TrackingEvent`s and no `getState()`.
package final class KitTrackerEngine: TrackingEngine {
    private let device: SimulatedTrackerDevice
    /// The `ApplicationEngine` of the tracker's app delegate.
    private let app: any TrackingEngine
    /// The tracker this process launched, held here too: the run's record
    /// reads `events` after every delivery, and reaching the tracker through the application
    /// engine's delegate cost 4 % of a fuzz case (callgrind, `fuzz --long`).
    private let launched: Launched

    /// What the app's code (on the main actor) and this engine share: the process's tracker,
    /// and whether the next tracking switch is the host app's own `start()`/`stop()` (not the
    /// user's switch, which the app also records). `@unchecked Sendable`: the world runs both
    /// on the simulation's one thread, the process's main thread (docs/concurrency.md).
    private final class Launched: @unchecked Sendable {
        var tracker: (any KitTracker)?
        var switchIsHostCall = false
    }

    /// An engine whose app delegate `makeApp` makes at every launch (on the main actor, as
    /// UIKit makes it), on a device whose recorder uploads as `uploader` says, after
    /// `configure` (a mutant's settings of the recorder).
    package init<App: KitTrackerApp>(
        uploader: UploaderConfiguration, configure: (FixRecorder) -> Void = { _ in },
        makeApp: @escaping @MainActor @Sendable (SimulatedTrackerDevice) -> App
    ) {
        let device = SimulatedTrackerDevice(uploader: uploader)
        configure(device.recorder)
        let launched = Launched()
        self.device = device
        self.launched = launched
        app = ApplicationEngine { services in
            device.attach(services)
            let delegate = makeApp(device)
            launched.tracker = delegate.kitTracker
            return delegate
        } setTracking: { delegate, on in
            let tracker = delegate.kitTracker
            if launched.switchIsHostCall {
                if on { tracker.start() } else { tracker.stop() }
            } else {
                tracker.userDidSetTracking(on)
            }
        }
    }

    package var events: [TrackingEvent] { launched.tracker?.events ?? [] }

    package func state(at now: Instant) -> EngineState {
        launched.tracker?.state(at: now)
            ?? EngineState(enabled: false, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }

    package func start(services: LocationServices) { hostSwitch(true, services) }
    package func stop(services: LocationServices) { hostSwitch(false, services) }

    private func hostSwitch(_ on: Bool, _ services: LocationServices) {
        launched.switchIsHostCall = true
        defer { launched.switchIsHostCall = false }
        if on { app.start(services: services) } else { app.stop(services: services) }
    }

    package func userDidSetTracking(_ on: Bool, services: LocationServices) {
        app.userDidSetTracking(on, services: services)
    }

    // MARK: - To the app (UIKit's calls)

    package func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        app.didLaunch(launch, services: services)
    }

    package func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        app.lifecycleChanged(to: state, services: services)
    }

    package func didReceive(_ update: LocationUpdate, services: LocationServices) {
        app.didReceive(update, services: services)
    }

    package func didReceive(_ event: MonitoringEvent, services: LocationServices) {
        app.didReceive(event, services: services)
    }

    package func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        app.authorizationChanged(to: authorization, services: services)
    }

    package func accuracyAuthorizationChanged(
        to accuracy: AccuracyAuthorization, services: LocationServices
    ) {
        app.accuracyAuthorizationChanged(to: accuracy, services: services)
    }

    package func protectedDataDidBecomeAvailable(services: LocationServices) {
        app.protectedDataDidBecomeAvailable(services: services)
    }

    package func applicationWillTerminate(services: LocationServices) {
        app.applicationWillTerminate(services: services)
    }

    package func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        app.didBeginWake(task, kind: kind, services: services)
    }

    package func wakeWillExpire(_ task: WakeTaskID, services: LocationServices) {
        app.wakeWillExpire(task, services: services)
    }

    package func didCompleteBackgroundTransfer(
        _ event: BackgroundTransferEvent, services: LocationServices
    ) {
        app.didCompleteBackgroundTransfer(event, services: services)
    }

    package func backgroundSessionDidFinishEvents(_ session: String, services: LocationServices) {
        app.backgroundSessionDidFinishEvents(session, services: services)
    }

    // MARK: - To the device seam (what ApplicationEngine drops)

    package func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        device.recorder.storeDidCommit(commit, services: services)
    }

    package func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        device.recorder.didCompleteUpload(task, result: result, services: services)
    }

    /// The uploader's task, or any other (the trackers begin no `UIApplication` task).
    package func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        device.recorder.backgroundTaskWillExpire(task, services: services)
    }

    /// The uploader's timer, the tracker's own (a warm-up, slow launch work), else
    /// LifelineKit's.
    package func timerDidFire(_ timer: TimerID, services: LocationServices) {
        if device.recorder.timerDidFire(timer, services: services) { return }
        if device.fire(timer) { return }
        app.timerDidFire(timer, services: services)
    }
}
