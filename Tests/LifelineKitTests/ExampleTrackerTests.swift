// The delegate-style tracker of Examples/DelegateTracker as an engine (ExampleEngines): a
// drive with a force-quit, and fuzzed by `fuzzLifecycle` against every built-in invariant.
import DelegateTrackerExample
import Engines
import ExampleEngines
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import Simulation
import Testing
import World

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
    /// server" does not apply to it, and its profile says so (no server).
    static let invariants = InvariantSelection().applied(
        to: Invariant.builtIn, profile: delegateTracker.profile)

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
