// One finished run as the invariants read it (layer 5): the world's log, disk and server, the
// full trace, every process's engine with its stamped events, and the inputs of the run.
import Engines
import Simulation
import World

/// Everything an invariant, a metric or a timeline reads about one finished run of a world
/// around a `TrackingEngine`: what the run was given (configuration, launch rules, external
/// actions, horizon) and what it did (the app's log, the store and the server on the device's
/// disk and network at the end, the full trace, and the engine of every launch with its events).
///
/// Build one with `run(configuration:actions:horizon:launchRules:engine:)`, which creates the
/// world with an in-memory trace, schedules the actions, runs to the horizon and collects:
///
///     let record = RunRecord.run(
///         configuration: WorldConfiguration(authorization: .always, route: route),
///         actions: [ScheduledAction(.start, .open), ScheduledAction(.start + .minutes(1), .leave)],
///         horizon: .start + .minutes(30), launchRules: LaunchRules()
///     ) { BuiltInEngine.session.make() }
///     let violations = Invariant.builtIn.flatMap { $0.check(record) }
///
/// Process generations link the parts: generation `g` (1 for the first launch) is the process
/// of `engines[g - 1]`, of the log entries with `generation == g`, and of the trace's messages
/// that carry `generation: g`.
public struct RunRecord {
    /// The world's configuration: policy, capabilities, authorization, route, seed, ordering.
    public let configuration: WorldConfiguration
    /// The engine's `stopOnTerminate` and `startOnBoot` (R-B11, R-B12); nil for an engine that
    /// has no such settings (`LocationRuntime` restores whatever its record says), for which
    /// `configuration-honoured` checks nothing.
    public let launchRules: LaunchRules?
    /// The external actions (user, system, network), in the order they were scheduled, which
    /// is time order.
    public let actions: [ScheduledAction]
    /// The run ended here (inclusive).
    public let horizon: Instant
    /// How the run ended (`RunOutcome.exitReason`).
    public let outcome: RunOutcome
    /// The loop Lifeline's own model fell into, if it did (`ModelLoop`): the run stopped
    /// there, so nothing in it is judged (`Scenario.record()` throws it).
    public let modelLoop: ModelLoop?
    /// Everything the app saw, in order (`World.log`).
    public let log: AppLog
    /// The store's rows on disk at the end, in commit order (`World.storedRows`).
    public let storedRows: StoredRows
    /// The upload server at the end (`World.server`).
    public let server: UploadServer
    /// Every delivered message, in delivery order, with the running hash: kept only when the
    /// run was asked to (`run(keepsTrace:)`, for pictures, trace files and policy diffs), nil
    /// otherwise, so that a long run's memory does not grow with every delivery.
    package let trace: MemoryTrace<WorldMessage>?
    /// What the invariants read of the trace, kept whether or not the trace is.
    public let digest: TraceDigest
    /// The engine of every launch, in launch order: `engines[g - 1]` ran process `g`.
    public let engines: [any TrackingEngine]
    /// Every engine's events, each with the instant of the callback that told it, in the
    /// order told (`StampedEngineEvent`): narration for timelines, which no built-in invariant
    /// reads. Read from the engines' own events and the run's stamps the first time it is
    /// asked for (a long run's narration is then not held twice while it runs). A built-in
    /// engine's are empty when the run did not keep narration (`run(keepsNarration:)`).
    public var engineEvents: [StampedEngineEvent] {
        switch narration {
        case .told(let events): events
        case .stamped(let stamps):
            derived.value(\.engineEvents) { Self.events(stamped: stamps, by: engines) }
        }
    }
    /// The engines' events as the run stamped them, or as given.
    private let narration: Narration
    /// How to read a location out of the app's rows, on disk and on the server.
    public let reader: FixReader
    /// Whether the app tracks from its first launch (turning tracking on whenever the user
    /// opens it, unless the user turned it off) or only on the user's toggle
    /// (`AppProfile.trackingStart`).
    public let trackingStart: TrackingStart
    /// The views read from the parts above, kept once read (every invariant reads them).
    let derived = DerivedViews()

    /// The OS's rules and numbers of the run.
    public var policy: IOSPolicy { configuration.policy }
    /// What the app's Info.plist declared.
    public var capabilities: AppCapabilities { configuration.capabilities }
    /// Where the device went.
    public var route: Route { configuration.route }

    /// Runs a world of `configuration` around a new `engine()` at every launch, with
    /// `actions` scheduled, until `horizon`, and records it. `actions` must be in time order.
    /// `keepsTrace` keeps every delivery (`trace`); `keepsNarration` false asks the built-in
    /// engines not to keep their events (`engineEvents` is then empty), for a run that no
    /// timeline reads: a week's drive holds 58 MB less (`EngineNarration`).
    public static func run(
        configuration: WorldConfiguration, actions: [ScheduledAction], horizon: Instant,
        launchRules: LaunchRules?, reader: FixReader = .fixRecorder,
        trackingStart: TrackingStart = .atFirstLaunch,
        eventCountMax: Int = defaultEventCountMax, keepsTrace: Bool = false,
        keepsNarration: Bool = true, engine: @escaping () -> any TrackingEngine
    ) -> RunRecord {
        precondition(
            zip(actions, actions.dropFirst()).allSatisfy { $0.instant <= $1.instant },
            "actions in time order")
        precondition(actions.allSatisfy { $0.instant <= horizon }, "actions before the horizon")
        let ledger = EngineLedger()
        let stamper = EngineEventStamper(
            ledger: ledger, capacity: RunCapacity.hint.next, keepsTrace: keepsTrace)
        var world = World(configuration, trace: stamper) {
            let made = engine()
            // An engine that pushes its events is read only after it told one.
            (made as? any PushesEngineEvents)?.eventListener = stamper
            // Appended moved out and back, as `EngineEventStamper` does, which reads the
            // engines after every delivery to the app.
            var engines: [any TrackingEngine] = []
            swap(&engines, &ledger.engines)
            engines.append(made)
            swap(&engines, &ledger.engines)
            return made
        }
        stamper.app = world.app
        for scheduled in actions { world.schedule(scheduled.action, at: scheduled.instant) }
        // The engines are made during the run, and read then whether to keep their narration.
        let outcome = EngineNarration.$isKept.withValue(keepsNarration) {
            world.run(until: horizon, eventCountMax: eventCountMax)
        }
        stamper.finish()
        RunCapacity.hint.note(stamper.recorded)
        return RunRecord(
            configuration: configuration, launchRules: launchRules, actions: actions,
            horizon: horizon, outcome: outcome, log: world.log, storedRows: world.storedRows,
            server: world.server, trace: stamper.memory, digest: stamper.digest,
            engines: ledger.engines, narration: .stamped(stamper.stamps), reader: reader,
            trackingStart: trackingStart, modelLoop: world.modelLoop)
    }

    /// A record from parts gathered elsewhere (a replayed or edited run): `engines` in launch
    /// order and `engineEvents` stamped as `StampedEngineEvent` says; `digest` is read from
    /// `trace` unless given (a record that did not keep its trace gives its digest).
    package init(
        configuration: WorldConfiguration, launchRules: LaunchRules?, actions: [ScheduledAction],
        horizon: Instant, outcome: RunOutcome, log: AppLog, storedRows: StoredRows,
        server: UploadServer, trace: MemoryTrace<WorldMessage>?, digest: TraceDigest? = nil,
        engines: [any TrackingEngine], engineEvents: [StampedEngineEvent],
        reader: FixReader = .fixRecorder, trackingStart: TrackingStart = .atFirstLaunch
    ) {
        self.init(
            configuration: configuration, launchRules: launchRules, actions: actions,
            horizon: horizon, outcome: outcome, log: log, storedRows: storedRows, server: server,
            trace: trace, digest: digest ?? TraceDigest(trace ?? MemoryTrace()), engines: engines,
            narration: .told(engineEvents), reader: reader, trackingStart: trackingStart)
    }

    private init(
        configuration: WorldConfiguration, launchRules: LaunchRules?, actions: [ScheduledAction],
        horizon: Instant, outcome: RunOutcome, log: AppLog, storedRows: StoredRows,
        server: UploadServer, trace: MemoryTrace<WorldMessage>?, digest: TraceDigest,
        engines: [any TrackingEngine], narration: Narration, reader: FixReader,
        trackingStart: TrackingStart, modelLoop: ModelLoop? = nil
    ) {
        self.modelLoop = modelLoop
        self.digest = digest
        self.configuration = configuration
        self.launchRules = launchRules
        self.actions = actions
        self.horizon = horizon
        self.outcome = outcome
        self.log = log
        self.storedRows = storedRows
        self.server = server
        self.trace = trace
        self.engines = engines
        self.narration = narration
        self.reader = reader
        self.trackingStart = trackingStart
    }

    /// The location `row` holds, read with the app's `reader`; nil when it holds none or
    /// cannot be read (`unreadableRows` lists those).
    public func fix(in row: StoredRow) -> Fix? {
        (try? reader.read(row)) ?? nil
    }

    /// The first row on disk or on the server that the app's `reader` cannot read, if any
    /// (store rows first, then batches, in order): bad input from the team, which every command
    /// reports as such (exit 2) naming the row (`Scenario.record()` throws it).
    public var firstUnreadableRow: UnreadableRow? {
        reader.mayThrow ? unreadableRows.first : nil
    }

    /// The rows on disk and on the server that the app's `reader` could not read, in order:
    /// bad input from the team. The invariants read such a row as holding no fix.
    public var unreadableRows: [UnreadableRow] {
        var found: [UnreadableRow] = []
        func read(_ row: StoredRow, _ place: String) {
            do { _ = try reader.read(row) } catch {
                found.append(UnreadableRow(place: place, row: row, reason: "\(error)"))
            }
        }
        for (index, row) in storedRows.enumerated() { read(row, "store row \(index + 1)") }
        for (batchIndex, batch) in server.accepted.enumerated() {
            for (rowIndex, row) in batch.rows.enumerated() {
                read(row, "upload batch \(batchIndex + 1), row \(rowIndex + 1)")
            }
        }
        return found
    }

    /// The engines' events: stamped as the run went, or given whole by a record made from
    /// parts.
    enum Narration {
        case stamped([EventStampRun])
        case told([StampedEngineEvent])
    }

    /// The events the stamps name, read from `engines` (each engine's events once).
    private static func events(stamped stamps: [EventStampRun], by engines: [any TrackingEngine])
        -> [StampedEngineEvent]
    {
        var told: [[TrackingEvent]?] = Array(repeating: nil, count: engines.count)
        var events: [StampedEngineEvent] = []
        events.reserveCapacity(stamps.reduce(0) { $0 + Int($1.count) })
        for stamp in stamps {
            let generation = Int(stamp.generation)
            guard generation >= 1, generation <= engines.count else { continue }
            let engineEvents = told[generation - 1] ?? engines[generation - 1].events
            told[generation - 1] = engineEvents
            let start = Int(stamp.start)
            let end = min(start + Int(stamp.count), engineEvents.count)
            guard start < end else { continue }
            for index in start..<end {
                events.append(
                    StampedEngineEvent(
                        instant: stamp.instant, traceIndex: stamp.traceIndex,
                        generation: generation, event: engineEvents[index]))
            }
        }
        return events
    }

    /// The deliveries a run may make before it stops (`World.run`'s bound): far above a
    /// simulated day (about a million), so reaching it is a reported outcome, never a hang.
    public static let defaultEventCountMax = 50_000_000
}

/// The views of a `RunRecord` that its properties compute from the log and the trace, each
/// kept the first time it is read: a record's parts never change, so neither do they. Shared by
/// the copies of one record, which all read the same parts.
final class DerivedViews {
    var processes: [ProcessSpan]?
    var storedFixes: StoredFixes?
    var backgroundChanges: [BackgroundChange]?
    var eventsByGeneration: [[StampedEngineEvent]]?
    var engineEvents: [StampedEngineEvent]?
    var trackingIntent: TrackingIntent?

    /// The view at `path`, computed by `read` the first time.
    func value<View>(_ path: ReferenceWritableKeyPath<DerivedViews, View?>, _ read: () -> View)
        -> View
    {
        if let kept = self[keyPath: path] { return kept }
        let view = read()
        self[keyPath: path] = view
        return view
    }
}

/// An external action at its instant: what a scenario schedules.
public struct ScheduledAction: Sendable, Equatable {
    public var instant: Instant
    public var action: UserAction

    public init(_ instant: Instant, _ action: UserAction) {
        self.instant = instant
        self.action = action
    }
}
