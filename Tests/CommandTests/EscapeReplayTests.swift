// A corpus entry saved for `escaped-simulation` replays as one: "still fails" while the app's
// code still escapes the simulated device, never "the entry records an invariant this
// Lifeline does not check" (exit 2).
import Engines
import Foundation
import Simulation
import Testing
import World

@testable import LifelineCommands

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The session engine, but each launch first sleeps for real (`usleep`), which the simulation
/// refuses and reports as an escape.
final class RealSleeper: TrackingEngine {
    let inner = BuiltInEngine.session.make(launchRules: LaunchRules())
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        usleep(1)
        inner.didLaunch(launch, services: services)
    }
    func start(services: LocationServices) { inner.start(services: services) }
    func stop(services: LocationServices) { inner.stop(services: services) }
    func state(at now: Instant) -> EngineState { inner.state(at: now) }
    var events: [TrackingEvent] { inner.events }
}

let realSleeper = CustomEngine(name: "real-sleeper", summary: "sleeps for real at launch") {
    _ in RealSleeper()
}

@Suite("Replaying an escaped-simulation entry")
struct EscapeReplayTests {
    @Test("fuzz saves escaped-simulation; replay says it still fails (exit 1), naming the call")
    func replayStillFails() throws {
        let folder = try TemporaryFolder()
        let fuzz = runTool(
            [
                "fuzz", "--engine", "real-sleeper", "--cases", "3", "--isolation", "off",
                "--corpus", folder.path("corpus"), "--json",
            ], engines: [realSleeper])
        #expect(fuzz.code == 1, "\(fuzz.error)")
        #expect(fuzz.standard.contains("\"invariant\": \"escaped-simulation\""), "\(fuzz.standard)")
        let path = try #require(
            fuzz.standard.firstMatch(of: /"corpusPath": "([^"]+)"/).map { String($0.1) })
        let replay = runTool(["replay", path], engines: [realSleeper])
        #expect(replay.code == 1, "\(replay.error)")
        #expect(
            replay.standard.hasPrefix("still fails: escaped-simulation (engine real-sleeper)"),
            "\(replay.standard)")
        #expect(replay.standard.contains("usleep"), "\(replay.standard)")
    }
}
