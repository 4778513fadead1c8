// A world around one engine type for the engine tests: every process's engine kept, so a test
// can ask the relaunched one what it holds.
import Engines
import Simulation
import World

/// A world that runs `Engine`, made anew at every launch, with the instances kept in launch
/// order.
final class EngineHarness<Engine: AppEngine> {
    private final class Made { var engines: [Engine] = [] }

    private(set) var world: World
    private let made: Made
    /// Every launch's engine, in launch order.
    var engines: [Engine] { made.engines }

    init(
        _ configuration: WorldConfiguration, actions: [(VirtualDuration, UserAction)] = [],
        make: @escaping () -> Engine
    ) {
        let made = Made()
        self.made = made
        world = World(configuration) {
            let engine = make()
            made.engines.append(engine)
            return engine
        }
        for (offset, action) in actions { world.schedule(action, at: .start + offset) }
    }

    func run(until offset: VirtualDuration) { world.run(until: .start + offset) }

    /// The engine of the latest launch.
    var latest: Engine? { engines.last }

    /// Instants of the fixes in the store, in commit order.
    var storedFixInstants: [Instant] { world.storedRows.compactMap(\.fix).map(\.instant) }

    /// Instants of the launches, in order, and whether each was in the background.
    var launches: [(instant: Instant, background: Bool)] {
        world.log.compactMap { entry in
            guard case .launch(let launch) = entry.kind else { return nil }
            return (entry.instant, launch.state == .background)
        }
    }
}

/// The route the engine tests drive: east from Westminster, parked and driving as given.
func testRoute(_ segments: [Route.Segment]) -> Route {
    Route(
        start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
        segments: segments)
}

/// A town drive, 50 km/h.
let townSpeed = 13.9
