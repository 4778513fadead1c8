// The uploader under every same-instant ordering (R-D13): lifecycle actions, network changes,
// a request latency, a commit duration and a failure chance drawn from the test case; the
// server never holds a stored fix twice, nor a row never stored, and once the network is up
// and the app open, a reliable network ends with every stored fix accepted exactly once.
import Exploration
import ExplorationTesting
import Simulation
import Testing

@testable import World

/// Stores every fix taken in the first minute and uploads the store through an `Uploader`.
final class UploadingProbe: AppEngine {
    static let recordUntil = Instant.start + .minutes(1)
    let uploader = Uploader()

    func didLaunch(_ context: LaunchContext, services: LocationServices) {
        services.startUpdatingLocation(services.makeManager())
        uploader.resume(services: services)
    }
    func protectedDataDidBecomeAvailable(services: LocationServices) {
        uploader.resume(services: services)
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let fix = update.fix, fix.instant < Self.recordUntil,
            let store = try? services.openStore()
        else { return }
        store.insert(StoredRow(key: "fix", fix: fix))
        store.commit()
    }
    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        uploader.storeDidCommit(commit, services: services)
    }
    func didCompleteUpload(_ task: UploadTaskID, result: UploadResult, services: LocationServices) {
        uploader.didCompleteUpload(task, result: result, services: services)
    }
    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if !uploader.backgroundTaskWillExpire(task, services: services) {
            services.endBackgroundTask(task)
        }
    }
}

/// One upload run: what was drawn, and the ways it broke the uploader's rules.
struct UploadRun: CustomStringConvertible {
    var actions: [TimedAction]
    var latencyMilliseconds: Int
    var commitMilliseconds: Int
    var failurePercent: Int
    var violations: [String]

    var description: String {
        "latency \(latencyMilliseconds) ms, commits \(commitMilliseconds) ms, "
            + "failures \(failurePercent) %, actions \(actions)"
    }
}

/// Seconds at which the scenario settles: the network comes up, the device is unlocked, the
/// app is opened; then it runs long enough for the longest backoff to pass twice.
private let settleSecond: Int64 = 120
private let settledRun = VirtualDuration.minutes(12)

var uploadRuns: Gen<UploadRun> {
    Gen("upload-run") { testCase in
        let latencyMilliseconds = Gen<Int>.int(in: 0...5_000).generate(testCase)
        let commitMilliseconds = Gen<Int>.int(in: 0...500).generate(testCase)
        let failurePercent = Gen<Int>.int(in: 0...50).generate(testCase)
        let action = Gen.zip(Gen<Int>.int(in: 0...90), Gen<UserAction>.element(of: scenarioActions))
            .map { TimedAction(second: $0.0, action: $0.1) }
        let actions = Gen.array(of: action, length: 0...10).generate(testCase)
        var policy = IOSPolicy.measured
        policy.uploadLatency = .milliseconds(Int64(latencyMilliseconds))
        policy.storeCommitDuration = .milliseconds(Int64(commitMilliseconds))
        policy.networkFailurePercent = failurePercent
        var world = World(
            WorldConfiguration(
                policy: policy, authorization: .always,
                route: Route(
                    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
                    segments: [.init(.drive, .minutes(20), speedMetersPerSecond: 20)])),
            ordering: .random(choices: testCase)
        ) { UploadingProbe() }
        world.schedule(.open, at: .start)
        for timed in actions {
            world.schedule(timed.action, at: .start + .seconds(Int64(timed.second)))
        }
        let settle = Instant.start + .seconds(settleSecond)
        for action in [UserAction.networkUp, .unlock] { world.schedule(action, at: settle) }
        world.schedule(.open, at: settle + .seconds(1))
        world.run(until: settle + settledRun)
        return UploadRun(
            actions: actions, latencyMilliseconds: latencyMilliseconds,
            commitMilliseconds: commitMilliseconds, failurePercent: failurePercent,
            violations: uploadViolations(world, reliable: failurePercent == 0))
    }
}

/// The uploader's rules over the server and the disk: no stored fix accepted twice, nothing
/// accepted that was not stored, every answer handed to a running process; with a reliable
/// network, every stored fix accepted.
func uploadViolations(_ world: World, reliable: Bool) -> [String] {
    var violations: [String] = []
    let stored = world.storedRows.filter { $0.key == "fix" }
    let accepted = world.server.acceptedRows
    for row in accepted where !stored.contains(row) {
        violations.append("\(row) accepted but never stored")
    }
    for row in stored {
        let count = accepted.count { $0 == row }
        if count > 1 || (reliable && count == 0) {
            violations.append("\(row) accepted \(count) times")
        }
    }
    for entry in world.log {
        if case .uploadCompleted = entry.kind, !entry.processState.isRunning {
            violations.append("\(entry.kind) handed to a \(entry.processState) process")
        }
    }
    return violations
}

@Suite("World uploads")
struct WorldUploadProperties {
    @Test(
        "under any same-instant ordering, lifecycle, network, latency and failure chance, no stored fix reaches the server twice; with a reliable network each reaches it once the app is open"
    )
    func uploadsExactlyOnce() {
        propertyCheck(in: Self.self, uploadRuns, cases: 200, describe: { "\($0)" }) { run in
            try check(run.violations.isEmpty, run.violations.prefix(3).joined(separator: "; "))
        }
    }
}
