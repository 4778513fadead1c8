// Three fixed world scenarios whose trace hashes are pinned: any change to what the world does,
// or to how its trace reads, changes one of them, so it must be made on purpose (and the pins
// updated in the same commit). The world depends only on IEEE-754 basic arithmetic and on
// explicit message text, so the pins hold on every platform.
import Simulation
import Testing

@testable import World

/// Runs `configuration` with `actions` (seconds, action) until `end` seconds; returns the world
/// and its trace hash.
func tracedRun(
    _ configuration: WorldConfiguration, until end: Double, actions: [(Double, UserAction)],
    engine: @escaping () -> any AppEngine
) -> (world: World, hash: String) {
    let trace = HashingTrace<WorldMessage>()
    var world = World(configuration, trace: trace, engine: engine)
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return (world, PlainHash.hex(trace.hash.value))
}

/// The hash as 16 hexadecimal digits.
enum PlainHash {
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

@Suite("Pinned trace hashes")
struct TraceHashPinTests {
    @Test("a When In Use app with live updates and a session, backgrounded on a drive")
    func backgroundDrive() {
        let (world, hash) = tracedRun(
            WorldConfiguration(authorization: .whenInUse, route: drive(20), seed: 1),
            until: 30, actions: [(0, .open), (2, .leave)]
        ) {
            ScriptedEngine { _, services in
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }
        #expect(world.fixSeconds.count == 30, "one fix a second, in the background too")
        #expect(hash == "9136edc8819def4c")
    }

    @Test("an Always app with significant change, visits and a condition, exited, relaunched")
    func relaunches() {
        let (world, hash) = tracedRun(
            WorldConfiguration(
                authorization: .always, route: drive(50, parkedFor: .seconds(10)), seed: 2),
            until: 200, actions: [(0, .open), (5, .exit)]
        ) {
            ScriptedEngine { _, services in
                services.startMonitoringSignificantLocationChanges()
                services.startMonitoringVisits()
                services.openMonitor("Places")
                services.addCondition(
                    monitor: "Places", condition: "home", center: home, radiusMeters: 100)
            }
        }
        #expect(world.launches.count == 2)
        #expect(!events(of: world, generation: 2).isEmpty, "the relaunched process listens again")
        #expect(hash == "759b3ac0fa7b0e8a")
    }

    @Test("suspension, memory pressure, reboot and first unlock with reduced accuracy")
    func lifecycle() {
        let (world, hash) = tracedRun(
            WorldConfiguration(
                authorization: .always, accuracy: .reduced, route: drive(15), seed: 3),
            until: 400,
            actions: [
                (0, .open), (3, .leave), (40, .memoryPressure), (100, .reboot), (200, .unlock),
                (250, .open), (260, .setAccuracy(.full)),
            ]
        ) {
            ScriptedEngine { _, services in
                let manager = services.makeManager()
                services.setDesiredAccuracy(manager, meters: 500)
                services.startUpdatingLocation(manager)
                services.startMonitoringSignificantLocationChanges()
            }
        }
        #expect(world.terminations.first == .memory)
        // Issue 25 moved it: reduced-accuracy fixes come 20 minutes apart (R-F10), and the
        // boot relaunch at 160 s, before the unlock, is repeated at the unlock (R-D9). Issue 26
        // moved it: the action at 260 s reads `user precise-location on` (was `user accuracy
        // full`), the scenario file's words; nothing else in the trace changed.
        #expect(hash == "95f5cac6c8136f07")
    }
}
