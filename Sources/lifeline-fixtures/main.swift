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
        + CustomEngine.sessionKitMutants)
