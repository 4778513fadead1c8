// The world model's delivery path under every same-instant ordering: lifecycle scenarios with
// user and system actions at whole seconds (so they tie with fixes, events and each other),
// their orderings drawn from the test case, checked for the losses and leaks that the model
// must never cause on its own; and the same for the app's store: every commit ends durable or
// lost, once, and the disk holds exactly the durable rows.
import Exploration
import ExplorationTesting
import Simulation
import Testing

@testable import World

/// One timed action of a scenario.
struct TimedAction: CustomStringConvertible {
    var second: Int
    var action: UserAction
    var description: String { "\(second)s \(action)" }
}

/// What each launch of the scenario's engine does: a manager at the launches whose bit is set
/// (bit k: launch k + 1), and the services it recreates at every launch.
struct EnginePlan: CustomStringConvertible {
    var managerLaunches: UInt8
    var allowsBackground: Bool
    var significantChange: Bool
    var backgroundTask: Bool
    var liveSession: Bool
    var visits: Bool
    var monitor: Bool
    var legacyRegion: Bool
    var description: String {
        "managers at launches \(managerLaunches), background \(allowsBackground), "
            + "significant change \(significantChange), task \(backgroundTask), "
            + "live session \(liveSession), visits \(visits), monitor \(monitor), "
            + "region \(legacyRegion)"
    }
}

/// A lifecycle scenario and what its run did.
struct DeliveryRun: CustomStringConvertible {
    var always: Bool
    var plan: EnginePlan
    var actions: [TimedAction]
    /// Every way the run broke the delivery path's rules, in plain words.
    var violations: [String]
    var description: String {
        "\(always ? "Always" : "When In Use"), \(plan), actions \(actions)"
    }
}

/// Records, per process, the managers its engine created.
final class ManagerLedger {
    var created: [Int: [ObjectID]] = [:]
}

/// An engine that follows `plan` at each launch and notes its managers in `ledger`.
final class PlannedEngine: AppEngine {
    let plan: EnginePlan
    let launch: Int
    let ledger: ManagerLedger
    init(plan: EnginePlan, launch: Int, ledger: ManagerLedger) {
        self.plan = plan
        self.launch = launch
        self.ledger = ledger
    }

    func didLaunch(_ context: LaunchContext, services: LocationServices) {
        if plan.managerLaunches & (1 << UInt8(min(launch - 1, 7))) != 0 {
            let manager = services.makeManager()
            ledger.created[launch, default: []].append(manager)
            if plan.allowsBackground { services.setAllowsBackgroundLocationUpdates(manager, true) }
            services.startUpdatingLocation(manager)
        }
        if plan.significantChange { services.startMonitoringSignificantLocationChanges() }
        if plan.backgroundTask { _ = services.beginBackgroundTask() }
        if plan.liveSession {
            _ = services.beginBackgroundActivitySession()
            _ = services.startLiveUpdates()
        }
        if plan.visits { services.startMonitoringVisits() }
        let home = Coordinate(latitude: 51.5007, longitude: -0.1246)
        if plan.monitor {
            services.openMonitor("Places")
            services.addCondition(
                monitor: "Places", condition: "home", center: home, radiusMeters: 100)
        }
        if plan.legacyRegion {
            let manager = services.makeManager()
            ledger.created[launch, default: []].append(manager)
            services.startMonitoring(
                manager, for: CircularRegion(identifier: "home", center: home, radiusMeters: 150))
        }
    }
}

/// The actions a scenario draws from.
let scenarioActions: [UserAction] = [
    .open, .leave, .lock, .unlock, .forceQuit, .memoryPressure, .crash, .exit, .reboot,
    .setAuthorization(.always), .setAuthorization(.whenInUse), .setAuthorization(.denied),
    .setAccuracy(.reduced), .setAccuracy(.full), .attachTestHost(true), .attachTestHost(false),
    .startLiveActivity, .endLiveActivity,
    .networkDown, .networkUp, .networkSlow(.seconds(5)),
    .setLowPowerMode(true), .setLowPowerMode(false),
]

/// A lifecycle scenario run with every same-instant ordering drawn from the test case.
var deliveryRuns: Gen<DeliveryRun> {
    Gen("delivery-run") { testCase in
        let always = Gen<Bool>.bool.generate(testCase)
        let plan = EnginePlan(
            managerLaunches: UInt8(Gen<Int>.int(in: 0...255).generate(testCase)),
            allowsBackground: Gen<Bool>.bool.generate(testCase),
            significantChange: Gen<Bool>.bool.generate(testCase),
            backgroundTask: Gen<Bool>.bool.generate(testCase),
            liveSession: Gen<Bool>.bool.generate(testCase),
            visits: Gen<Bool>.bool.generate(testCase),
            monitor: Gen<Bool>.bool.generate(testCase),
            legacyRegion: Gen<Bool>.bool.generate(testCase))
        let action = Gen.zip(
            Gen<Int>.int(in: 0...600), Gen<UserAction>.element(of: scenarioActions)
        )
        .map { TimedAction(second: $0.0, action: $0.1) }
        let actions = Gen.array(of: action, length: 0...10).generate(testCase)
        let ledger = ManagerLedger()
        var launches = 0
        let trace = MemoryTrace<WorldMessage>()
        var world = World(
            WorldConfiguration(
                authorization: always ? .always : .whenInUse,
                route: Route(
                    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
                    segments: [
                        .init(.park, .seconds(20)),
                        .init(.drive, .minutes(2), speedMetersPerSecond: 40),
                        .init(.park, .minutes(6)),
                        // Back past home and on: the conditions' and regions' entries, then
                        // their exits again (R-F8).
                        .init(
                            .drive, .minutes(10), speedMetersPerSecond: 40,
                            headingChangeDegrees: 180),
                    ])),
            ordering: .random(choices: testCase), trace: trace
        ) {
            launches += 1
            return PlannedEngine(plan: plan, launch: launches, ledger: ledger)
        }
        world.schedule(.open, at: .start)
        for timed in actions {
            world.schedule(timed.action, at: .start + .seconds(Int64(timed.second)))
        }
        world.run(until: .start + .minutes(15))
        let received = trace.records.filter {
            if case .deliver = $0.message { $0.actor == world.app } else { false }
        }.count
        return DeliveryRun(
            always: always, plan: plan, actions: actions,
            violations: deliveryViolations(world, deliverCount: received, ledger: ledger))
    }
}

/// The rules of the delivery path, checked over the app's log.
func deliveryViolations(_ world: World, deliverCount: Int, ledger: ManagerLedger) -> [String] {
    var violations: [String] = []
    var handed = 0
    var dropped = 0
    var lastFixInstant: [Int: Instant] = [:]
    for entry in world.log {
        let at = "at \(entry.instant) (process \(entry.generation))"
        switch entry.kind {
        case .dropped: dropped += 1
        case .location, .failure, .monitoringFailure, .event, .authorization,
            .accuracyAuthorization, .locationUpdatesPaused, .locationUpdatesResumed,
            .protectedDataAvailable, .backgroundTaskExpiring, .uploadCompleted:
            handed += 1
            if !entry.processState.isRunning {
                violations.append(
                    "\(entry.kind) handed to a \(entry.processState.rawValue) process \(at)")
            }
        default: break
        }
        guard case .location(let update) = entry.kind, let fix = update.fix else { continue }
        if case .manager(let id) = update.channel,
            !(ledger.created[entry.generation] ?? []).contains(id)
        {
            violations.append("a fix of manager \(id), which this process never made, \(at)")
        }
        if let last = lastFixInstant[entry.generation], fix.instant < last {
            violations.append("a fix taken at \(fix.instant) after one taken at \(last) \(at)")
        }
        lastFixInstant[entry.generation] = fix.instant
    }
    let accounted = handed + dropped + world.heldCount
    if accounted != deliverCount {
        violations.append(
            "\(deliverCount) items sent to the app, but \(handed) handed + \(dropped) dropped + "
                + "\(world.heldCount) held = \(accounted)")
    }
    return violations
}

@Suite("World delivery")
struct WorldDeliveryProperties {
    @Test(
        "under any same-instant ordering every item is handed, dropped with its rule, or held; never to a suspended or ended process, nor to a process that did not ask for it"
    )
    func deliveryPath() {
        propertyCheck(in: Self.self, deliveryRuns, cases: 200, describe: { "\($0)" }) { run in
            try check(run.violations.isEmpty, run.violations.prefix(3).joined(separator: "; "))
        }
    }
}

// MARK: - The store under every ordering

/// What the engines of one run committed: per commit, its process and the keys of its rows; and
/// how many rows each process read at launch.
final class CommitLedger {
    var commits: [(generation: Int, commit: CommitID, keys: [String])] = []
    var rowsAtLaunch: [(generation: Int, count: Int)] = []
}

/// Commits one row at launch and one per location update, and reads the store at launch.
final class CommittingEngine: AppEngine {
    let generation: Int
    let ledger: CommitLedger
    private var updates = 0
    init(generation: Int, ledger: CommitLedger) {
        self.generation = generation
        self.ledger = ledger
    }

    func didLaunch(_ context: LaunchContext, services: LocationServices) {
        services.startUpdatingLocation(services.makeManager())
        guard let store = try? services.openStore() else { return }
        ledger.rowsAtLaunch.append((generation, store.rows.count))
        commit(["launch \(generation)"], store)
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let store = try? services.openStore() else { return }
        updates += 1
        commit(["fix \(generation).\(updates)"], store)
        store.insert(StoredRow(key: "never committed"))
        store.rollback()
    }

    private func commit(_ keys: [String], _ store: Store) {
        for key in keys { store.insert(StoredRow(key: key)) }
        if let commit = store.commit() { ledger.commits.append((generation, commit, keys)) }
    }
}

/// A lifecycle scenario of `CommittingEngine`, with a commit duration and every same-instant
/// ordering drawn from the test case; returns the ways it broke the store's rules.
var storeRuns: Gen<(actions: [TimedAction], commitMilliseconds: Int, violations: [String])> {
    Gen("store-run") { testCase in
        let commitMilliseconds = Gen<Int>.int(in: 0...3_000).generate(testCase)
        let action = Gen.zip(Gen<Int>.int(in: 0...90), Gen<UserAction>.element(of: scenarioActions))
            .map { TimedAction(second: $0.0, action: $0.1) }
        let actions = Gen.array(of: action, length: 0...10).generate(testCase)
        var policy = IOSPolicy.measured
        policy.storeCommitDuration = .milliseconds(Int64(commitMilliseconds))
        let ledger = CommitLedger()
        var launches = 0
        var world = World(
            WorldConfiguration(
                policy: policy, authorization: .always,
                route: Route(
                    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
                    segments: [.init(.drive, .minutes(10), speedMetersPerSecond: 20)])),
            ordering: .random(choices: testCase)
        ) {
            launches += 1
            return CommittingEngine(generation: launches, ledger: ledger)
        }
        world.schedule(.open, at: .start)
        for timed in actions {
            world.schedule(timed.action, at: .start + .seconds(Int64(timed.second)))
        }
        world.run(until: .start + .seconds(120))
        return (actions, commitMilliseconds, storeViolations(world, ledger: ledger))
    }
}

/// The store's rules, checked over the app's log and its disk: every commit ends durable or
/// lost, once; the disk holds exactly the durable commits' rows, in order; a launch reads
/// exactly them; a commit's callback reaches only a running process, after it is durable.
func storeViolations(_ world: World, ledger: CommitLedger) -> [String] {
    struct Key: Hashable {
        var generation: Int
        var commit: CommitID
    }
    var violations: [String] = []
    var ends: [Key: [String]] = [:]
    var durableRows: [String] = []
    var durableAtLaunch: [Int: Int] = [:]
    let keysOf = Dictionary(
        ledger.commits.map { (Key(generation: $0.generation, commit: $0.commit), $0.keys) },
        uniquingKeysWith: { first, _ in first })
    for entry in world.log {
        let key: Key
        let at = "at \(entry.instant) (process \(entry.generation))"
        switch entry.kind {
        case .launch:
            durableAtLaunch[entry.generation] = durableRows.count
            continue
        case .commitDurable(let commit, _):
            key = Key(generation: entry.generation, commit: commit)
            ends[key, default: []].append("durable")
            durableRows += keysOf[key] ?? ["<\(commit) never issued>"]
        case .commitLost(let commit, _, _):
            key = Key(generation: entry.generation, commit: commit)
            ends[key, default: []].append("lost")
        case .didCommit(let commit):
            key = Key(generation: entry.generation, commit: commit)
            if ends[key] != ["durable"] { violations.append("callback for \(commit) \(at)") }
            if !entry.processState.isRunning {
                violations.append("\(commit)'s callback to a \(entry.processState) process \(at)")
            }
        default: continue
        }
    }
    for (generation, commit, _) in ledger.commits {
        let outcome = ends[Key(generation: generation, commit: commit)] ?? []
        if outcome.count > 1 { violations.append("\(commit) of \(generation) ended \(outcome)") }
    }
    let stored = world.storedRows.map(\.key)
    if stored != durableRows {
        violations.append("the disk holds \(stored), the durable commits \(durableRows)")
    }
    for (generation, count) in ledger.rowsAtLaunch where durableAtLaunch[generation] != count {
        violations.append(
            "process \(generation) read \(count) rows at launch; "
                + "\(durableAtLaunch[generation] ?? -1) were durable")
    }
    return violations
}

@Suite("World store")
struct WorldStoreProperties {
    @Test(
        "under any same-instant ordering and commit duration, every commit ends durable or lost once; the disk and every launch see exactly the durable rows"
    )
    func storeKeepsExactlyTheDurableCommits() {
        propertyCheck(
            in: Self.self, storeRuns, cases: 200,
            describe: { "commits of \($0.commitMilliseconds) ms, actions \($0.actions)" }
        ) { run in
            try check(run.violations.isEmpty, run.violations.prefix(3).joined(separator: "; "))
        }
    }
}
