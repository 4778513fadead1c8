// Source A's Info.plist experiment (000_…): setting `allowsBackgroundLocationUpdates` without
// the location background mode fails an assertion and ends the process, whatever the
// authorization (R-A9).
import Simulation
import World

/// Sets the flag at launch in an app without the background mode, once per authorization,
/// and in an app with it as a control.
package struct InfoPlistExperiment: Sendable {
    package var policy = IOSPolicy.measured
    package init() {}

    package struct Row: Sendable, Equatable {
        package var authorization: Authorization
        package var backgroundMode: Bool
        /// The assertion that ended the process, if one did.
        package var crash: String?
        /// Seconds from launch to the end of the process.
        package var endedAfterSeconds: Double?
    }

    package func run() -> [Row] {
        Authorization.allCases.map { run(authorization: $0, backgroundMode: false) }
            + [run(authorization: .always, backgroundMode: true)]
    }

    package func run(authorization: Authorization, backgroundMode: Bool) -> Row {
        let route = Route(waypoints: [
            .init(instant: .start, coordinate: Coordinate(latitude: 51.5007, longitude: -0.1246))
        ])
        let configuration = WorldConfiguration(
            policy: policy, capabilities: AppCapabilities(locationBackgroundMode: backgroundMode),
            authorization: authorization, route: route)
        var world = World(configuration) { BackgroundManagerProbe() }
        world.schedule(.open, at: .start)
        world.run(until: .start + .seconds(5))
        var crash: String?
        var ended: Instant?
        for entry in world.log {
            if case .crashed(let reason) = entry.kind {
                crash = reason
                ended = entry.instant
            }
        }
        return Row(
            authorization: authorization, backgroundMode: backgroundMode, crash: crash,
            endedAfterSeconds: ended.map { ($0 - .start).seconds })
    }
}
