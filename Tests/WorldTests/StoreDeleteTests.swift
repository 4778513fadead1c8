// Deleting from the store (`Store.delete`): a deletion is durable only once its commit
// completes, like an insert; a deletion lost with its commit or left in the open transaction
// leaves the row on disk; each applied deletion is logged (`rowsDeleted`) with its position.
import Simulation
import Testing

@testable import World

/// The first process commits a1, a2, a1 at launch (commit 1). When it reaches the background it
/// deletes a1 and a row no one stored (commit 2, issued at 21.5 s, durable 10 s later under
/// `slowCommits`), then deletes a2 and leaves that deletion uncommitted (or rolls it back and commits b, durable at 41.5 s). Every
/// later process reads its rows at launch.
final class DeletingEngine: AppEngine {
    private let readings: StoreReadings
    private let first: Bool
    /// Rolls the open deletion of a2 back, then inserts b and commits it (commit 3).
    private let rollsBack: Bool

    init(_ readings: StoreReadings, rollsBack: Bool = false) {
        self.readings = readings
        self.rollsBack = rollsBack
        readings.launches += 1
        first = readings.launches == 1
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        if first {
            for key in ["a1", "a2", "a1"] { store.insert(StoredRow(key: key)) }
            store.commit()
        } else {
            readings.keysAtRelaunch.append(store.rows.map(\.key))
        }
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        guard first, state == .background, let store = try? services.openStore() else { return }
        store.delete(StoredRow(key: "a1"))
        store.delete(StoredRow(key: "never stored"))
        store.commit()
        store.delete(StoredRow(key: "a2"))
        guard rollsBack else { return }
        store.rollback()
        store.insert(StoredRow(key: "b"))
        store.commit()
    }
}

/// Runs `DeletingEngine` under a test host, force-quits it at `seconds` and opens it again 30 s
/// later.
private func forceQuit(at seconds: Double, rollsBack: Bool = false) -> (World, StoreReadings) {
    let readings = StoreReadings()
    let world = runWorld(
        policy: slowCommits, route: parked, until: seconds + 40,
        actions: [
            (0, .open), (0, .attachTestHost(true)), (20, .leave), (seconds, .forceQuit),
            (seconds + 30, .open),
        ]
    ) { DeletingEngine(readings, rollsBack: rollsBack) }
    return (world, readings)
}

/// The log's `rowsDeleted` entries: the commit, the keys removed and their positions.
private func deletions(of world: World) -> [(commit: CommitID, keys: [String], positions: [Int])] {
    world.log.compactMap { entry in
        if case .rowsDeleted(let commit, let rows, let positions) = entry.kind {
            (commit, rows.map(\.key), positions)
        } else {
            nil
        }
    }
}

@Suite("Deleting from the store")
struct StoreDeleteTests {
    @Test(
        "R-A1, R-S1: a deletion whose commit is lost with the process is not applied: the row stays"
    )
    func deletionLostWithItsCommit() {
        // Commit 2 is in flight from 21.5 s to 31.5 s.
        for seconds in [commit2IssuedSeconds + 0.5, commit2IssuedSeconds + 5, 31.4] {
            let (world, readings) = forceQuit(at: seconds)
            #expect(readings.keysAtRelaunch == [["a1", "a2", "a1"]], "killed at \(seconds) s")
            #expect(deletions(of: world).isEmpty)
            #expect(storeLosses(of: world).map(\.commit) == [CommitID(2)])
        }
    }

    @Test(
        "R-S1: a completed deletion removes the earliest equal row; one that matches nothing and one left uncommitted do nothing"
    )
    func deletionDurableOnceCommitted() throws {
        // At 31.5 s the commit completes at the instant of the kill: on the durable side.
        for seconds in [31.5, 40] {
            let (world, readings) = forceQuit(at: seconds)
            #expect(readings.keysAtRelaunch == [["a2", "a1"]], "killed at \(seconds) s")
            #expect(world.storedRows.map(\.key) == ["a2", "a1"])
            let logged = deletions(of: world)
            #expect(logged.count == 1)
            let deletion = try #require(logged.first)
            #expect(deletion.commit == CommitID(2))
            #expect(deletion.keys == ["a1"])
            #expect(deletion.positions == [0], "the first a1, not the second")
        }
    }

    @Test("R-S1: a rollback drops the open transaction's deletions with its inserts")
    func rollbackDropsDeletions() {
        let (world, readings) = forceQuit(at: 50, rollsBack: true)
        // Had the rollback kept the deletion of a2, commit 3 would have applied it.
        #expect(readings.keysAtRelaunch == [["a2", "a1", "b"]])
        #expect(deletions(of: world).map(\.commit) == [CommitID(2)])
    }

    @Test("R-S1: a commit of deletions only is a commit: its callback comes and the rows are gone")
    func deletionOnlyCommit() {
        let readings = StoreReadings()
        let world = runWorld(
            policy: slowCommits, route: parked, until: 60,
            actions: [(0, .open), (0, .attachTestHost(true)), (20, .leave)]
        ) { DeletingEngine(readings) }
        let durable = world.seconds {
            if case .commitDurable(CommitID(2), 0) = $0.kind { true } else { false }
        }
        #expect(durable == [31.5])
        let called = world.seconds {
            if case .didCommit(CommitID(2)) = $0.kind { true } else { false }
        }
        #expect(called == [31.5])
        #expect(world.storedRows.map(\.key) == ["a2", "a1"], "a2's deletion was never committed")
    }
}
