// An engine with its narration taken away (layer 4): what it does is unchanged, what it says of
// itself is nothing, as a real app that tells no `TrackingEvent`s.
import Simulation
import World

/// A tracking engine that does exactly what `wrapped` does and tells nothing: every callback
/// and host call is handed on, and `events` is always empty. The invariants judge an engine by
/// the disk, the network and the OS, never by its narration, so a `SilentEngine` around any
/// engine meets the same verdicts as the engine itself (`SilentEngineTests` and the
/// planted-bug table in docs/fuzzing.md hold Lifeline to it).
package final class SilentEngine: TrackingEngine, FirstFormCallbacks {
    /// The engine whose behaviour this one has.
    package let wrapped: any TrackingEngine

    package init(_ wrapped: any TrackingEngine) { self.wrapped = wrapped }

    /// Nothing, ever.
    package var events: [TrackingEvent] { [] }

    package func start(services: LocationServices) { wrapped.start(services: services) }
    package func stop(services: LocationServices) { wrapped.stop(services: services) }
    package func state(at now: Instant) -> EngineState { wrapped.state(at: now) }

    package func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        wrapped.didLaunch(launch, services: services)
    }
    package func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        wrapped.lifecycleChanged(to: state, services: services)
    }
    package func didReceive(_ update: LocationUpdate, services: LocationServices) {
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
    package func didReceive(_ event: MonitoringEvent, services: LocationServices) {
        wrapped.didReceive(event, services: services)
    }
    package func authorizationChanged(to authorization: Authorization, services: LocationServices) {
        wrapped.authorizationChanged(to: authorization, services: services)
    }
    package func accuracyAuthorizationChanged(
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
    package func protectedDataDidBecomeAvailable(services: LocationServices) {
        wrapped.protectedDataDidBecomeAvailable(services: services)
    }
    package func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        wrapped.backgroundTaskWillExpire(task, services: services)
    }
    package func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        wrapped.storeDidCommit(commit, services: services)
    }
    package func didCompleteUpload(
        _ task: UploadTaskID, result: UploadResult, services: LocationServices
    ) {
        wrapped.didCompleteUpload(task, result: result, services: services)
    }
    package func timerDidFire(_ timer: TimerID, services: LocationServices) {
        wrapped.timerDidFire(timer, services: services)
    }
    package func userDidSetTracking(_ on: Bool, services: LocationServices) {
        wrapped.userDidSetTracking(on, services: services)
    }
    package func applicationWillTerminate(services: LocationServices) {
        wrapped.applicationWillTerminate(services: services)
    }
}
