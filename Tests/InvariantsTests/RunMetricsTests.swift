// Metrics on known runs: a steady drive with the session engine, whose figures follow from the
// policy's fix interval, commit duration and upload latency; and a force-quit, whose relaunch
// latency is the policy's session relaunch latency (R-B4).
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Run metrics")
struct RunMetricsTests {
    let policy = IOSPolicy.measured
    let horizon = VirtualDuration.minutes(10)

    /// The session engine opened at the start and left after a minute, on a steady drive.
    func drive(_ extra: [ScheduledAction] = []) -> RunRecord {
        let route = Route(
            start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
            segments: [.init(.drive, horizon + .minutes(1), speedMetersPerSecond: 13.9)])
        return RunRecord.run(
            configuration: WorldConfiguration(policy: policy, authorization: .always, route: route),
            actions: [
                ScheduledAction(.start, .open), ScheduledAction(.start + .minutes(1), .leave),
            ]
                + extra,
            horizon: .start + horizon, launchRules: LaunchRules()
        ) { BuiltInEngine.session.make() }
    }

    @Test("a steady drive: one fix per interval produced, delivered, stored and uploaded")
    func steadyDrive() {
        let metrics = RunMetrics(drive())
        // Live updates start at the open; the fix grid's first epoch after it is one interval
        // in, and the last falls on the horizon (inclusive).
        let epochs = Int(horizon.nanoseconds / policy.fixInterval.nanoseconds)
        #expect(metrics.fixesProduced == epochs, "one live stream, one fix per epoch")
        #expect(metrics.fixesDelivered == epochs, "Always with a session: nothing withheld")
        // The horizon's fix commits `storeCommitDuration` after the horizon.
        #expect(metrics.fixesStored == epochs - 1)
        // Rows wait up to the uploader's `batchWait` for a batch, and each upload takes
        // `uploadLatency`: the rows committed in that long before the horizon may still wait.
        let wait = SessionEngine.Settings().uploader.batchWait + policy.uploadLatency
        let pending = Int(wait.nanoseconds / policy.fixInterval.nanoseconds) + 1
        #expect(metrics.fixesUploaded <= metrics.fixesStored)
        #expect(metrics.fixesUploaded >= metrics.fixesStored - pending)
        #expect(metrics.longestGap == policy.fixInterval)
        #expect(metrics.meanGap == policy.fixInterval)
        #expect(metrics.relaunchLatencies.isEmpty)
        #expect(metrics.gnssOnTime == policy.fixInterval * Int64(epochs))
    }

    @Test("a force-quit while driving: relaunched after the session's relaunch latency (R-B4)")
    func forceQuitRelaunch() {
        let swipe = VirtualDuration.minutes(5)
        let metrics = RunMetrics(drive([ScheduledAction(.start + swipe, .forceQuit)]))
        #expect(metrics.relaunchLatencies == [policy.relaunchLatencySession])
        // The swipe's epoch is lost with the process and the relaunched engine's stream
        // starts one interval after its launch: the longest gap spans the latency and two
        // intervals.
        #expect(metrics.longestGap == policy.relaunchLatencySession + policy.fixInterval * 2)
    }
}
