// `standard-kit` (KitEngines): the Apple-shaped standard tracker run as an engine. LifelineKit's
// `ApplicationEngine` runs the app; this engine wraps it to hand the tracker's device the
// world callbacks that `ApplicationEngine` does not pass on (the store's commits, the uploads'
// ends and the timers of the recorder and the tracker), and to tell the tracker's events.
import Engines
import LifelineKit
import Simulation
import World

/// `StandardAppDelegate` under `ApplicationEngine`, plus the device seam's callbacks.
///
/// Why not `CustomEngine.application(...)` alone: `ApplicationEngine` drops `storeDidCommit`,
/// `didCompleteUpload` and every timer but LifelineKit's own, and hands expiring background
/// tasks only to `UIApplication` expiration handlers, so the shared `FixRecorder` (the store
/// and the batched uploader, R-D13) would never upload, and a `Timer` has no Apple-named call
/// to be scheduled with. It also tells no `TrackingEvent`s and no `getState()`.
package final class StandardKitEngine: TrackingEngine {
    private let device: SimulatedTrackerDevice
    private let app: ApplicationEngine<StandardAppDelegate>
    /// The tracker this process launched, held here too: the run's record reads `events`
    /// after every delivery, and reaching it through `app.delegate` cost 4 % of a fuzz case
    /// (callgrind, `fuzz --long`).
    private let launched: Launched

    private final class Launched {
        var tracker: StandardTracker?
    }

    package convenience init(settings: StandardEngine.Settings) {
        self.init(settings: settings, seams: StandardEngine.Seams())
    }

    /// With some of the standard engine's decisions replaced (a mutant's mistake).
    package init(settings: StandardEngine.Settings, seams: StandardEngine.Seams) {
        let device = SimulatedTrackerDevice(uploader: settings.uploader)
        let launched = Launched()
        self.device = device
        self.launched = launched
        app = ApplicationEngine { services in
            device.attach(services)
            let delegate = StandardAppDelegate(settings: settings, device: device, seams: seams)
            launched.tracker = delegate.tracker
            return delegate
        } setTracking: { delegate, on in
            delegate.setTracking(on)
        }
    }

    /// The tracker of this process, once launched.
    package var tracker: StandardTracker? { launched.tracker }

    package var events: [TrackingEvent] { tracker?.events ?? [] }

    package func state(at now: Instant) -> EngineState {
        tracker?.state(at: now)
            ?? EngineState(enabled: false, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }

    package func start(services: LocationServices) { hostSwitch(true, services) }
    package func stop(services: LocationServices) { hostSwitch(false, services) }

    private func hostSwitch(_ on: Bool, _ services: LocationServices) {
        app.delegate?.switchIsHostCall = true
        defer { app.delegate?.switchIsHostCall = false }
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

    /// The uploader's task, or any other (the tracker begins no `UIApplication` task).
    package func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        device.recorder.backgroundTaskWillExpire(task, services: services)
    }

    /// The uploader's timer, the tracker's warm-up timer, else LifelineKit's own.
    package func timerDidFire(_ timer: TimerID, services: LocationServices) {
        if device.recorder.timerDidFire(timer, services: services) { return }
        if device.fire(timer) { return }
        app.timerDidFire(timer, services: services)
    }
}

extension CustomEngine {
    /// `standard-kit`: source D's standard engine rewritten on LifelineKit
    /// (`StandardTracker`), with the standard engine's settings, launch rules and profile.
    package static let standardKit = standardKit(
        name: "standard-kit",
        summary:
            "source D's standard engine on LifelineKit: CLLocationManager, an app delegate, "
            + "UserDefaults",
        seams: StandardEngine.Seams())

    /// `standard-kit` with the standard engine's decisions `seams` (a mutant's mistake, for
    /// the package's tests).
    package static func standardKit(
        name: String, summary: String, seams: StandardEngine.Seams,
        profile: AppProfile = BuiltInEngine.standard.profile
    ) -> CustomEngine {
        var engine = CustomEngine(name: name, summary: summary, honoursLaunchRules: true) {
            rules in
            StandardKitEngine(
                settings: BuiltInEngine.standardSettings(
                    launchRules: rules, trackingStart: profile.trackingStart),
                seams: seams)
        }
        engine.profile = profile
        return engine
    }
}
