// The delegate-style tracker of Examples/DelegateTracker, compiled against LifelineKit: its
// storage seam on the simulated device, a drive with a force-quit, and fuzzed by
// `fuzzLifecycle` against every built-in invariant.
import DelegateTrackerExample
import Engines
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.UserDefaults

/// Commits `locations` to the simulated device's store as fix rows (`FixRecorder`'s key), in
/// the calling callback: how the test stores stand for an app's database. False when the
/// store cannot be opened (no process, or its data unreadable before the first unlock).
@discardableResult
func commitFixRows(of locations: [CLLocation], services: LocationServices?) -> Bool {
    guard let services, let store = try? services.openStore() else { return false }
    for location in locations {
        guard let fix = location.lifelineFix else { continue }
        store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: fix))
    }
    store.commit()
    return true
}

/// The tracker's `LocationStore` on the simulated device: locations in the store (one row per
/// fix, `FixRecorder`'s key, committed in the callback that inserts), the switch in the saved
/// record through `UserDefaults`, as an iOS team writes it. What an iOS team would back with
/// Core Data.
final class DeviceLocationStore: LocationStore {
    private weak var services: LocationServices?
    init(services: LocationServices) { self.services = services }

    func append(_ locations: [CLLocation]) -> Bool {
        commitFixRows(of: locations, services: services)
    }

    var trackingSwitchedOff: Bool {
        get { UserDefaults.standard.bool(forKey: "tracker.switchedOff") }
        set { UserDefaults.standard.set(newValue, forKey: "tracker.switchedOff") }
    }
}

/// The example app as an engine.
let delegateTracker = CustomEngine.application(
    name: "delegate-tracker",
    summary:
        "Examples/DelegateTracker: a CLLocationManager delegate with significant change and a restart region"
) { services in
    TrackerAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.tracker.setTracking(on)
}

@Suite("LifelineKit: the example tracker")
struct ExampleTrackerTests {
    @Test("a drive with a force-quit: iOS relaunches the tracker, which stores fixes again")
    func relaunchedAfterForceQuit() {
        var world = World(
            WorldConfiguration(
                policy: .iOS18, capabilities: delegateTracker.profile.capabilities,
                authorization: .always, route: drive(20))
        ) { delegateTracker.make(LaunchRules()) }
        world.schedule(.open, at: .start)
        world.schedule(.leave, at: .start + .seconds(10))
        world.schedule(.forceQuit, at: .start + .seconds(60))
        world.run(until: .start + .minutes(15))
        let launches = world.log.compactMap { entry -> LaunchContext? in
            if case .launch(let context) = entry.kind { context } else { nil }
        }
        #expect(launches.count >= 2)
        #expect(launches.dropFirst().first?.launchOptions == ["location"])
        let stored = world.storedRows.compactMap(\.fix)
        #expect(stored.contains { $0.instant > .start + .minutes(10) }, "stored after the relaunch")
        #expect(stored.contains { $0.instant < .start + .seconds(60) })
    }

    /// The built-in invariants but `uploaded-once`: the example keeps its locations on the
    /// device (it has no uploader; `URLSessionKitTests` checks an app that uploads through a
    /// background `URLSession` against `uploaded-once`), so "every stored fix reaches the
    /// server" does not apply to it.
    static let invariants = Invariant.builtIn.filter { $0.name != "uploaded-once" }

    @Test(
        "fuzzed over generated lifecycles, the example tracker holds every built-in invariant but uploaded-once"
    )
    func fuzzed() {
        #expect(Self.invariants.count == Invariant.builtIn.count - 1)
        // 20 cases here, about a second each in a debug build; .ci/run sets LIFELINE_CASES=150.
        let report = fuzzLifecycle(
            of: .custom(delegateTracker), checking: Self.invariants, seed: 1, cases: 20)
        #expect(report?.failure == nil)
        let budget =
            Foundation.ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init)
            ?? 20
        #expect(report?.cases == budget, "every case of the budget ran")
    }
}

extension ExampleTrackerTests {
    /// The example's run of `relaunchedAfterForceQuit` under `ordering`, as text.
    static func runText(ordering: OrderingSpecification) -> String {
        var world = World(
            WorldConfiguration(
                policy: .iOS18, capabilities: delegateTracker.profile.capabilities,
                authorization: .always, route: drive(20), seed: 9, ordering: ordering)
        ) { delegateTracker.make(LaunchRules()) }
        world.schedule(.open, at: .start)
        world.schedule(.leave, at: .start + .seconds(10))
        world.schedule(.forceQuit, at: .start + .seconds(60))
        world.schedule(.reboot, at: .start + .minutes(8))
        world.run(until: .start + .minutes(15))
        return world.log.map(\.description).joined(separator: "\n") + "\n"
            + world.storedRows.map(\.description).joined(separator: "\n")
    }

    @Test(
        "deterministic: the same seed gives the same log and disk, run after run, on other threads, and under random ordering"
    )
    func deterministic() async {
        let first = Self.runText(ordering: .fifo)
        #expect(first == Self.runText(ordering: .fifo))
        let onOtherThreads = await withTaskGroup(of: String.self) { group in
            for _ in 0..<2 { group.addTask { Self.runText(ordering: .fifo) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(onOtherThreads.allSatisfy { $0 == first })
        #expect(first.contains("reboot") || first.contains("launch"))
        let random = Self.runText(ordering: .random(seed: 3))
        #expect(random == Self.runText(ordering: .random(seed: 3)))
    }
}
