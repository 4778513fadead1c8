// Source A's Info.plist experiment (000_…): setting `allowsBackgroundLocationUpdates` without
// the location background mode fails an assertion and ends the process, whatever the
// authorization (R-A9).
import Simulation
import World

/// Sets the flag at launch in an app without the background mode, once per authorization,
/// and in an app with it as a control.
public struct InfoPlistExperiment: Sendable {
    public var policy = IOSPolicy.measured
    public init() {}

    public struct Row: Sendable, Equatable {
        public var authorization: Authorization
        public var backgroundMode: Bool
        /// The assertion that ended the process, if one did.
        public var crash: String?
        /// Seconds from launch to the end of the process.
        public var endedAfterSeconds: Double?
    }

    public func run() -> [Row] {
        Authorization.allCases.map { run(authorization: $0, backgroundMode: false) }
            + [run(authorization: .always, backgroundMode: true)]
    }

    public func run(authorization: Authorization, backgroundMode: Bool) -> Row {
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
