// The server's deduplication (`ServerDeduplication`, from the app's profile) and requests
// without an idempotency key (`UploadBatch.carriesIdempotencyKey`): a deduplicating server
// stores a keyed batch once; a request without a key, or any request to a server that stores
// every request, is stored each time it arrives.
import Simulation
import Testing

@testable import World

/// A batch of one row under the key 0+1.
private func batch(carriesKey: Bool = true) -> UploadBatch {
    UploadBatch(
        key: UploadBatchKey(firstRowIndex: 0, rowCount: 1), rows: [StoredRow(key: "fix")],
        carriesIdempotencyKey: carriesKey)
}

/// Runs `UploadingEngine` on a network that loses 40 % of requests, half of them after the
/// server stored the batch, and returns how many stored fixes the server holds twice or more.
private func duplicatedFixes(
    seed: UInt64, deduplication: ServerDeduplication, keysRequests: Bool = true
) -> Int {
    var policy = IOSPolicy.measured
    policy.networkFailurePercent = 40
    var configuration = UploaderConfiguration()
    configuration.keysRequestsByBatch = keysRequests
    var world = World(
        WorldConfiguration(
            policy: policy, route: drive(20), seed: seed, serverDeduplication: deduplication)
    ) { UploadingEngine(configuration, recordUntil: .start + .seconds(120)) }
    world.schedule(.open, at: .start)
    world.run(until: .start + .minutes(30))
    let accepted = world.server.acceptedRows
    return world.storedFixRows.filter { row in accepted.count { $0 == row } > 1 }.count
}

@Suite("Server deduplication and idempotency keys")
struct ServerDeduplicationTests {
    @Test("R-S2: a deduplicating server stores a keyed batch once and counts the repeat")
    func byKeyStoresOnce() {
        var server = UploadServer(deduplication: .byKey)
        #expect(server.accept(batch(), at: .start) == false)
        #expect(server.accept(batch(), at: .start + .seconds(1)) == true, "already have it")
        #expect(server.acceptedBatches.count == 1)
        #expect(server.repeatedKeys == [UploadBatchKey(firstRowIndex: 0, rowCount: 1)])
    }

    @Test(
        "R-S2: a request without an idempotency key is stored each time, even by a deduplicating server"
    )
    func unkeyedStoredTwice() {
        var server = UploadServer(deduplication: .byKey)
        #expect(server.accept(batch(carriesKey: false), at: .start) == false)
        #expect(server.accept(batch(carriesKey: false), at: .start + .seconds(1)) == false)
        #expect(server.acceptedBatches.count == 2)
        #expect(server.acceptedBatches.allSatisfy { !$0.carriedIdempotencyKey })
        #expect(server.repeatedKeys.isEmpty)
    }

    @Test("R-S2: a server that stores every request stores a keyed batch each time it arrives")
    func storesEveryRequest() {
        var server = UploadServer(deduplication: .storesEveryRequest)
        #expect(server.accept(batch(), at: .start) == false)
        #expect(server.accept(batch(), at: .start + .seconds(1)) == false)
        #expect(server.acceptedBatches.count == 2)
        #expect(server.repeatedKeys.isEmpty)
    }

    @Test("the world's server deduplicates as its configuration says, by key by default")
    func configurationReachesTheServer() {
        let route = drive(1)
        #expect(
            World(WorldConfiguration(route: route)) { UploadingEngine(recordUntil: .start) }
                .server.deduplication == .byKey)
        #expect(
            World(WorldConfiguration(route: route, serverDeduplication: .storesEveryRequest)) {
                UploadingEngine(recordUntil: .start)
            }.server.deduplication == .storesEveryRequest)
    }

    @Test(
        "R-S2: a retry after a lost answer: stored once by a deduplicating server, twice by one that stores every request or without a key"
    )
    func retriesAfterLostAnswers() {
        let seeds: [UInt64] = [1, 2, 3, 4, 5]
        let byKey = seeds.map { duplicatedFixes(seed: $0, deduplication: .byKey) }
        #expect(byKey.allSatisfy { $0 == 0 }, "\(byKey)")
        let everyRequest = seeds.map {
            duplicatedFixes(seed: $0, deduplication: .storesEveryRequest)
        }
        #expect(everyRequest.reduce(0, +) > 0, "some stored fix reached the server twice")
        let unkeyed = seeds.map {
            duplicatedFixes(seed: $0, deduplication: .byKey, keysRequests: false)
        }
        #expect(unkeyed.reduce(0, +) > 0, "some stored fix reached the server twice")
    }
}
