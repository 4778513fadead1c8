// The server's answers (R-N40–R-N46): a server down, throttling, erring or slow answers with a
// status and stores nothing (or stores later); the built-in uploader retries a refusal no
// sooner than its Retry-After, and every stored fix still reaches the server once.
import Simulation
import Testing

@testable import World

/// Runs an `UploadingEngine` on a drive, recording for the first `recordUntil` seconds, with
/// `actions` at their seconds, until `end`.
private func runServer(
    policy: IOSPolicy = .measured, recordUntil: Double, until end: Double,
    actions: [(Double, UserAction)]
) -> World {
    var world = World(WorldConfiguration(policy: policy, route: drive(20))) {
        UploadingEngine(recordUntil: .start + VirtualDuration(seconds: recordUntil))
    }
    world.schedule(.open, at: .start)
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return world
}

/// The statuses of the server's answers the app's code got, in order (200 for a stored batch).
private func statuses(_ world: World) -> [Int] {
    world.uploadResults.compactMap { _, result in
        switch result {
        case .accepted: 200
        case .answered(let answer): answer.statusCode
        case .failed: nil
        }
    }
}

@Suite("The server's answers (R-N40–R-N46)")
struct ServerAnswerRuleTests {
    @Test(
        "R-N41, R-N46: a server down answers 503 with Retry-After and stores nothing; up again, the uploader delivers every fix once"
    )
    func downForMaintenance() {
        let world = runServer(
            recordUntil: 20, until: 600, actions: [(5, .serverDown), (200, .serverUp)])
        let refusals = world.uploadResults.compactMap { seconds, result -> Double? in
            guard case .answered(let answer) = result else { return nil }
            #expect(answer.statusCode == 503)
            #expect(answer.retryAfter == IOSPolicy.measured.serverRetryAfter)
            return seconds
        }
        #expect(!refusals.isEmpty, "the server refused while down")
        let storedWhileDown = world.server.acceptedBatches.filter { batch in
            batch.instant > .start + .seconds(5) && batch.instant < .start + .seconds(200)
        }
        #expect(storedWhileDown.isEmpty, "nothing stored while down")
        #expect(world.uploadMismatches.isEmpty, "\(world.uploadMismatches)")
        #expect(world.server.acceptedBatches.contains { $0.instant > .start + .seconds(200) })
    }

    @Test("R-N43: a throttling server answers 429; the uploader waits its Retry-After")
    func throttlingWaitsRetryAfter() {
        let world = runServer(
            recordUntil: 10, until: 900,
            actions: [(3, .serverThrottling(.minutes(4))), (5, .serverUp)])
        let results = world.uploadResults
        guard
            let refused = results.firstIndex(where: {
                if case .answered(let answer) = $0.result {
                    answer.statusCode == 429
                } else {
                    false
                }
            })
        else {
            Issue.record("no 429: \(results)")
            return
        }
        let next = results[(refused + 1)...].first
        // The server was up again after 5 s; the retry still waited the 4 minutes.
        #expect(next.map { $0.seconds - results[refused].seconds >= 240 } ?? false, "\(results)")
        #expect(world.uploadMismatches.isEmpty, "\(world.uploadMismatches)")
    }

    @Test(
        "R-N42: serverErrorPercent answers a share with 500, drawn from the server's own stream; the network's draws stay put"
    )
    func erringServer() {
        var policy = IOSPolicy.measured
        policy.serverErrorPercent = 50
        let world = runServer(policy: policy, recordUntil: 60, until: 900, actions: [])
        #expect(statuses(world).contains(500))
        #expect(statuses(world).contains(200))
        #expect(world.uploadMismatches.isEmpty, "\(world.uploadMismatches)")
        // The same world with the server's errors off stores the same fixes.
        let calm = runServer(recordUntil: 60, until: 900, actions: [])
        #expect(!statuses(calm).contains(500))
        #expect(calm.storedFixRows == world.storedFixRows)
    }

    @Test("R-N44: a slow server answers later, and stores when it answers")
    func slowServer() {
        let quick = runServer(recordUntil: 3, until: 120, actions: [])
        let slow = runServer(recordUntil: 3, until: 120, actions: [(0, .serverSlow(.seconds(30)))])
        let first = quick.server.acceptedBatches.first?.instant
        let late = slow.server.acceptedBatches.first?.instant
        #expect(first != nil && late != nil)
        if let first, let late { #expect(late - first >= .seconds(30)) }
        #expect(slow.uploadMismatches.isEmpty, "\(slow.uploadMismatches)")
    }

    @Test("R-N40: the server's actions are written as a scenario writes them")
    func words() {
        #expect(UserAction.serverDown.description == "server down")
        #expect(UserAction.serverThrottling(.seconds(30)).description == "server throttling 30s")
        #expect(UserAction.serverSlow(.seconds(5)).description == "server slow 5s")
        #expect(UserAction.setLocationServices(false).description == "location-services off")
    }
}
