// A `lifeline` with engines broken on purpose, for the tests of crash isolation
// (`Tests/CommandTests/CrashIsolationTests.swift`): the fuzzer must report each as a finding
// and never die of it; and an engine written in Swift concurrency, whose trace `.ci/run`
// compares across processes and `--jobs` (docs/concurrency.md); and `standard-kit` and
// `session-kit`, the standard and session engines on LifelineKit (docs/studies/kit-engines.md), the
// latter also with its live-updates loop on the main actor (`session-kit-main-actor`) and
// with six of the session engine's mistakes planted (`stores-nothing-kit`, …). Not a
// product: it is built for the tests and those studies only.
import Engines
import KitEngines
import LifelineCLI
import Simulation
import World

/// Does nothing but what `broken` does at each launch.
final class BrokenAtLaunch: TrackingEngine {
    let broken: (LaunchContext) -> Void
    init(_ broken: @escaping (LaunchContext) -> Void) { self.broken = broken }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) { broken(launch) }
    func start(services: LocationServices) {}
    func stop(services: LocationServices) {}
    func state(at now: Instant) -> EngineState {
        EngineState(enabled: false, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }
    var events: [TrackingEvent] { [] }
}

/// Three tasks that sleep 10 s at each launch, wake at the same instant, and each ask for a
/// timer: the order they run in (FIFO, or the run's random picks) decides which timer gets
/// which object id, so it shows in the trace.
final class AsyncRacer: TrackingEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        nonisolated(unsafe) let services = services
        for task in 0..<3 {
            Task.detached {
                try await Task.sleep(for: .seconds(10))
                _ = services.scheduledTimer(after: .seconds(Int64(60 + task)))
            }
        }
    }
    func start(services: LocationServices) {}
    func stop(services: LocationServices) {}
    func state(at now: Instant) -> EngineState {
        EngineState(enabled: false, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }
    var events: [TrackingEvent] { [] }
}

/// Holds the spinner's count where the optimizer cannot drop the loop.
nonisolated(unsafe) var spins = 0

/// Whether this process runs cases side by side (`--jobs` above 1 among its arguments, as a
/// supervised `lifeline fuzz` child has them): where `slow-beside-others` is slow.
let runsSideBySide: Bool = {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--jobs"), index + 1 < arguments.count,
        let jobs = Int(arguments[index + 1])
    else { return false }
    return jobs > 1
}()

/// Launches of `leaks-after-many-launches` in this real process: the static it leaks.
nonisolated(unsafe) var leakedLaunches = 0

/// `standard-kit`, until this real process has launched it `launchCountMax` times; from then
/// on it does nothing. A static that outlives the simulated process, which the first case
/// never shows: a fresh process replaying the failure runs clean.
func leaksAfterManyLaunches(launchCountMax: Int) -> CustomEngine {
    let engine = CustomEngine.standardKit
    var leaky = CustomEngine(
        name: "leaks-after-many-launches",
        summary: "standard-kit until its \(launchCountMax)th launch in one real process; then idle"
    ) { rules in
        leakedLaunches += 1
        guard leakedLaunches <= launchCountMax else { return BrokenAtLaunch { _ in } }
        return engine.make(rules)
    }
    leaky.profile = engine.profile
    return leaky
}

/// `engine` under `name`, but each launch first spins for 60 s of wall time in a process that
/// runs cases side by side: a case slow in one worker and quick on one thread, as a loaded
/// machine makes one.
func slowBesideOthers(_ engine: CustomEngine, name: String) -> CustomEngine {
    var slow = CustomEngine(
        name: name, summary: "\(engine.name), but 60 s of wall time per launch beside other cases",
        honoursLaunchRules: engine.honoursLaunchRules
    ) { rules in
        if runsSideBySide {
            let end = WallClock.seconds() + 60
            while WallClock.seconds() < end { spins = (spins &+ 1) & 0xFFFF }
        }
        return engine.make(rules)
    }
    slow.profile = engine.profile
    return slow
}

let fixtures = [
    CustomEngine(name: "trapper", summary: "traps at its first launch") { _ in
        BrokenAtLaunch { launch in
            let slots: [Int] = []
            spins = slots[launch.launchOptions.count]  // index out of range
        }
    },
    CustomEngine(name: "spinner", summary: "never returns from its first didLaunch") { _ in
        BrokenAtLaunch { _ in
            while spins >= 0 { spins = (spins &+ 1) & 0xFFFF }
        }
    },
    CustomEngine(name: "async-racer", summary: "three tasks race after a 10 s sleep") { _ in
        AsyncRacer()
    },
]

LifelineCLI.main(
    engines: fixtures + [.standardKit, .sessionKit, .sessionKitMainActor]
        + CustomEngine.sessionKitMutants + [
            slowBesideOthers(.standardKit, name: "slow-beside-others"),
            slowBesideOthers(
                CustomEngine.sessionKitMutants[0], name: "slow-beside-others-mutant"),
            leaksAfterManyLaunches(launchCountMax: 40), .phoneOnly(uploads: .nothing),
        ])
