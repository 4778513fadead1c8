// The uploader and the server (R-D13): every committed fix reaches the server exactly once,
// whatever the network, a suspension or a kill does to the requests in flight.
import Simulation
import Testing

@testable import World

/// Stores every fix taken before `recordUntil` (one commit each) and uploads the store through
/// an `Uploader`; optionally stops updating when it reaches the background.
final class UploadingEngine: AppEngine {
    let uploader: Uploader
    let recordUntil: Instant
    let stopsInBackground: Bool
    private var manager: ObjectID?

    init(
        _ configuration: UploaderConfiguration = UploaderConfiguration(),
        recordUntil: Instant, stopsInBackground: Bool = false
    ) {
        uploader = Uploader(configuration)
        self.recordUntil = recordUntil
        self.stopsInBackground = stopsInBackground
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = services.makeManager()
        services.startUpdatingLocation(manager)
        self.manager = manager
        uploader.resume(services: services)
    }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        if stopsInBackground, state == .background, let manager {
            services.stopUpdatingLocation(manager)
        }
    }
    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let fix = update.fix, fix.instant < recordUntil,
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
    func timerDidFire(_ timer: TimerID, services: LocationServices) {
        uploader.timerDidFire(timer, services: services)
    }
}

extension World {
    /// The fixes on the device's disk (what "stored" means).
    var storedFixRows: [StoredRow] { storedRows.filter { $0.key == "fix" } }

    /// Where the server's rows differ from the stored fixes: a stored fix accepted other than
    /// once, or an accepted row that was never stored.
    var uploadMismatches: [String] {
        let accepted = server.acceptedRows
        let stored = storedFixRows
        var problems: [String] = []
        for row in stored {
            let count = accepted.count { $0 == row }
            if count != 1 { problems.append("\(row) accepted \(count) times") }
        }
        for row in accepted where !stored.contains(row) {
            problems.append("\(row) accepted but never stored")
        }
        return problems
    }

    /// The completions the app's code got, with their instants in seconds.
    var uploadResults: [(seconds: Double, result: UploadResult)] {
        log.compactMap { entry in
            guard case .uploadCompleted(_, let result) = entry.kind else { return nil }
            return ((entry.instant - .start).seconds, result)
        }
    }

    /// Upload completions the mailbox dropped, with their reasons.
    var droppedUploadResults: [(result: UploadResult, reason: DropReason)] {
        log.compactMap { entry in
            guard case .dropped(.uploadCompleted(_, let result), let reason) = entry.kind else {
                return nil
            }
            return (result, reason)
        }
    }
}

/// Runs an `UploadingEngine` world.
private func runUploads(
    policy: IOSPolicy = .measured, seed: UInt64 = 1,
    configuration: UploaderConfiguration = UploaderConfiguration(), recordUntil: Double,
    stopsInBackground: Bool = false, until end: Double, actions: [(Double, UserAction)],
    trace: MemoryTrace<WorldMessage>? = nil
) -> World {
    var world = World(
        WorldConfiguration(policy: policy, route: drive(20), seed: seed), trace: trace
    ) {
        UploadingEngine(
            configuration, recordUntil: .start + VirtualDuration(seconds: recordUntil),
            stopsInBackground: stopsInBackground)
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return world
}

@Suite("Uploader and server (R-D13)")
struct UploaderTests {
    @Test(
        "network down, then up: every stored fix is accepted exactly once, after the network is up")
    func networkDownThenUp() {
        let world = runUploads(
            recordUntil: 120, until: 1_200,
            actions: [(0, .networkDown), (0, .open), (600, .networkUp)])
        #expect(world.storedFixRows.count >= 100)
        #expect(world.uploadMismatches == [])
        #expect(world.server.acceptedBatches.allSatisfy { ($0.instant - .start).seconds >= 600 })
        let notConnected = world.uploadResults.filter {
            $0.result == .failed(.notConnectedToInternet)
        }
        #expect(notConnected.count >= 3, "the uploader retried while the network was down")
        #expect(world.server.repeatedKeys == [])
    }

    @Test(
        "without batchWait every commit's row goes at once; with it, rows wait for a batch and still all arrive once"
    )
    func batchWait() {
        let wait = VirtualDuration.seconds(30)
        var batched = UploaderConfiguration()
        batched.batchWait = wait
        let immediate = runUploads(recordUntil: 120, until: 600, actions: [(0, .open)])
        let waiting = runUploads(
            configuration: batched, recordUntil: 120, until: 600, actions: [(0, .open)])
        for world in [immediate, waiting] {
            #expect(world.storedFixRows.count >= 100)
            #expect(world.uploadMismatches == [])
        }
        // One request in flight at a time, each `uploadLatency` long: without a wait the
        // batches are as small as that allows; with one, about two minutes of fixes go in
        // about four batches.
        #expect(immediate.server.acceptedBatches.count > 50)
        let batches = waiting.server.acceptedBatches
        #expect(batches.count <= 5)
        // A batch formed when its first row had waited `batchWait` (the last, at the end of
        // the recording, too).
        for batch in batches {
            let first = batch.rows.first?.fix?.instant ?? .start
            #expect(batch.instant - first >= wait, "\(batch.key) went before its wait")
        }
    }

    @Test("a full batch goes before the wait is over")
    func fullBatchGoesEarly() {
        var configuration = UploaderConfiguration()
        configuration.batchWait = .minutes(10)
        configuration.batchRowCountMax = 10
        let world = runUploads(
            configuration: configuration, recordUntil: 120, until: 300, actions: [(0, .open)])
        let batches = world.server.acceptedBatches
        #expect(batches.count >= 10)
        #expect(batches.allSatisfy { $0.rows.count == 10 })
        #expect(batches.allSatisfy { ($0.instant - .start) < .minutes(3) })
    }

    @Test("the retries back off exponentially up to the maximum")
    func backoff() {
        let uploader = Uploader()
        let delays = (1...10).map { uploader.retryDelay(afterFailures: $0).seconds }
        #expect(delays == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
        let world = runUploads(
            recordUntil: 5, until: 700, actions: [(0, .networkDown), (0, .open)])
        let failures = world.log.filter {
            if case .uploadCompleted = $0.kind { true } else { false }
        }.map(\.instant)
        let gaps = zip(failures.dropFirst(), failures).map { $0 - $1 }
        #expect(Array(gaps.prefix(4)) == [2, 4, 8, 16].map(VirtualDuration.seconds))
    }

    @Test(
        "with a failing network (requests and answers lost mid-batch) every stored fix is still accepted exactly once",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func failingNetwork(seed: UInt64) {
        var policy = IOSPolicy.measured
        policy.networkFailurePercent = 40
        let world = runUploads(
            policy: policy, seed: seed, recordUntil: 120, until: 1_800, actions: [(0, .open)])
        #expect(world.storedFixRows.count >= 100)
        #expect(world.uploadMismatches == [])
        let failures = world.uploadResults.filter {
            if case .failed = $0.result { true } else { false }
        }
        #expect(failures.count >= 3, "failures were injected")
    }

    @Test(
        "an answer lost after the server accepted is retried under the same key, which the server accepts once"
    )
    func lostAnswersAreDeduplicated() {
        var policy = IOSPolicy.measured
        policy.networkFailurePercent = 40
        let repeated = (1...5 as ClosedRange<UInt64>).map { seed in
            runUploads(
                policy: policy, seed: seed, recordUntil: 120, until: 1_800, actions: [(0, .open)]
            )
            .server.repeatedKeys.count
        }
        #expect(repeated.reduce(0, +) > 0, "some answer was lost after the server accepted")
    }

    @Test("without the batch's key on each request, a retry after a lost answer is stored twice")
    func unkeyedRequestsDuplicate() {
        var policy = IOSPolicy.measured
        policy.networkFailurePercent = 40
        var configuration = UploaderConfiguration()
        configuration.keysRequestsByBatch = false
        let duplicated = (1...5 as ClosedRange<UInt64>).map { seed in
            let world = runUploads(
                policy: policy, seed: seed, configuration: configuration, recordUntil: 120,
                until: 1_800, actions: [(0, .open)])
            let accepted = world.server.acceptedRows
            return world.storedFixRows.filter { row in accepted.count { $0 == row } > 1 }.count
        }
        #expect(duplicated.reduce(0, +) > 0, "some stored fix reached the server twice")
    }

    @Test(
        "an upload in flight when the app would be suspended completes inside its background task")
    func backgroundTaskLetsTheUploadFinish() throws {
        var policy = IOSPolicy.measured
        policy.uploadLatency = .seconds(10)
        let trace = MemoryTrace<WorldMessage>()
        let world = runUploads(
            policy: policy, recordUntil: 600, stopsInBackground: true, until: 300,
            actions: [(0, .open), (30, .leave)], trace: trace)
        #expect(world.storedFixRows.count >= 25)
        #expect(world.uploadMismatches == [])
        #expect(
            world.server.acceptedBatches.contains { ($0.instant - .start).seconds > 31.5 },
            "a batch was accepted while the app was in the background")
        #expect(
            !world.uploadResults.contains {
                $0.result == .failed(.cancelled(.suspendedWithoutBackgroundTask))
            })
        let lastAccepted = try #require(world.server.acceptedBatches.last).instant
        #expect(
            trace.records.contains {
                if case .suspended = $0.message { $0.instant > lastAccepted } else { false }
            }, "the app was suspended once the queue was idle, and not before")
        #expect(
            !trace.records.contains {
                if case .suspended = $0.message { $0.instant <= lastAccepted } else { false }
            })
    }

    @Test(
        "without a background task an upload in flight at suspension is cancelled (R-D13) and retried when the app runs again: not lost, not duplicated"
    )
    func suspensionCancelsAnUploadWithoutABackgroundTask() {
        var policy = IOSPolicy.measured
        policy.uploadLatency = .seconds(10)
        var configuration = UploaderConfiguration()
        configuration.usesBackgroundTask = false
        let world = runUploads(
            policy: policy, configuration: configuration, recordUntil: 600,
            stopsInBackground: true, until: 300, actions: [(0, .open), (30, .leave), (120, .open)])
        let cancelled = world.uploadResults.filter {
            $0.result == .failed(.cancelled(.suspendedWithoutBackgroundTask))
        }
        #expect(cancelled.map(\.seconds) == [120], "told when it runs again")
        #expect(world.uploadMismatches == [])
        #expect(world.server.acceptedBatches.contains { ($0.instant - .start).seconds > 120 })
        #expect(
            world.server.acceptedBatches.allSatisfy {
                ($0.instant - .start).seconds < 37 || ($0.instant - .start).seconds > 120
            })
    }

    @Test(
        "a kill at any point of an upload: after the relaunch the engine retries and the server has each stored fix exactly once"
    )
    func killMidUpload() {
        var policy = IOSPolicy.measured
        policy.uploadLatency = .seconds(3)
        var lostInFlight = 0
        var repeated = 0
        var failures: [String] = []
        // Every 10 ms over 10 s: accepts drift against the fix grid, so every phase of a batch
        // (its outbox commit, the request, the done commit) meets a kill.
        for step in 0..<1_000 {
            let killAt = 20 + Double(step) * 0.01
            let world = runUploads(
                policy: policy, recordUntil: 60, until: 300,
                actions: [(0, .open), (killAt, .forceQuit), (killAt + 20, .open)])
            if let problem = world.uploadMismatches.first {
                failures.append("killed at \(killAt) s: \(problem)")
            }
            if world.storedFixRows.count < 30 {
                failures.append(
                    "killed at \(killAt) s: only \(world.storedFixRows.count) fixes stored")
            }
            lostInFlight += world.droppedUploadResults.count {
                $0.reason == .processEnded(.forceQuit)
            }
            repeated += world.server.repeatedKeys.count
        }
        #expect(failures.isEmpty, "\(failures.count) kills: \(failures.prefix(3))")
        #expect(lostInFlight > 0, "some kill found a request in flight (its answer dropped, R-A1)")
        #expect(
            repeated > 0,
            "some kill came after the server accepted and before the batch was marked done")
    }

    @Test("a slow network delays acceptance by its extra latency")
    func slowNetwork() {
        let normal = runUploads(recordUntil: 3, until: 60, actions: [(0, .open)])
        let slow = runUploads(
            recordUntil: 3, until: 60, actions: [(0, .networkSlow(.seconds(5))), (0, .open)])
        let first = { (world: World) in
            world.server.acceptedBatches.first.map { ($0.instant - .start).seconds }
        }
        #expect(first(slow) != nil && first(slow) == first(normal).map { $0 + 5 })
        #expect(slow.uploadMismatches == [])
    }
}
