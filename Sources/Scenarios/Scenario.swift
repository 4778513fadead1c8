// One complete input to a run (layer 5): the policy, the engine, the app's capabilities and
// permissions, the route, the timed external events, the ordering, the seed and the horizon.
import Engines
import Simulation
import World

/// One complete input to a run of the world: everything that decides what happens, so that
/// the same scenario always gives the same trace.
///
/// It is written as a `.scenario` file (`Scenario(parsing:path:)`, `description`), or in Swift
/// with the builder:
///
///     let scenario = Scenario.build {
///         $0.engine = ScenarioEngine(.session, stopOnTerminate: false, startOnBoot: true)
///         $0.authorization = .always
///         $0.drive(.minutes(5), speed: 13.9)
///         $0.park(.minutes(20))
///         $0.at(.zero, .open)
///         $0.at(.seconds(60), .leave)
///         $0.at(.minutes(5), .forceQuit)
///         $0.horizon = .minutes(40)
///     }
///     let run = try scenario.run()   // run.world.log, run.engines
///
/// Defaults are the world's (`WorldConfiguration`): the `measured` policy, When In Use with
/// full accuracy, the location background mode, a device parked at `Scenario.defaultStart`,
/// FIFO ordering, seed 1; the horizon defaults to one hour.
public struct Scenario: Sendable, Equatable {
    /// The operating system's rules: a preset and overrides.
    public var policy = ScenarioPolicy()
    /// The engine under test and its settings.
    public var engine = ScenarioEngine(.session)
    /// What the app's Info.plist declares.
    public var capabilities = AppCapabilities()
    /// Authorization at the start.
    public var authorization = Authorization.whenInUse
    /// Accuracy authorization at the start (precise location on: `.full`).
    public var accuracy = AccuracyAuthorization.full
    /// How the user answers the app's authorization prompts.
    public var answers = AuthorizationAnswers()
    /// Where the device goes.
    public var route = ScenarioRoute.segments(
        start: Scenario.defaultStart, headingDegrees: Scenario.defaultHeadingDegrees, [])
    /// What the user and the system do, and when; kept sorted by time, events at the same
    /// time in the order they were added (the order the world receives them in).
    public var events: [TimedEvent] = [] {
        didSet { events = Self.sortedStably(events) }
    }
    /// How deliveries due at the same instant are ordered.
    public var ordering = OrderingSpecification.fifo
    /// The world's root seed.
    public var seed: UInt64 = 1
    /// Whether the app's server deduplicates uploads by key; nil, the default, takes the
    /// engine's profile's (`AppProfile.serverDeduplication`), a fact of the app. Given, it
    /// asks "what if our server did (or did not)?" for this run only.
    public var serverDeduplication: ServerDeduplication?
    /// How long the run lasts, from the start; events come at or before it.
    public var horizon = Scenario.defaultHorizon
    /// The Bluetooth beacons placed on the route (R-L45), none by default.
    public var beacons: [ScenarioBeacon] = []

    /// A scenario with the defaults above.
    public init() {}

    /// The start of a route of segments when none is given: Westminster, London.
    public static let defaultStart = BuiltInEngine.hostHome
    /// The heading of a route of segments when none is given: east.
    public static let defaultHeadingDegrees = 90.0
    /// The horizon when none is given.
    public static let defaultHorizon = VirtualDuration.hours(1)
    /// The longest horizon, and the longest route of segments: a week. Bounds the run and the
    /// route's waypoints (one a minute), and keeps every instant far from overflowing.
    public static let durationMax = VirtualDuration.hours(7 * 24)
    /// The longest horizon a scenario file may ask for: a day, the commuter day's span
    /// (`lifeline bench day`). A run's cost grows with its horizon (a week took 30 s and
    /// 1.7 GB when it was allowed); a day is about a seventh of that, and every corpus
    /// entry and generated scenario is far shorter.
    public static let horizonMax = VirtualDuration.hours(24)

    /// `events` sorted by time, ties in their given order.
    static func sortedStably(_ events: [TimedEvent]) -> [TimedEvent] {
        let isSorted = zip(events, events.dropFirst()).allSatisfy { $0.at <= $1.at }
        guard !isSorted else { return events }
        return events.enumerated()
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }
            .map(\.element)
    }
}
