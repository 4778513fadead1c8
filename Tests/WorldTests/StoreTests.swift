// The durable store (`Store`, `Disk`): a termination at every point of a commit loses nothing
// committed and shows nothing uncommitted; rows survive relaunches and reboots; the store
// cannot be opened before the first unlock (R-D9); every loss names its rule (R-A1, R-F3).
import Simulation
import Testing

@testable import World

/// What the engines of one run read from their store, launch by launch.
final class StoreReadings: @unchecked Sendable {
    /// The keys of `store.rows` at each launch after the first (nil: the store did not open).
    var keysAtRelaunch: [[String]?] = []
    /// The errors `openStore()` threw, in order.
    var openErrors: [StoreError] = []
    /// The keys of `store.rows` when the unlock's callback opened the store.
    var keysAfterUnlock: [String]?
    var launches = 0
}

/// The first process commits rows a1, a2 at launch (commit 1); when it reaches the background it
/// commits b1, b2, b3 (commit 2) and then inserts u1 without committing. Every later process
/// reads its rows at launch, and again when the unlock's callback comes.
final class TwoCommitEngine: AppEngine {
    private let readings: StoreReadings
    private let first: Bool
    /// The first process starts significant change, so that a reboot relaunches the app in the
    /// background before the unlock (R-B7).
    private let registersForRelaunch: Bool

    init(_ readings: StoreReadings, registersForRelaunch: Bool = false) {
        self.readings = readings
        self.registersForRelaunch = registersForRelaunch
        readings.launches += 1
        first = readings.launches == 1
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        if first && registersForRelaunch { services.startMonitoringSignificantLocationChanges() }
        do {
            let store = try services.openStore()
            if first {
                store.insert(StoredRow(key: "a1"))
                store.insert(StoredRow(key: "a2"))
                store.commit()
            } else {
                readings.keysAtRelaunch.append(store.rows.map(\.key))
            }
        } catch let error as StoreError {
            readings.openErrors.append(error)
            if !first { readings.keysAtRelaunch.append(nil) }
        } catch {}
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        guard first, state == .background, let store = try? services.openStore() else { return }
        for key in ["b1", "b2", "b3"] { store.insert(StoredRow(key: key)) }
        store.commit()
        store.insert(StoredRow(key: "u1"))
    }

    func protectedDataDidBecomeAvailable(services: LocationServices) {
        readings.keysAfterUnlock = (try? services.openStore())?.rows.map(\.key)
    }
}

/// Each kind of termination, scheduled as the user action (or pair of actions) that causes it.
enum Termination: String, CaseIterable, Sendable {
    case forceQuit, crash, exit, reboot

    func actions(at seconds: Double) -> [(Double, UserAction)] {
        switch self {
        case .forceQuit: [(seconds, .forceQuit)]
        case .crash: [(seconds, .crash)]
        case .exit: [(seconds, .exit)]
        case .reboot: [(seconds, .reboot), (seconds + 10, .unlock)]
        }
    }

    var cause: TerminationCause {
        switch self {
        case .forceQuit: .forceQuit
        case .crash: .crash
        case .exit: .exit
        case .reboot: .reboot
        }
    }
}

/// Commits take 10 s, so that a termination can fall at many points of one.
let slowCommits: IOSPolicy = {
    var policy = IOSPolicy.measured
    policy.storeCommitDuration = .seconds(10)
    return policy
}()

/// Commit 2 is issued when the app reaches the background: leave at 20 s + 1.5 s.
let commit2IssuedSeconds = 21.5

func storeLosses(of world: World) -> [(commit: CommitID, rowCount: Int, reason: DropReason)] {
    world.log.compactMap { entry in
        if case .commitLost(let commit, let rowCount, let reason) = entry.kind {
            (commit, rowCount, reason)
        } else {
            nil
        }
    }
}

/// Runs `TwoCommitEngine` under a test host (so that it runs in the background and can crash
/// there), terminates it at `seconds`, and opens it again 30 s later.
func terminateDuringCommit(
    _ termination: Termination, at seconds: Double, ordering: OrderingSpecification = .fifo,
    trace: MemoryTrace<WorldMessage>? = nil
) -> (world: World, readings: StoreReadings) {
    let readings = StoreReadings()
    var world = World(
        WorldConfiguration(policy: slowCommits, route: parked, ordering: ordering), trace: trace
    ) { TwoCommitEngine(readings) }
    let actions: [(Double, UserAction)] =
        [(0, .open), (0, .attachTestHost(true)), (20, .leave)]
        + termination.actions(at: seconds) + [(seconds + 30, .open)]
    for (at, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: at))
    }
    world.run(until: .start + VirtualDuration(seconds: seconds + 40))
    return (world, readings)
}

@Suite("Durable store")
struct StoreTests {
    /// Offsets from the issue of commit 2 (10 s long): before it, during it, exactly at its
    /// completion, after it.
    static let offsets: [Double] = [-1.5, 0.001, 5, 9.999, 10, 10.001, 20]

    @Test(
        "R-A1: a termination at every point of a commit loses that commit's rows and nothing else; the completion instant is durable",
        arguments: Termination.allCases, offsets)
    func terminationDuringCommit(termination: Termination, offset: Double) throws {
        let (world, readings) = terminateDuringCommit(
            termination, at: commit2IssuedSeconds + offset)
        let durable = offset >= 10
        let expected = ["a1", "a2"] + (durable ? ["b1", "b2", "b3"] : [])
        #expect(world.terminations.first == termination.cause)
        #expect(readings.keysAtRelaunch == [expected], "what the relaunched engine reads")
        #expect(world.storedRows.map(\.key) == expected, "what is on disk")
        let losses = storeLosses(of: world)
        if offset > 0 && !durable {
            #expect(losses.count == 1)
            let loss = try #require(losses.first)
            #expect(loss.commit == CommitID(2) && loss.rowCount == 3)
            #expect(loss.reason == .processEnded(termination.cause) && loss.reason.rule == "R-A1")
        } else {
            #expect(losses.isEmpty, "nothing was in flight")
        }
        #expect(!world.storedRows.contains { $0.key == "u1" }, "never committed")
    }

    @Test(
        "R-A1: the completion instant is durable under every ordering of same-instant events, kill first or commit first"
    )
    func completionBoundaryUnderOrderings() {
        let completion = Instant.start + VirtualDuration(seconds: commit2IssuedSeconds + 10)
        var killArrivedFirst = 0
        for seed in UInt64(1)...UInt64(16) {
            for ordering in [OrderingSpecification.random(seed: seed), .pct(seed: seed, depth: 3)] {
                for termination in Termination.allCases {
                    let trace = MemoryTrace<WorldMessage>()
                    let (world, _) = terminateDuringCommit(
                        termination, at: commit2IssuedSeconds + 10, ordering: ordering,
                        trace: trace)
                    #expect(
                        world.storedRows.map(\.key) == ["a1", "a2", "b1", "b2", "b3"],
                        "\(ordering), \(termination)")
                    #expect(storeLosses(of: world).isEmpty, "\(ordering), \(termination)")
                    // The kill reached the app before the commit's timer (which it cancelled).
                    let timerFired = trace.records.contains {
                        $0.instant == completion
                            && $0.message.description.hasPrefix("app timer store commit 2")
                    }
                    if !timerFired { killArrivedFirst += 1 }
                }
            }
        }
        #expect(killArrivedFirst > 0, "some ordering must put the kill first")
    }

    @Test("a policy's one-nanosecond fix interval runs (rows were once reserved by fix interval)")
    func rowsReservedAreBounded() {
        var policy = IOSPolicy.measured
        policy.fixInterval = .nanoseconds(1)
        let readings = StoreReadings()
        var world = World(WorldConfiguration(policy: policy, route: drive(20))) {
            TwoCommitEngine(readings)
        }
        world.schedule(.open, at: .start)
        world.schedule(.leave, at: .start + .minutes(1))
        // One fix a nanosecond for a day would reserve 10^14 rows.
        let outcome = world.run(until: .start + .hours(24), eventCountMax: 100_000)
        #expect(outcome.exitReason != .eventCountMaxReached)
        #expect(world.storedRows.map(\.key) == ["a1", "a2", "b1", "b2", "b3"])
    }

    @Test("R-A1: a lost commit is a 'lost' message naming its rule in the trace")
    func lostCommitIsInTheTrace() {
        let trace = MemoryTrace<WorldMessage>()
        _ = terminateDuringCommit(.forceQuit, at: commit2IssuedSeconds + 5, trace: trace)
        let lost = trace.records.map(\.message.description).filter { $0.hasPrefix("lost ") }
        // The commit in flight is iOS's loss; the row the engine had inserted and not yet
        // committed is its own, reported as such (`uncommittedRowsLost` in the log).
        #expect(
            lost == [
                "lost commit 2 (3 rows): process ended (force-quit), R-A1",
                "lost 1 uncommitted rows: process ended (force-quit), R-A1",
            ])
    }

    @Test(
        "R-F3: a suspended app purged during a commit loses it; one purged after keeps it, and its held callback is dropped"
    )
    func memoryPurgeDuringAndAfterCommit() {
        // No test host: commit 2 is issued at 21.5 s, the app is suspended at 26.5 s, and the
        // commit completes at 31.5 s while it is suspended.
        for (purge, durable) in [(28.0, false), (31.5, true), (40.0, true)] {
            let readings = StoreReadings()
            let world = runWorld(
                policy: slowCommits, route: parked, until: purge + 40,
                actions: [(0, .open), (20, .leave), (purge, .memoryPressure), (purge + 30, .open)]
            ) { TwoCommitEngine(readings) }
            #expect(world.terminations == [.memory])
            let expected = ["a1", "a2"] + (durable ? ["b1", "b2", "b3"] : [])
            #expect(readings.keysAtRelaunch == [expected], "purged at \(purge) s")
            let losses = storeLosses(of: world)
            #expect(losses.map(\.reason) == (durable ? [] : [.processEnded(.memory)]))
            #expect(losses.allSatisfy { $0.reason.rule == "R-F3" })
            let callbackDropped = drops(of: world).contains {
                $0.item == .storeDidCommit(CommitID(2)) && $0.reason == .processEnded(.memory)
            }
            #expect(callbackDropped == durable, "the suspended app never ran its callback")
        }
    }

    @Test(
        "R-A2: a commit completing while the app is suspended is durable at once; its callback waits for the process to run"
    )
    func commitCompletesWhileSuspended() {
        let readings = StoreReadings()
        let world = runWorld(
            policy: slowCommits, route: parked, until: 60,
            actions: [(0, .open), (20, .leave), (50, .open)]
        ) { TwoCommitEngine(readings) }
        let durable = world.seconds {
            if case .commitDurable(CommitID(2), 3) = $0.kind { true } else { false }
        }
        let called = world.seconds {
            if case .didCommit(CommitID(2)) = $0.kind { true } else { false }
        }
        #expect(durable == [31.5])
        #expect(called == [50], "held while suspended, handed when the user returns")
        #expect(
            world.log.first {
                if case .commitDurable(CommitID(2), _) = $0.kind { true } else { false }
            }?.processState == .suspended)
    }

    @Test(
        "R-A2: the completion of a commit is held outside the queue's bound; fixes beyond it are dropped"
    )
    func commitCallbackIsNotPushedOutOfTheQueue() {
        var policy = slowCommits
        policy.queuedUpdateCountMax = 3
        let world = runWorld(
            policy: policy, authorization: .always, until: 60,
            actions: [(0, .open), (20, .leave), (50, .open)]
        ) {
            let engine = TwoCommitEngine(StoreReadings())
            return ManagerAndStore(engine)
        }
        #expect(drops(of: world).contains { $0.reason == .queueFull })
        #expect(!drops(of: world).contains { $0.item == .storeDidCommit(CommitID(2)) })
        #expect(
            world.seconds { if case .didCommit(CommitID(2)) = $0.kind { true } else { false } } == [
                50
            ])
    }

    @Test("rows survive a relaunch and a reboot, in commit order")
    func rowsSurviveRelaunchAndReboot() {
        let readings = StoreReadings()
        let world = runWorld(
            route: parked, until: 100,
            actions: [
                (0, .open), (2, .leave), (10, .exit), (20, .open), (30, .reboot), (40, .unlock),
                (50, .open),
            ]
        ) { TwoCommitEngine(readings) }
        let all = ["a1", "a2", "b1", "b2", "b3"]
        #expect(readings.keysAtRelaunch == [all, all])
        #expect(world.terminations == [.exit, .reboot])
    }

    @Test(
        "R-D9: the store cannot be opened before the first unlock after a boot; it opens after, with every row"
    )
    func storeLockedUntilFirstUnlock() {
        let readings = StoreReadings()
        // Opening an app unlocks the device: the launch before the unlock is the reboot's
        // background relaunch (R-B7), 60 s after it.
        let relaunch = 30 + IOSPolicy.measured.rebootRelaunchDelay.seconds
        let world = runWorld(
            authorization: .always, route: parked, until: 130,
            actions: [(0, .open), (2, .leave), (30, .reboot), (relaunch + 5, .unlock)]
        ) { TwoCommitEngine(readings, registersForRelaunch: true) }
        #expect(readings.openErrors == [.protectedDataUnavailable])
        #expect(readings.keysAtRelaunch == [nil], "opening failed at the launch before the unlock")
        #expect(readings.keysAfterUnlock == ["a1", "a2", "b1", "b2", "b3"])
        #expect(
            world.seconds {
                if case .storeUnavailable(.protectedDataUnavailable) = $0.kind {
                    true
                } else {
                    false
                }
            } == [relaunch])
    }

    @Test("commits are serial: a commit issued during another completes a full duration after it")
    func commitsAreSerial() {
        let world = runWorld(policy: slowCommits, route: parked, until: 40, actions: [(0, .open)]) {
            ScriptedEngine { _, services in
                guard let store = try? services.openStore() else { return }
                store.insert(StoredRow(key: "x"))
                store.commit()
                store.insert(StoredRow(key: "y"))
                store.commit()
                #expect(store.commit() == nil, "nothing to commit")
            }
        }
        let durable = world.seconds {
            if case .commitDurable = $0.kind { true } else { false }
        }
        #expect(durable == [10, 20])
        #expect(world.storedRows.map(\.key) == ["x", "y"])
    }

    @Test("a commit's rows appear in store.rows only once it has completed")
    func rowsAppearOnlyWhenDurable() {
        let seen = Counter()
        let world = runWorld(route: parked, until: 5, actions: [(0, .open)]) {
            EngineReadingRows(seen)
        }
        #expect(seen.value == 1, "storeDidCommit saw the row, didLaunch did not")
        #expect(world.storedRows.count == 1)
    }

    @Test("the disk completes commits due by the termination's instant and loses the rest")
    func diskTerminationBoundary() {
        var world = World(WorldConfiguration(route: parked)) { ScriptedEngine { _, _ in } }
        let handle = world.simulation.scheduler.send(
            .user(.lock), to: world.operatingSystem, at: .start)
        var disk = Disk()
        let at = Instant.start + .seconds(10)
        disk.issue(
            .init(commit: CommitID(1), rows: [StoredRow(key: "a")], completesAt: at, timer: handle))
        disk.issue(
            .init(
                commit: CommitID(2), rows: [StoredRow(key: "b")], completesAt: at + .nanoseconds(1),
                timer: handle))
        let (completed, lost) = disk.terminate(at: at)
        #expect(completed.map(\.commit) == [CommitID(1)])
        #expect(lost.map(\.commit) == [CommitID(2)])
        #expect(disk.rows.map(\.key) == ["a"])
        #expect(disk.inFlight.isEmpty)
    }
}

/// Updates a plain manager at every launch, and otherwise behaves as `TwoCommitEngine`.
final class ManagerAndStore: AppEngine {
    private let inner: TwoCommitEngine
    init(_ inner: TwoCommitEngine) { self.inner = inner }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        services.startUpdatingLocation(services.makeManager())
        inner.didLaunch(launch, services: services)
    }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        inner.lifecycleChanged(to: state, services: services)
    }
}

/// Commits one row at launch and counts how often a callback sees it in `store.rows`.
final class EngineReadingRows: AppEngine {
    private let seen: Counter
    init(_ seen: Counter) { self.seen = seen }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        store.insert(StoredRow(key: "r"))
        store.commit()
        if !store.rows.isEmpty { seen.value += 10 }
    }
    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        if (try? services.openStore())?.rows.map(\.key) == ["r"] { seen.value += 1 }
    }
}
