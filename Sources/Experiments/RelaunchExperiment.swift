// Source A's relaunch experiment (000_…): Always, monitoring started, the app exits, then a
// drive at 50 m/s for 150 s; every launch of the app during the drive is recorded.
import Simulation
import World

/// The protocol of source A's relaunch experiment.
///
/// A short test (the app in the foreground) starts the monitoring, and the app exits when the
/// test ends. A minute later the drive starts. The host app creates no manager when it is
/// launched in the background, so the events that relaunch it go nowhere (R-A12), and it
/// ends once its wake runtime is over. Launches are counted from the start of the drive.
package struct RelaunchExperiment: Sendable {
    /// Ground speed of the drive (A: simctl `--speed=50`).
    package var speedMetersPerSecond = 50.0
    /// How long the drive lasts and launches are counted (A: 150 s).
    package var duration = VirtualDuration.seconds(150)
    package var policy = IOSPolicy.measured
    /// A route to drive instead of the straight one at `speedMetersPerSecond` (a GPX track, say);
    /// it starts when the drive does, the device parked at its first point until then.
    package var route: Route?

    /// When the test ends and the app exits, after it opened.
    static let exitAfterOpen = VirtualDuration.seconds(10)
    /// When the drive starts, after the app opened (the article does not say; the model's
    /// result is the same for any gap from 15 s to just under the visit dwell).
    static let driveAfterOpen = VirtualDuration.seconds(60)
    /// Radius of the circular condition around the start (the article does not say; 100 m is
    /// the practical minimum, F).
    package static let conditionRadiusMeters = 100.0

    package init() {}

    /// What was monitored.
    package enum Monitoring: String, Sendable, CaseIterable {
        case significantVisitsCondition = "significant-visits-condition"
        case none
        case significant
    }

    /// One run's launches.
    package struct Row: Sendable, Equatable {
        package var monitoring: Monitoring
        /// Seconds from the start of the drive to each launch.
        package var launches: [Double]
        /// The launch options of each launch.
        package var launchOptions: [[String]]
    }

    /// The three runs, in the article's order.
    package func run() -> [Row] { Monitoring.allCases.map(run) }

    package func run(_ monitoring: Monitoring) -> Row {
        let driveStart = Instant.start + Self.driveAfterOpen
        let end = driveStart + duration
        let route =
            self.route?.delayed(by: Self.driveAfterOpen)
            ?? Route(
                start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
                segments: [
                    .init(.park, Self.driveAfterOpen),
                    .init(
                        .drive, duration + .seconds(60), speedMetersPerSecond: speedMetersPerSecond),
                ])
        let start = route.waypoints[0].coordinate
        let configuration = WorldConfiguration(
            policy: policy, authorization: .always, route: route, seed: 1)
        var world = World(configuration) { MonitoringHost(monitoring: monitoring, start: start) }
        world.schedule(.open, at: .start)
        world.schedule(.exit, at: .start + Self.exitAfterOpen)
        world.run(until: end)
        var launches: [Double] = []
        var options: [[String]] = []
        for entry in world.log where entry.instant >= driveStart {
            if case .launch(let launch) = entry.kind {
                launches.append((entry.instant - driveStart).seconds)
                options.append(launch.launchOptions)
            }
        }
        return Row(monitoring: monitoring, launches: launches, launchOptions: options)
    }

    /// Source A's table: launches during the drive.
    package static let measured: [(monitoring: Monitoring, launches: String)] = [
        (.significantVisitsCondition, "2, at 23 s and 92 s"), (.none, "0"),
        (.significant, "1, at 25 s"),
    ]
}

/// The article's test host: in the foreground (the test) it starts the monitoring under study;
/// launched in the background it creates nothing (A: "The test host creates no
/// CLLocationManager at launch").
final class MonitoringHost: AppEngine {
    let monitoring: RelaunchExperiment.Monitoring
    let start: Coordinate
    init(monitoring: RelaunchExperiment.Monitoring, start: Coordinate) {
        self.monitoring = monitoring
        self.start = start
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard launch.state == .foreground else { return }
        switch monitoring {
        case .none: break
        case .significant: services.startMonitoringSignificantLocationChanges()
        case .significantVisitsCondition:
            services.startMonitoringSignificantLocationChanges()
            services.startMonitoringVisits()
            services.openMonitor("Places")
            services.addCondition(
                monitor: "Places", condition: "start", center: start,
                radiusMeters: RelaunchExperiment.conditionRadiusMeters)
        }
    }
}
