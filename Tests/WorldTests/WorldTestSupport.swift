// Helpers for the world tests: routes, an engine built from closures, and running a world with
// timed actions.
import Simulation

@testable import World

let home = Coordinate(latitude: 51.5007, longitude: -0.1246)

/// A drive east at `speed` m/s from the start, after `parkedFor`, lasting `duration`.
func drive(
    _ speed: Double, parkedFor: VirtualDuration = .zero, duration: VirtualDuration = .hours(2)
) -> Route {
    Route(
        start: home, headingDegrees: 90,
        segments: [.init(.park, parkedFor), .init(.drive, duration, speedMetersPerSecond: speed)])
}

/// A GNSS fix `second` seconds after the start, 0.001° (about 111 m) further north each second.
func movingFix(_ second: Int64) -> Fix {
    Fix(
        instant: .start + .seconds(second),
        coordinate: Coordinate(latitude: 51.5 + Double(second) / 1000, longitude: -0.1),
        horizontalAccuracyMeters: 5, source: .gnss, speedMetersPerSecond: 13.9)
}

/// A device that never moves.
let parked = Route(waypoints: [.init(instant: .start, coordinate: home)])

/// An engine whose callbacks are closures.
final class ScriptedEngine: AppEngine {
    var onLaunch: (LaunchContext, LocationServices) -> Void
    var onEvent: (MonitoringEvent, LocationServices) -> Void = { _, _ in }
    var onUpdate: (LocationUpdate, LocationServices) -> Void = { _, _ in }
    var onTimer: (TimerID, LocationServices) -> Void = { _, _ in }
    var onLifecycle: (ProcessState, LocationServices) -> Void = { _, _ in }
    var onTaskExpiry: ((BackgroundTaskID, LocationServices) -> Void)?

    init(onLaunch: @escaping (LaunchContext, LocationServices) -> Void) { self.onLaunch = onLaunch }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        onLaunch(launch, services)
    }
    func didReceive(_ event: MonitoringEvent, services: LocationServices) {
        onEvent(event, services)
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        onUpdate(update, services)
    }
    func timerDidFire(_ timer: TimerID, services: LocationServices) {
        onTimer(timer, services)
    }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        onLifecycle(state, services)
    }
    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if let onTaskExpiry {
            onTaskExpiry(task, services)
        } else {
            services.endBackgroundTask(task)
        }
    }
}

/// Runs a world until `end` with `actions` at the given seconds.
func runWorld(
    policy: IOSPolicy = .measured, authorization: Authorization = .whenInUse,
    accuracy: AccuracyAuthorization = .full, capabilities: AppCapabilities = AppCapabilities(),
    route: Route = drive(20), until end: Double, actions: [(Double, UserAction)],
    engine: @escaping () -> any AppEngine
) -> World {
    let configuration = WorldConfiguration(
        policy: policy, capabilities: capabilities, authorization: authorization,
        accuracy: accuracy, route: route)
    var world = World(configuration, engine: engine)
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return world
}

extension World {
    /// Seconds of each entry that matches.
    func seconds(where matches: (AppLogEntry) -> Bool) -> [Double] {
        log.filter(matches).map { ($0.instant - .start).seconds }
    }

    /// Seconds of every fix the app received.
    var fixSeconds: [Double] {
        seconds { if case .location(let update) = $0.kind { update.fix != nil } else { false } }
    }

    /// Seconds of every launch, with its context.
    var launches: [(seconds: Double, context: LaunchContext)] {
        log.compactMap { entry in
            if case .launch(let context) = entry.kind {
                ((entry.instant - .start).seconds, context)
            } else {
                nil
            }
        }
    }

    /// Seconds of every monitoring event received.
    var eventSeconds: [Double] { seconds { if case .event = $0.kind { true } else { false } } }

    /// How each process ended.
    var terminations: [TerminationCause] {
        log.compactMap { if case .killed(let cause) = $0.kind { cause } else { nil } }
    }
}

/// A When In Use app with live updates, hosted by a test host, that begins a background
/// activity session each time it reaches the background: it leaves at 2 s, returns at 30 s
/// and leaves again at 40 s (R-C5: a session begun in the background waits for a foreground).
func sessionBegunInBackgroundWorld() -> World {
    runWorld(
        authorization: .whenInUse, until: 80,
        actions: [
            (0, .attachTestHost(true)), (0, .open), (2, .leave), (30, .open), (40, .leave),
        ]
    ) {
        let engine = ScriptedEngine { _, services in _ = services.startLiveUpdates() }
        engine.onLifecycle = { state, services in
            if state == .background && services.requests.isEmpty {
                _ = services.beginBackgroundActivitySession()
            }
        }
        return engine
    }
}
