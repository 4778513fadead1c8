// Running scenarios: a GPX route scenario runs on its file's route, the same scenario gives
// the same trace hash twice, and a scenario's events reach the world at their instants.
import Engines
import Foundation
import Scenarios
import Simulation
import Testing
import World

/// Writes `text` to `name` in this process's temporary folder; returns the path.
func writeTemporary(_ name: String, _ text: String) throws -> String {
    let folder =
        NSTemporaryDirectory() + "lifeline-scenarios-\(ProcessInfo.processInfo.processIdentifier)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

/// A timed GPX track: three points a minute apart, eastward then north.
let gpxFixturePath: String = {
    let text = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="Xcode">
        <wpt lat="51.5007" lon="-0.1246"><time>2026-11-29T07:00:00Z</time></wpt>
        <wpt lat="51.5007" lon="-0.1146"><time>2026-11-29T07:01:00Z</time></wpt>
        <wpt lat="51.5107" lon="-0.1146"><time>2026-11-29T07:02:00Z</time></wpt>
        </gpx>
        """
    return (try? writeTemporary("commute.gpx", text)) ?? "/unwritable/commute.gpx"
}()

/// The trace hash of a run, as 16 hexadecimal digits.
func traceHash(_ scenario: Scenario) throws -> UInt64 {
    let trace = HashingTrace<WorldMessage>()
    _ = try scenario.run(trace: trace)
    return trace.hash.value
}

@Suite("Scenario runs")
struct ScenarioRunTests {
    @Test("a GPX route scenario reads, prints, reads back and runs on the file's route")
    func gpxRoute() throws {
        let text = """
            engine session
            authorization always
            horizon 5m
            route gpx \(gpxFixturePath) speed 13.9
            events
              0s open
            """
        let scenario = try Scenario(parsing: text, path: "gpx.scenario")
        #expect(scenario.route == .gpx(path: gpxFixturePath, speedMetersPerSecond: 13.9))
        #expect(try Scenario(parsing: scenario.description, path: "again") == scenario)
        let route = try scenario.route.makeRoute()
        #expect(route.endInstant == .start + .minutes(2))
        let run = try scenario.run()
        let fixes = run.world.log.compactMap { entry -> Fix? in
            if case .location(let update) = entry.kind { update.fix } else { nil }
        }
        #expect(!fixes.isEmpty)
        #expect(fixes.allSatisfy { abs($0.coordinate.latitude - 51.5057) < 0.01 })
    }

    @Test("the same scenario gives the same trace hash twice")
    func deterministic() throws {
        let scenario = try Scenario(parsing: sampleText, path: "sample.scenario")
        let first = try traceHash(scenario)
        #expect(first == (try traceHash(scenario)))
        var other = scenario
        other.at(.minutes(7), .reboot)
        #expect(first != (try traceHash(other)))
    }

    @Test("a force-quit event kills the process at its instant, and the engines are listed")
    func forceQuitReachesTheWorld() throws {
        let scenario = Scenario.build {
            $0.engine = ScenarioEngine(.session)
            $0.authorization = .always
            $0.drive(.minutes(10), speed: 13.9)
            $0.at(.zero, .open)
            $0.at(.seconds(30), .leave)
            $0.at(.minutes(2), .forceQuit)
            $0.horizon = .minutes(10)
        }
        let run = try scenario.run()
        let kills = run.world.log.filter {
            if case .killed = $0.kind { true } else { false }
        }
        let killedAt: Instant = .start + .minutes(2)
        #expect(kills.map(\.instant) == [killedAt])
        #expect(kills.map(\.description).allSatisfy { $0.contains("killed (force-quit)") })
        let launches = run.world.log.filter {
            if case .launch = $0.kind { true } else { false }
        }
        #expect(run.engines.count == launches.count)
        #expect(run.engines.count >= 1)
        #expect(run.outcome.now <= .start + .minutes(10))
    }

    @Test("engine settings reach the engine: stopOnTerminate clears tracking at the relaunch")
    func engineSettingsReachTheEngine() throws {
        func relaunchEvents(stopOnTerminate: Bool) throws -> [TrackingEvent] {
            let scenario = Scenario.build {
                $0.engine = ScenarioEngine(.session, stopOnTerminate: stopOnTerminate)
                $0.authorization = .always
                $0.drive(.minutes(10), speed: 13.9)
                $0.at(.zero, .open)
                $0.at(.seconds(30), .leave)
                $0.at(.minutes(2), .crash)
                $0.at(.minutes(3), .open)
                $0.horizon = .minutes(5)
            }
            let run = try scenario.run()
            #expect(run.engines.count >= 2)
            return run.engines.last?.events ?? []
        }
        let cleared = try relaunchEvents(stopOnTerminate: true)
        #expect(cleared.contains(.disabledAtLaunch(reason: "stopOnTerminate, R-B11")))
        let kept = try relaunchEvents(stopOnTerminate: false)
        #expect(!kept.contains(.disabledAtLaunch(reason: "stopOnTerminate, R-B11")))
    }

    @Test("policy overrides reach the world's policy")
    func overridesApply() throws {
        var scenario = Scenario()
        scenario.policy("iOS17")
        scenario.override("whenInUseGrace", "5s")
        let policy = try scenario.policy.makePolicy()
        #expect(policy.name == "iOS17")
        #expect(policy.whenInUseGrace == .seconds(5))
        scenario.override("whenInUseGrace", "never")
        #expect(throws: PolicyFileError.self) { try scenario.policy.makePolicy() }
    }
}
