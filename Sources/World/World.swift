// A world to run (layer 3): the operating system, the location daemon and the app process as
// actors on one simulation, from a configuration, with user actions scheduled by the caller.
import Simulation

/// Everything a world is built from.
public struct WorldConfiguration: Sendable {
    /// The operating system's rules and numbers.
    public var policy: IOSPolicy
    /// What the app's Info.plist declares.
    public var capabilities: AppCapabilities
    /// Authorization and accuracy at the start.
    public var authorization: Authorization
    public var accuracy: AccuracyAuthorization
    /// Where the device goes.
    public var route: Route
    /// Offset of the fix grid from whole intervals (fixes at `fixPhase + k · fixInterval`).
    package var fixPhase: VirtualDuration
    /// The root seed; each actor derives its own stream from it.
    public var seed: UInt64
    /// How simultaneous deliveries are ordered.
    public var ordering: OrderingSpecification
    /// How long the device has been up when the run starts: the first boot time the app reads
    /// (`LocationServices.bootTime`) is this long before the start.
    public var uptimeAtStart: VirtualDuration
    /// How the user answers the app's authorization requests.
    public var authorizationAnswers: AuthorizationAnswers
    /// Whether the app's server deduplicates uploads by their idempotency key (the app's
    /// profile, `AppProfile.serverDeduplication`).
    public var serverDeduplication: ServerDeduplication
    /// The Bluetooth beacons placed along the route (R-L45), none by default.
    public var beacons: [Beacon]
    /// What the app's server serves to a fetch (`GET`, R-N45): none unless set; a fetch of
    /// any other path is answered 404.
    public var serverResources: [ServerResource] = []

    public init(
        policy: IOSPolicy = .measured, capabilities: AppCapabilities = AppCapabilities(),
        authorization: Authorization = .whenInUse, accuracy: AccuracyAuthorization = .full,
        route: Route, fixPhase: VirtualDuration = .zero, seed: UInt64 = 1,
        ordering: OrderingSpecification = .fifo, uptimeAtStart: VirtualDuration = .hours(26),
        authorizationAnswers: AuthorizationAnswers = AuthorizationAnswers(),
        serverDeduplication: ServerDeduplication = .byKey, beacons: [Beacon] = []
    ) {
        self.beacons = beacons
        self.serverDeduplication = serverDeduplication
        self.policy = policy
        self.capabilities = capabilities
        self.authorization = authorization
        self.accuracy = accuracy
        self.route = route
        self.fixPhase = fixPhase
        self.seed = seed
        self.ordering = ordering
        self.uptimeAtStart = uptimeAtStart
        self.authorizationAnswers = authorizationAnswers
    }
}

/// iOS and one app, as actors on a simulation.
///
///     var world = World(configuration) { MyApp() }  // an `AppEngine`
///     world.schedule(.open, at: .start)
///     world.schedule(.leave, at: .start + .seconds(2))
///     _ = world.run(until: .start + .seconds(30))
///     world.log   // what the app saw
///
/// ## Topics
///
/// ### Making a world
///
/// - ``init(_:engine:)``
/// - ``init(_:ordering:engine:)``
/// - ``WorldConfiguration``
///
/// ### Scheduling
///
/// - ``schedule(_:at:)``
///
/// ### Running
///
/// - ``run(until:eventCountMax:)``
///
/// ### Reading results
///
/// - ``log``
/// - ``storedRows``
/// - ``savedRecordOnDisk``
public struct World {
    /// The simulation the actors run on.
    package var simulation: Simulation<WorldMessage>
    package let operatingSystem = ActorID(index: 0)
    package let daemon = ActorID(index: 1)
    package let app = ActorID(index: 2)
    /// The network and the server behind it.
    package let network = ActorID(index: 3)
    private let appProcess: AppProcess
    private let system: OperatingSystem
    private let locationDaemon: LocationDaemon
    private let networkActor: Network
    /// The run's fixes, kept once for the log, the disk and the server.
    private let fixArchive: FixArchive
    /// The device's battery (R-B1, R-B2).
    package let battery: Battery

    public init(_ configuration: WorldConfiguration, engine: @escaping () -> any AppEngine) {
        self.init(configuration, trace: nil, engine: engine)
    }

    /// A world whose messages also go to `trace` (the message type is the package's own).
    package init(
        _ configuration: WorldConfiguration, trace: (any TraceSink<WorldMessage>)?,
        engine: @escaping () -> any AppEngine
    ) {
        self.init(
            configuration, ordering: configuration.ordering.makeStrategy(), trace: trace,
            engine: engine)
    }

    /// A world whose same-instant orderings come from `ordering` instead of the
    /// configuration's (an explorer's test case, say, so that a failing ordering shrinks).
    public init(
        _ configuration: WorldConfiguration, ordering: OrderingStrategy,
        engine: @escaping () -> any AppEngine
    ) {
        self.init(configuration, ordering: ordering, trace: nil, engine: engine)
    }

    /// The same, with the messages also going to `trace`.
    package init(
        _ configuration: WorldConfiguration, ordering: OrderingStrategy,
        trace: (any TraceSink<WorldMessage>)?, engine: @escaping () -> any AppEngine
    ) {
        _ = HashTableOrder.fixed
        let root = Seed(configuration.seed)
        let battery = Battery()
        self.battery = battery
        simulation = Simulation(ordering: ordering, trace: trace)
        let os = OperatingSystem(
            policy: configuration.policy, capabilities: configuration.capabilities,
            authorization: configuration.authorization, accuracy: configuration.accuracy,
            answers: configuration.authorizationAnswers, daemon: daemon, app: app,
            network: network, seed: root.derive("os"), battery: battery)
        system = os
        let locationDaemon = LocationDaemon(
            policy: configuration.policy, capabilities: configuration.capabilities,
            route: configuration.route, fixPhase: configuration.fixPhase,
            authorization: configuration.authorization, accuracy: configuration.accuracy,
            os: operatingSystem, app: app, seed: root.derive("daemon.noise"), battery: battery)
        self.locationDaemon = locationDaemon
        let fixArchive = FixArchive()
        self.fixArchive = fixArchive
        appProcess = AppProcess(
            makeEngine: engine, capabilities: configuration.capabilities,
            policy: configuration.policy, accuracy: configuration.accuracy,
            uptimeAtStart: configuration.uptimeAtStart, os: operatingSystem, daemon: daemon,
            network: network, fixArchive: fixArchive,
            motion: MotionCoprocessor(route: configuration.route), battery: battery,
            beacons: BeaconField(beacons: configuration.beacons, route: configuration.route),
            concurrencyChoices: ordering.kind == .fifo ? nil : ordering.choices)
        networkActor = Network(
            policy: configuration.policy, app: app, operatingSystem: operatingSystem,
            seed: root.derive("network"), deduplication: configuration.serverDeduplication,
            fixArchive: fixArchive, serverResources: configuration.serverResources)
        precondition(simulation.add(os) == operatingSystem)
        precondition(simulation.add(locationDaemon) == daemon)
        precondition(simulation.add(appProcess) == app)
        precondition(simulation.add(networkActor) == network)
    }

    /// Schedules a user (or system) action; the network's go to the network.
    public mutating func schedule(_ action: UserAction, at instant: Instant) {
        let receiver =
            action.isNetworkAction ? network : action.isAppAction ? app : operatingSystem
        simulation.scheduler.send(.user(action), to: receiver, at: instant)
    }

    /// Runs until `horizon` (inclusive), within `eventCountMax` deliveries.
    @discardableResult
    public mutating func run(until horizon: Instant, eventCountMax: Int = 50_000_000) -> RunOutcome
    {
        simulation.run(eventCountMax: eventCountMax, horizon: horizon)
    }

    /// The loop Lifeline's own model fell into, if it did (`ModelLoop`): the run stopped
    /// there, and what it recorded is no verdict on the app.
    package var modelLoop: ModelLoop? { system.modelLoop }

    /// Everything the app saw, in order.
    public var log: AppLog { appProcess.log }

    /// How many fixes the run's archive holds (`FixArchive`): each fix the log, the disk and
    /// the server share counts once.
    package var fixesKept: Int { fixArchive.count }

    /// The rows of the app's store on the device's disk now: every completed commit's, in
    /// commit order (what "stored" means), less those its completed deletions removed.
    public var storedRows: StoredRows { appProcess.disk.rows }
    /// The app's files on the device (its container, docs/files.md).
    package var files: DeviceFiles { appProcess.files }

    /// The app's saved record as written on the device's disk now (changes not yet written are
    /// not in it).
    public var savedRecordOnDisk: [String: SavedValue] { appProcess.disk.savedValues }

    /// True while iOS shows the blue background location indicator for the app (R-B8, R-A8):
    /// in the background, while a background activity session lives; or while location in use
    /// reaches the app there, always for When In Use, and for Always only through a manager
    /// with `showsBackgroundLocationIndicator`.
    package var isLocationIndicatorShown: Bool { locationDaemon.locationIndicatorShown }

    /// Every time the indicator appeared or went, in order (it starts hidden).
    package var locationIndicatorChanges: [LocationIndicatorChange] {
        locationDaemon.indicatorChanges
    }
    /// The server the app uploads to: every batch it accepted, read-only.
    package var server: UploadServer { networkActor.server }

    /// The network's condition now.
    package var networkCondition: NetworkCondition { networkActor.condition }

    /// Items the app's mailbox holds now (for a suspended process, a launch on its way, or a
    /// listener not yet recreated).
    package var heldCount: Int { appProcess.heldCount }
}
