// `session-kit` (KitEngines): the Apple-shaped session tracker run as an engine, wrapped as
// `standard-kit` is (StandardKitEngine.swift): LifelineKit's `ApplicationEngine` runs the app,
// and this engine hands the tracker's device the world callbacks `ApplicationEngine` does not
// pass on (the store's commits, the uploads' ends, the recorder's and the tracker's timers)
// and tells the tracker's events.
import EngineMutants
import Engines
import LifelineKit
import Simulation
import World

/// `SessionAppDelegate` under `ApplicationEngine`, plus the device seam's callbacks, for the
/// same reasons as `StandardKitEngine`: `ApplicationEngine` drops the store's and uploader's
/// callbacks (R-D13) and every timer but LifelineKit's own, and tells no `TrackingEvent`s and
/// no `getState()`. Live updates reach the tracker's `CLLocationUpdate.liveUpdates` loop
/// through `ApplicationEngine.didReceive`.
package final class SessionKitEngine: TrackingEngine {
    private let device: SimulatedTrackerDevice
    private let app: ApplicationEngine<SessionAppDelegate>
    /// The tracker this process launched, held here too: the run's record reads `events`
    /// after every delivery, and reaching it through `app.delegate` cost 4 % of a fuzz case
    /// (callgrind, `fuzz --long`).
    private let launched: Launched

    private final class Launched {
        var tracker: SessionTracker?
    }

    /// With some of the session engine's decisions replaced (a mutant's mistake), the
    /// reading loop on the main actor if `loopOnMainActor`; `configure` sets what the ported
    /// engine's mutants set on its recorder.
    package init(
        settings: SessionEngine.Settings, seams: SessionEngine.Seams,
        loopOnMainActor: Bool = false, configure: (FixRecorder) -> Void = { _ in }
    ) {
        let device = SimulatedTrackerDevice(uploader: settings.uploader)
        configure(device.recorder)
        let launched = Launched()
        self.device = device
        self.launched = launched
        app = ApplicationEngine { services in
            device.attach(services)
            let delegate = SessionAppDelegate(
                settings: settings, device: device, seams: seams,
                loopOnMainActor: loopOnMainActor)
            launched.tracker = delegate.tracker
            return delegate
        } setTracking: { delegate, on in
            delegate.setTracking(on)
        }
    }

    /// The tracker of this process, once launched.
    package var tracker: SessionTracker? { launched.tracker }

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

    /// The uploader's timer, the tracker's slow launch work, else LifelineKit's own.
    package func timerDidFire(_ timer: TimerID, services: LocationServices) {
        if device.recorder.timerDidFire(timer, services: services) { return }
        if device.fire(timer) { return }
        app.timerDidFire(timer, services: services)
    }
}

extension CustomEngine {
    /// `session-kit`: source B's session engine rewritten on LifelineKit (`SessionTracker`),
    /// with the session engine's settings, launch rules and profile.
    package static let sessionKit = sessionKit(
        name: "session-kit",
        summary:
            "source B's session engine on LifelineKit: CLLocationUpdate.liveUpdates in a task, "
            + "CLServiceSession, CLBackgroundActivitySession, UserDefaults")

    /// `session-kit` with its reading loop on the main actor (`Task { @MainActor in … }`).
    package static let sessionKitMainActor = sessionKit(
        name: "session-kit-main-actor",
        summary: "session-kit with its live-updates loop on the main actor",
        loopOnMainActor: true)

    /// `session-kit` with the session engine's decisions `seams` (a mutant's mistake, for the
    /// package's tests) and `configure` applied to its recorder.
    package static func sessionKit(
        name: String, summary: String, seams: SessionEngine.Seams = SessionEngine.Seams(),
        loopOnMainActor: Bool = false,
        configure: @escaping @Sendable (FixRecorder) -> Void = { _ in },
        profile: AppProfile = BuiltInEngine.session.profile
    ) -> CustomEngine {
        var engine = CustomEngine(name: name, summary: summary, honoursLaunchRules: true) {
            rules in
            SessionKitEngine(
                settings: BuiltInEngine.sessionSettings(
                    launchRules: rules, trackingStart: profile.trackingStart),
                seams: seams, loopOnMainActor: loopOnMainActor, configure: configure)
        }
        engine.profile = profile
        return engine
    }
}

extension CustomEngine {
    /// Six of the session engine's mutants (`Sources/EngineMutants/Mutant+Session.swift`)
    /// planted in `session-kit` through the same seams (`Mutant.sessionSeams`), each named
    /// after its mutant with `-kit`.
    package static let sessionKitMutants: [CustomEngine] = [
        Mutant.storesNothing, .forgetsEnabledFlag, .nilLocationEndsStream, .restoreAfterSlowWork,
        .rebootByUptime, .stopOnTerminateAfterResume,
    ].map { mutant in
        sessionKit(
            name: mutant.rawValue + "-kit",
            summary: "session-kit with the mistake of \(mutant.rawValue)",
            seams: mutant.sessionSeams)
    }
}
