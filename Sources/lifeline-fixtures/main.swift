// A `lifeline` with engines broken on purpose, for the tests of crash isolation
// (`Tests/CommandTests/CrashIsolationTests.swift`): the fuzzer must report each as a finding
// and never die of it. Not a product: it is built for the tests only.
import Engines
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
]

LifelineCLI.main(engines: fixtures)
