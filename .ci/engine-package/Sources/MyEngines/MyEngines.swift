// The team's engines, registered under their names for `LifelineCLI.main(engines:)` and the
// tests: `mine` (the engine the team ships), and three broken on purpose, each a finding the
// fuzzer must report without dying itself: `trapper` traps in its first `didLaunch`,
// `background-trapper` traps only when relaunched in the background, `spinner` never returns
// from its first `didLaunch`.
import Lifeline

/// The team's tracker: the session engine as the team configures it.
public let mine = CustomEngine(name: "mine", summary: "our app's tracker") { rules in
    BuiltInEngine.session.make(launchRules: rules)
}

/// Traps with an index out of range in its first `didLaunch`.
public let trapper = CustomEngine(name: "trapper", summary: "traps at its first launch") {
    rules in
    Breaking(inner: BuiltInEngine.session.make(launchRules: rules)) { launch in
        let slots: [Int] = []
        return slots[launch.launchOptions.count]  // index out of range
    }
}

/// Traps only when relaunched in the background (significant change, a region, a reboot).
public let backgroundTrapper = CustomEngine(
    name: "background-trapper", summary: "traps when relaunched in the background"
) { rules in
    Breaking(inner: BuiltInEngine.session.make(launchRules: rules)) { launch in
        guard launch.state == .background else { return 0 }
        let slots: [Int] = []
        return slots[1]
    }
}

/// Spins forever in its first `didLaunch`.
public let spinner = CustomEngine(name: "spinner", summary: "never returns from didLaunch") {
    rules in
    Breaking(inner: BuiltInEngine.session.make(launchRules: rules)) { _ in
        var turns = 0
        while turns >= 0 { turns = (turns &+ 1) & 0xFFFF }
        return turns
    }
}

/// An engine that runs `breaking` at every launch before handing everything to `inner`.
final class Breaking: TrackingEngine {
    let inner: any TrackingEngine
    let breaking: (LaunchContext) -> Int
    init(inner: any TrackingEngine, breaking: @escaping (LaunchContext) -> Int) {
        self.inner = inner
        self.breaking = breaking
    }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = breaking(launch)
        inner.didLaunch(launch, services: services)
    }
    func start(services: LocationServices) { inner.start(services: services) }
    func stop(services: LocationServices) { inner.stop(services: services) }
    func state(at now: Instant) -> EngineState { inner.state(at: now) }
    var events: [TrackingEvent] { inner.events }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        inner.lifecycleChanged(to: state, services: services)
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        inner.didReceive(update, services: services)
    }
    func didReceive(_ event: MonitoringEvent, services: LocationServices) {
        inner.didReceive(event, services: services)
    }
    func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        inner.authorizationChanged(to: authorization, services: services)
    }
    func accuracyAuthorizationChanged(
        to accuracy: AccuracyAuthorization, services: LocationServices
    ) {
        inner.accuracyAuthorizationChanged(to: accuracy, services: services)
    }
    func protectedDataDidBecomeAvailable(services: LocationServices) {
        inner.protectedDataDidBecomeAvailable(services: services)
    }
    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        inner.backgroundTaskWillExpire(task, services: services)
    }
    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        inner.storeDidCommit(commit, services: services)
    }
    func didCompleteUpload(_ task: UploadTaskID, result: UploadResult, services: LocationServices) {
        inner.didCompleteUpload(task, result: result, services: services)
    }
    func timerDidFire(_ timer: TimerID, services: LocationServices) {
        inner.timerDidFire(timer, services: services)
    }
    func applicationWillTerminate(services: LocationServices) {
        inner.applicationWillTerminate(services: services)
    }
}
