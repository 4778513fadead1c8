// A simulator with one app installed, driven through `xcrun simctl`-shaped commands (layer 4):
// the device source A's author drove from a terminal while the app's tests ran, on the world.
import Engines
import Foundation
import Simulation
import World

/// A booted iOS simulator with one Apple-shaped app installed, and `simctl`, the commands
/// `xcrun simctl … booted …` sends it. It models what source A's experiments did to their
/// simulator (docs/sources.md): grant the app location access, set or drive a location
/// scenario, bring Settings to the front (which sends the app to the background) and launch
/// the app again. Underneath, it is one `World` running the app as an `ApplicationEngine`.
///
/// The commands can be given before the device runs (from "the terminal") and from the app's
/// own code while it runs, as the article's test code interleaves them: a command takes
/// effect at the virtual instant it is given, after the callback or job that gave it. Only
/// `launch` takes time to return (`launchDuration`), as `xcrun simctl launch` waits for the
/// app it launches.
///
///     let device = SimulatedDevice(app: "dev.example.Host") { simctl in AppDelegate() }
///     device.simctl.privacy(.grant, .location, "dev.example.Host")
///     await device.simctl.launch("dev.example.Host")
///     device.run(for: 120)
///
/// What it does not model:
/// - The location scenario is fixed when the device first runs, because the world reads one
///   route per run: the last `location.set` or `location.start` given before `run` is the
///   route. A `location.start` given later must repeat it (the same speed, interval and
///   waypoints), and then continues it: a real simulator would restart the drive at its first
///   waypoint. Anything else stops the run with a message.
/// - `--interval` must be the policy's `fixInterval` (one fix a second by default).
/// - `launch` of the app's own bundle brings it to the foreground (`open`); of any other
///   bundle (`com.apple.Preferences`), brings that app to the front, so the app leaves the
///   foreground (`leave`). Nothing else of the other app is modelled.
/// - `hostingTests` (true by default) is XCTest hosting the app, as in the article: the
///   process is kept running in the background (A's caveat), so the experiments show Core
///   Location's decisions and not suspension.
public final class SimulatedDevice: @unchecked Sendable {
    /// The installed app's bundle identifier.
    public let appBundleIdentifier: String
    /// The operating system's rules and numbers.
    public let policy: IOSPolicy
    private let capabilities: AppCapabilities
    private let fixPhase: VirtualDuration
    private let hostingTests: Bool
    private let makeEngine: @Sendable (Simctl) -> any AppEngine
    private var world: World?
    /// True once the device first ran. Commands read this, never `world`: a command given by
    /// the app's code runs inside `world.run`, which holds `world` for its whole length.
    private var isBooted = false
    /// Before the world runs: the authorization the app starts with, and the scenario.
    private var authorization = Authorization.notDetermined
    private var scenario = LocationScenario.set(Coordinate(latitude: 0, longitude: 0))
    /// Commands given and not yet handed to the world, in order.
    private var pending: [UserAction] = []

    /// How long `simctl launch` takes to return: 0.6 s, source A's measured time between taking
    /// a phase's start time and starting its 20 s sleep, the command that opens Settings in
    /// between (`BackgroundExperiment.harnessLatency`): a fix 20.45 s after the start time was
    /// still counted.
    public static let launchDuration = Duration.milliseconds(600)

    /// A device with the app `bundleIdentifier` installed, whose app delegate `delegate`
    /// makes at every launch of the app's process, given the device's `simctl` (the app's
    /// code may drive the device, as the article's tests did from the app that hosted them).
    /// The app's Info.plist declares the location background mode and no scenes unless
    /// `capabilities` says otherwise; the location scenario's fixes come `fixPhase` seconds
    /// past each whole `fixInterval`.
    public init<Delegate: UIApplicationDelegate & SendableMetatype>(
        app bundleIdentifier: String, policy: IOSPolicy = .measured,
        capabilities: AppCapabilities = AppCapabilities(
            locationBackgroundMode: true, sceneBased: false),
        hostingTests: Bool = true, fixPhase: TimeInterval = 0,
        delegate: @escaping @MainActor @Sendable (Simctl) -> Delegate
    ) {
        appBundleIdentifier = bundleIdentifier
        self.policy = policy
        self.capabilities = capabilities
        self.fixPhase = VirtualDuration(seconds: fixPhase)
        self.hostingTests = hostingTests
        makeEngine = { simctl in
            ApplicationEngine(delegate: { _ in delegate(simctl) }, setTracking: { _, _ in })
        }
    }

    /// `xcrun simctl`, aimed at this (booted) device.
    public var simctl: Simctl { Simctl(device: self) }

    /// The virtual time since the device started running, in seconds.
    public var elapsed: TimeInterval {
        world.map { ($0.simulation.scheduler.now - .start).seconds } ?? 0
    }

    /// Runs the device for `seconds` of virtual time (its first run boots it), applying the
    /// commands given before and during the run at their instants.
    public func run(for seconds: TimeInterval) {
        let start = world?.simulation.scheduler.now ?? .start
        let end = start + VirtualDuration(seconds: seconds)
        if world == nil { boot() }
        while true {
            handOverCommands()
            guard let outcome = world?.run(until: end, eventCountMax: 1) else { return }
            if outcome.exitReason != .eventCountMaxReached && pending.isEmpty { return }
        }
    }

    /// Everything the app saw, in order (`World.log`).
    public var log: AppLog { world?.log ?? AppLog() }

    private func boot() {
        let configuration = WorldConfiguration(
            policy: policy, capabilities: capabilities, authorization: authorization,
            route: scenario.route, fixPhase: fixPhase, seed: 1)
        let makeEngine = makeEngine
        let simctl = simctl
        var world = World(configuration) { makeEngine(simctl) }
        if hostingTests { world.schedule(.attachTestHost(true), at: .start) }
        self.world = world
        isBooted = true
    }

    private func handOverCommands() {
        guard world != nil, !pending.isEmpty else { return }
        let now = world!.simulation.scheduler.now
        for action in pending { world!.schedule(action, at: now) }
        pending = []
    }

    fileprivate func give(_ action: UserAction) { pending.append(action) }

    fileprivate func grant(_ authorization: Authorization, to bundleIdentifier: String) {
        precondition(
            bundleIdentifier == appBundleIdentifier,
            "simctl privacy: \(bundleIdentifier) is not installed (the device has "
                + "\(appBundleIdentifier))")
        if !isBooted {
            self.authorization = authorization
        } else {
            give(.setAuthorization(authorization))
        }
    }

    fileprivate func launch(_ bundleIdentifier: String) {
        give(bundleIdentifier == appBundleIdentifier ? .open : .leave)
    }

    fileprivate func location(_ scenario: LocationScenario) {
        if case .start(_, let interval, _) = scenario {
            precondition(
                VirtualDuration(seconds: interval) == policy.fixInterval,
                "simctl location start --interval=\(interval): the policy's fixInterval is "
                    + "\(policy.fixInterval), and the world delivers one fix per fixInterval")
        }
        if !isBooted {
            self.scenario = scenario
            return
        }
        precondition(
            scenario == self.scenario,
            "simctl location: the device booted with \(self.scenario) and the world reads one "
                + "route per run; give this scenario before the device first runs")
    }
}

/// A location scenario as `simctl location` gives one.
enum LocationScenario: Equatable, CustomStringConvertible {
    /// `set <lat,lon>`: still at one place.
    case set(Coordinate)
    /// `start --speed=<m/s> --interval=<s> <waypoint>…`: a drive through the waypoints.
    case start(speed: Double, interval: TimeInterval, waypoints: [Coordinate])

    var description: String {
        switch self {
        case .set(let coordinate): "location set \(coordinate)"
        case .start(let speed, let interval, let waypoints):
            "location start --speed=\(speed) --interval=\(interval) "
                + waypoints.map(\.description).joined(separator: " ")
        }
    }

    /// The route from the run's start: still, or through the waypoints at the speed, each leg
    /// a straight line, then still at the last one.
    var route: Route {
        switch self {
        case .set(let coordinate):
            return Route(waypoints: [Route.Waypoint(instant: .start, coordinate: coordinate)])
        case .start(let speed, _, let coordinates):
            var instant = Instant.start
            var waypoints: [Route.Waypoint] = []
            for (index, coordinate) in coordinates.enumerated() {
                if index > 0 {
                    let meters = coordinates[index - 1].distance(to: coordinate)
                    instant = instant + VirtualDuration(seconds: meters / speed)
                }
                waypoints.append(Route.Waypoint(instant: instant, coordinate: coordinate))
            }
            return Route(waypoints: waypoints)
        }
    }
}

/// `xcrun simctl`, aimed at one booted `SimulatedDevice` (see it for what is modelled).
///
/// It holds its device unowned: give commands while the device exists.
public struct Simctl: Sendable {
    unowned let device: SimulatedDevice

    /// What `simctl privacy` does.
    public enum PrivacyAction: String, Sendable {
        /// `grant`.
        case grant
        /// `revoke`: the app is denied.
        case revoke
        /// `reset`: not determined again.
        case reset
    }

    /// The service `simctl privacy` acts on.
    public enum PrivacyService: String, Sendable {
        /// `location`: When In Use.
        case location
        /// `location-always`: Always.
        case locationAlways = "location-always"
    }

    /// `xcrun simctl privacy booted <action> <service> <bundle identifier>`.
    public func privacy(
        _ action: PrivacyAction, _ service: PrivacyService, _ bundleIdentifier: String
    ) {
        let authorization: Authorization =
            switch (action, service) {
            case (.grant, .location): .whenInUse
            case (.grant, .locationAlways): .always
            case (.revoke, _): .denied
            case (.reset, _): .notDetermined
            }
        device.grant(authorization, to: bundleIdentifier)
    }

    /// `xcrun simctl launch booted <bundle identifier>`: the app itself comes to the
    /// foreground (launched if it is not running); any other app comes to the front, sending
    /// the app to the background. The change happens at once; the command returns when the
    /// launched app has started, `SimulatedDevice.launchDuration` later in virtual time, when
    /// the app's own code gives it (before the device runs, it returns at once).
    public func launch(_ bundleIdentifier: String) async {
        device.launch(bundleIdentifier)
        guard ProcessScope.current != nil else { return }
        try? await Task.sleep(for: SimulatedDevice.launchDuration)
    }

    /// `xcrun simctl location booted …`.
    public var location: Location { Location(device: device) }

    /// `simctl location`'s subcommands.
    public struct Location: Sendable {
        unowned let device: SimulatedDevice

        /// `xcrun simctl location booted set <latitude>,<longitude>`.
        public func set(_ coordinate: CLLocationCoordinate2D) {
            device.location(.set(Coordinate(coordinate)))
        }

        /// `xcrun simctl location booted start --speed=<m/s> --interval=<s> <waypoint>…`.
        public func start(
            speed: CLLocationSpeed, interval: TimeInterval, _ waypoints: CLLocationCoordinate2D...
        ) {
            precondition(waypoints.count >= 2, "simctl location start: at least two waypoints")
            precondition(speed > 0, "simctl location start: a speed above 0")
            device.location(
                .start(speed: speed, interval: interval, waypoints: waypoints.map(Coordinate.init)))
        }
    }
}

extension Coordinate {
    init(_ coordinate: CLLocationCoordinate2D) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }
}
