// Running a scenario (layer 5): the world it describes, with its events scheduled, run to the
// horizon, and the engines it made.
import Engines
import Simulation
import World

/// A finished run of a scenario: the world as the horizon left it (its log, disk, server) and
/// every engine the world made, one per process launch, in launch order.
public struct ScenarioRun {
    /// The world after the run: `world.log`, `world.storedRows`, `world.server`.
    public var world: World
    /// The engine of each process, in launch order (what each told its host app is in its
    /// `events`).
    public var engines: [any TrackingEngine]
    /// Why and when the run stopped.
    public var outcome: RunOutcome
}

/// The engines a scenario's world has made so far, in launch order: filled as the world
/// launches processes.
public final class LaunchedEngines {
    /// One engine per launch, in order.
    public private(set) var engines: [any TrackingEngine] = []

    init() {}

    func record(_ engine: any TrackingEngine) -> any TrackingEngine {
        engines.append(engine)
        return engine
    }
}

extension Scenario {
    /// The world this scenario describes, ready to run: its policy, capabilities,
    /// authorization, route, seed and ordering, and every event scheduled at its instant. The
    /// world is not run: `run(until: .start + horizon)` does that (or `run()` below).
    /// - Parameters:
    ///   - trace: where the world records every delivery, if anywhere.
    ///   - ordering: same-instant orderings to use instead of the scenario's (an explorer's
    ///     test case, so that an ordering shrinks).
    /// - Throws: `PolicyFileError` for a bad policy, `GPXError` for a bad GPX route.
    public func makeWorld(ordering: OrderingStrategy? = nil) throws -> (
        world: World, engines: LaunchedEngines
    ) {
        try makeWorld(trace: nil, ordering: ordering)
    }

    /// The same, with every delivery also recorded in `trace` (the message type is the
    /// package's own).
    package func makeWorld(
        trace: (any TraceSink<WorldMessage>)?, ordering: OrderingStrategy? = nil
    ) throws -> (world: World, engines: LaunchedEngines) {
        precondition(horizon >= .zero, "a scenario's horizon is not negative")
        precondition(events.allSatisfy { $0.at >= .zero }, "an event comes at or after the start")
        let configuration = try worldConfiguration()
        let launched = LaunchedEngines()
        let engine = self.engine
        var world = World(
            configuration, ordering: ordering ?? self.ordering.makeStrategy(), trace: trace
        ) { launched.record(engine.make()) }
        for timed in events {
            world.schedule(timed.event, at: .start + timed.at)
        }
        return (world, launched)
    }

    /// The world's configuration this scenario describes: policy, capabilities,
    /// authorization, accuracy, route, seed, ordering, the answers to prompts, and the
    /// server's deduplication (the scenario's, or else the engine's profile's).
    /// - Parameter policy: a policy to use instead of the scenario's own (a sweep, a diff).
    /// - Throws: `PolicyFileError` for a bad policy, `GPXError` for a bad GPX route.
    public func worldConfiguration(policy: IOSPolicy? = nil) throws -> WorldConfiguration {
        let route = try self.route.makeRoute()
        return WorldConfiguration(
            policy: try policy ?? self.policy.makePolicy(), capabilities: capabilities,
            authorization: authorization, accuracy: accuracy, route: route,
            seed: seed, ordering: ordering, authorizationAnswers: answers,
            serverDeduplication: serverDeduplication ?? engine.name.profile.serverDeduplication,
            beacons: beacons.map { $0.beacon(on: route) })
    }

    /// Runs the scenario to its horizon (inclusive).
    /// - Throws: what `makeWorld` throws; the run itself cannot fail.
    public func run(ordering: OrderingStrategy? = nil) throws -> ScenarioRun {
        try run(trace: nil, ordering: ordering)
    }

    /// The same, with every delivery also recorded in `trace`.
    package func run(
        trace: (any TraceSink<WorldMessage>)?, ordering: OrderingStrategy? = nil
    ) throws -> ScenarioRun {
        var (world, launched) = try makeWorld(trace: trace, ordering: ordering)
        let outcome = world.run(until: .start + horizon)
        return ScenarioRun(world: world, engines: launched.engines, outcome: outcome)
    }
}
