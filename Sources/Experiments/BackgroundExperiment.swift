// Source A's background experiment (000_…): When In Use, a drive at 20 m/s with a fix each
// second, the app sent to the background, fixes counted for 20 s from that moment.
import Simulation
import World

/// The protocol of source A's background experiment, and its four probes.
///
/// Each probe runs in its own world (the article ran the phases one after another, because
/// background settings are process-wide, R-A7). The app is opened, the probe starts, and two
/// seconds later the user leaves the app; only fixes that arrive while the app is in the
/// background count, as the article's tally did. XCTest hosted the app and kept its process
/// running, so the experiment attaches a test host: it shows Core Location's decisions, not
/// suspension (A).
package struct BackgroundExperiment: Sendable {
    /// Ground speed of the drive (A: simctl `--speed=20`).
    package var speedMetersPerSecond = 20.0
    /// How long fixes are counted after leaving begins (A: 20 s).
    package var window = VirtualDuration.seconds(20)
    package var policy = IOSPolicy.measured
    /// A route to follow instead of the straight drive at `speedMetersPerSecond` (a GPX track,
    /// say): the app opens at its start and leaves two seconds later. A parked route pauses
    /// live updates once the device has been still for `stationaryPauseDelay` (R-C2).
    package var route: Route?

    /// Offset of the fix grid from the instant leaving began: the measured fixes fell on x.4–x.5
    /// seconds (A: last fixes at 11.4–11.5 s and 20.4–20.5 s).
    package static let fixPhase = VirtualDuration.milliseconds(450)
    /// Time between taking the start time and starting the 20 s sleep in the article's harness
    /// (the simctl command that opens Settings), which extends the window: a fix at 20.45 s was
    /// still counted (A).
    package static let harnessLatency = VirtualDuration.milliseconds(600)
    /// When the user leaves, after the app opened.
    static let leaveAfterOpen = VirtualDuration.seconds(2)

    package init() {}

    /// One probe's result.
    package struct Row: Sendable, Equatable {
        package var probe: Probe
        /// Fixes received in the background within the window.
        package var fixes: Int
        /// Seconds from leaving to the last fix, if any.
        package var lastFixSeconds: Double?
        /// The first failure the app was told of, if any (`denied`).
        package var signal: String?
        package var signalSeconds: Double?
    }

    /// The four probes, in the article's order.
    package enum Probe: String, Sendable, CaseIterable {
        case plain, background, live
        case liveSession = "live-session"

        /// A new probe app: the factory a world calls at every launch.
        package func makeEngine() -> any AppEngine {
            switch self {
            case .plain: PlainManagerProbe()
            case .background: BackgroundManagerProbe()
            case .live: LiveUpdatesProbe()
            case .liveSession: LiveSessionProbe()
            }
        }
    }

    /// Runs every probe.
    package func run() -> [Row] { Probe.allCases.map(run) }

    /// The protocol of one run, for any probe: the world's configuration, the actions at
    /// their instants (the test host, the open, the leave), when leaving began and when the
    /// count ends. `lifeline sweep --probes` runs the probes on it too.
    package struct Plan: Sendable {
        package var configuration: WorldConfiguration
        /// In time order.
        package var actions: [(instant: Instant, action: UserAction)]
        package var leftAt: Instant
        package var end: Instant
    }

    /// The plan every probe runs under this experiment's numbers.
    package var plan: Plan {
        let leftAt = Instant.start + Self.leaveAfterOpen
        let end = leftAt + window + Self.harnessLatency
        let route =
            self.route
            ?? Route(
                start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
                segments: [
                    .init(
                        .drive, (end - .start) + .seconds(60),
                        speedMetersPerSecond: speedMetersPerSecond)
                ])
        let configuration = WorldConfiguration(
            policy: policy, authorization: .whenInUse, route: route,
            fixPhase: Self.fixPhase, seed: 1)
        return Plan(
            configuration: configuration,
            actions: [(.start, .attachTestHost(true)), (.start, .open), (leftAt, .leave)],
            leftAt: leftAt, end: end)
    }

    /// Runs one probe in a fresh world.
    package func run(_ probe: Probe) -> Row {
        let plan = self.plan
        let leftAt = plan.leftAt
        var world = World(plan.configuration) { probe.makeEngine() }
        for (instant, action) in plan.actions { world.schedule(action, at: instant) }
        world.run(until: plan.end)
        let seconds = { (instant: Instant) in (instant - leftAt).seconds }
        var fixes: [Instant] = []
        var signal: (String, Instant)?
        for entry in world.log where entry.instant >= leftAt && entry.appState == .background {
            switch entry.kind {
            case .location(let update) where update.fix != nil: fixes.append(entry.instant)
            case .failure(let error, _) where signal == nil:
                signal = (error.rawValue, entry.instant)
            default: break
            }
        }
        return Row(
            probe: probe, fixes: fixes.count, lastFixSeconds: fixes.last.map(seconds),
            signal: signal?.0, signalSeconds: signal.map { seconds($0.1) })
    }

    /// Source A's table, for comparison: fixes, last fix, signal.
    package static let measured: [(probe: Probe, fixes: Int, lastFix: String, signal: String)] = [
        (.plain, 10, "11.4–11.5 s", "denied at 13.4–13.5 s"),
        (.background, 19, "20.4–20.5 s", "none needed"),
        (.live, 11, "11.4–11.6 s", "none"),
        (.liveSession, 20, "20.4 s", "none needed"),
    ]
}
