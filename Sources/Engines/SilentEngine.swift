// An engine with its narration taken away (layer 4): what it does is unchanged, what it says of
// itself is nothing, as a real app that tells no `TrackingEvent`s.
import Simulation
import World

/// A tracking engine that does exactly what `wrapped` does and tells nothing: every callback
/// and host call is handed on, and `events` is always empty. The invariants judge an engine by
/// the disk, the network and the OS, never by its narration, so a `SilentEngine` around any
/// engine meets the same verdicts as the engine itself (`SilentEngineTests` and the
/// planted-bug table in docs/fuzzing.md hold Lifeline to it).
public final class SilentEngine: TrackingEngine, FirstFormCallbacks {
    /// The engine whose behaviour this one has.
    public let wrapped: any TrackingEngine

    public init(_ wrapped: any TrackingEngine) { self.wrapped = wrapped }

    /// Nothing, ever.
    public var events: [TrackingEvent] { [] }

    public func start(services: LocationServices) { wrapped.start(services: services) }
    public func stop(services: LocationServices) { wrapped.stop(services: services) }
    public func state(at now: Instant) -> EngineState { wrapped.state(at: now) }

    public func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        wrapped.didLaunch(launch, services: services)
    }
    public func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        wrapped.lifecycleChanged(to: state, services: services)
    }
    public func didReceive(_ update: LocationUpdate, services: LocationServices) {
        wrapped.didReceive(update, services: services)
    }
    package func didFail(_ error: LocationError, manager: ObjectID, services: LocationServices) {
        (wrapped as? any FirstFormCallbacks)?.didFail(error, manager: manager, services: services)
    }
    package func monitoringDidFail(
        for region: String, error: LocationError, manager: ObjectID, services: LocationServices
    ) {
        (wrapped as? any FirstFormCallbacks)?.monitoringDidFail(
            for: region, error: error, manager: manager, services: services)
    }
    public func didReceive(_ event: MonitoringEvent, services: LocationServices) {
        wrapped.didReceive(event, services: services)
    }
    public func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        wrapped.authorizationChanged(to: authorization, services: services)
    }
    public func accuracyAuthorizationChanged(
        to accuracy: AccuracyAuthorization, services: LocationServices
    ) {
        wrapped.accuracyAuthorizationChanged(to: accuracy, services: services)
    }
    package func locationUpdatesPausedChanged(
        manager: ObjectID, paused: Bool, services: LocationServices
    ) {
        (wrapped as? any FirstFormCallbacks)?.locationUpdatesPausedChanged(
            manager: manager, paused: paused, services: services)
    }
    public func protectedDataDidBecomeAvailable(services: LocationServices) {
        wrapped.protectedDataDidBecomeAvailable(services: services)
    }
    public func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        wrapped.backgroundTaskWillExpire(task, services: services)
    }
    public func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        wrapped.storeDidCommit(commit, services: services)
    }
    public func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        wrapped.didCompleteUpload(task, result: result, services: services)
    }
    public func timerDidFire(_ timer: TimerID, services: LocationServices) {
        wrapped.timerDidFire(timer, services: services)
    }
    public func userDidSetTracking(_ on: Bool, services: LocationServices) {
        wrapped.userDidSetTracking(on, services: services)
    }
    public func applicationWillTerminate(services: LocationServices) {
        wrapped.applicationWillTerminate(services: services)
    }
}
