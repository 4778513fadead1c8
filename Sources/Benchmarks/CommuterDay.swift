// One commuter's day on the world model: the workload of `lifeline bench day`, and a realistic
// day for tests: parked at night, a drive and a walk to work, parked all day, and back.
import Simulation
import World

/// 07:00 drive 45 min at 15 m/s, walk 10 min, parked until 17:30, walk 10 min, drive 45 min,
/// parked until midnight; the app tracks with live updates and a background activity session,
/// opened at 06:50 and left at 06:51.
package struct CommuterDay: Sendable {
    package var policy = IOSPolicy.measured
    package var seed: UInt64 = 1
    package init() {}

    /// The day's route from a home in London.
    package static var route: Route {
        Route(
            start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
            segments: [
                .init(.park, .hours(7)),
                .init(.drive, .minutes(45), speedMetersPerSecond: 15),
                .init(.walk, .minutes(10), speedMetersPerSecond: 1.4, headingChangeDegrees: 90),
                .init(.park, .hours(9) + .minutes(35)),
                .init(.walk, .minutes(10), speedMetersPerSecond: 1.4, headingChangeDegrees: 180),
                .init(.drive, .minutes(45), speedMetersPerSecond: 15, headingChangeDegrees: -90),
                .init(.park, .hours(5) + .minutes(35)),
            ])
    }

    /// What a day did.
    package struct Outcome: Sendable {
        package var deliveries: Int
        package var fixesReceived: Int
        package var stationaryUpdates: Int
        package var launches: Int
        /// The kernel's trace hash over every delivery of the day, when asked for.
        package var traceHash: UInt64?
    }

    /// Runs the day; with `hashesTrace`, also folds every delivery into the kernel's trace hash.
    package func run(hashesTrace: Bool = false) -> Outcome {
        let configuration = WorldConfiguration(
            policy: policy, authorization: .whenInUse, route: Self.route, seed: seed)
        let trace = hashesTrace ? HashingTrace<WorldMessage>() : nil
        var world = World(configuration, trace: trace) { SessionTracker() }
        world.schedule(.open, at: .start + .hours(6) + .minutes(50))
        world.schedule(.leave, at: .start + .hours(6) + .minutes(51))
        let outcome = world.run(until: .start + .hours(24))
        var fixes = 0
        var stationary = 0
        var launches = 0
        // Fixes read field by field (`AppLog.locationUpdate(at:)`), launches among the uncommon
        // entries: reading every entry whole builds each one's kind.
        let log = world.log
        for index in log.indices {
            guard let update = log.locationUpdate(at: index) else { continue }
            if update.fix != nil { fixes += 1 }
            if update.stationary { stationary += 1 }
        }
        for entry in log.uncommon {
            if case .launch = entry.kind { launches += 1 }
        }
        return Outcome(
            deliveries: outcome.deliveredCount, fixesReceived: fixes, stationaryUpdates: stationary,
            launches: launches, traceHash: trace?.hash.value)
    }
}

/// Live updates held with a background activity session, started when the app opens.
final class SessionTracker: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = services.beginBackgroundActivitySession()
        _ = services.startLiveUpdates(.automotiveNavigation)
    }
}
