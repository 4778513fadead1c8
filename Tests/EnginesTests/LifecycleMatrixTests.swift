// Source B's matrix for all three engines, under `measured` and under iOS26 (where a force-quit
// app is no longer relaunched by significant change or regions, R-B5, R-B6).
import Engines
import Simulation
import Testing
import World

@Suite("Lifecycle matrix")
struct LifecycleMatrixTests {
    static func row(
        _ rows: [LifecycleMatrix.Row], _ engine: BuiltInEngine, _ scenario: LifecycleMatrix.Scenario
    )
        -> LifecycleMatrix.Row?
    {
        rows.first { $0.engine == .builtIn(engine) && $0.scenario == scenario }
    }

    @Test(
        "R-D1, R-D6, R-D7: under measured the standard engine is never suspended, and a swipe while driving costs a region-exit relaunch some hundreds of metres on"
    )
    func standardUnderMeasured() throws {
        let policy = IOSPolicy.measured
        let matrix = LifecycleMatrix(policy: policy)
        let rows = matrix.run(engines: [.standard])
        for scenario in [LifecycleMatrix.Scenario.backgrounded, .suspendedParked, .memoryKill] {
            let row = try #require(Self.row(rows, .standard, scenario))
            #expect(row.gapSeconds == 0 && row.relaunchSeconds == nil, "\(scenario)")
        }
        // The region the engine leaves at the swipe exits after its radius and the cushion,
        // then the exit latency and the relaunch latency.
        let forceQuit = try #require(Self.row(rows, .standard, .forceQuit))
        let minimumRadius = 100.0
        let expected =
            (minimumRadius + policy.regionExitCushionMeters) / matrix.driveSpeedMetersPerSecond
            + policy.regionExitLatency.seconds + policy.relaunchLatencyRegion.seconds
        let relaunch = try #require(forceQuit.relaunchSeconds)
        #expect(abs(relaunch - expected) <= 2)
        let metresOn = relaunch * matrix.driveSpeedMetersPerSecond
        #expect(metresOn > 300 && metresOn < 2_000, "a relaunch some hundreds of metres on")
        #expect(forceQuit.fixesLost >= 1)
    }

    @Test(
        "R-B4, R-B5, R-B6: under iOS26 a swipe loses the standard engine's fixes for good; the session engine and LocationRuntime come back within seconds"
    )
    func forceQuitUnderIOS26() throws {
        let matrix = LifecycleMatrix(policy: .iOS26)
        let rows = matrix.run(engines: BuiltInEngine.allCases)
        let standard = try #require(Self.row(rows, .standard, .forceQuit))
        #expect(standard.relaunchSeconds == nil)
        #expect(standard.gapSeconds == matrix.observedFor.seconds)
        for engine in [BuiltInEngine.session, .locationRuntime] {
            let row = try #require(Self.row(rows, engine, .forceQuit))
            #expect(row.relaunchSeconds == IOSPolicy.iOS26.relaunchLatencySession.seconds)
            #expect(row.gapSeconds <= 2)
        }
    }

    @Test("R-B7: under iOS26 a reboot while parked waits for the drive-off for every engine")
    func rebootUnderIOS26() throws {
        let matrix = LifecycleMatrix(policy: .iOS26)
        let driveOffAfterReboot = (matrix.parkedFor - matrix.killAfterParking).seconds
        for row in matrix.run(engines: BuiltInEngine.allCases) where row.scenario == .rebootParked {
            #expect(row.relaunchSeconds.map { $0 > driveOffAfterReboot } == true, "\(row.engine)")
        }
    }
}
