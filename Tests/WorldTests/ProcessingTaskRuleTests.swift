// BGTaskScheduler's processing requests (R-H10): the system runs the app in the background no
// earlier than the request's date, only while the network is up when the request requires it,
// never when it requires external power (the modelled device is never plugged in), and for
// `processingTaskRuntime` before the expiration call.
import Simulation
import Testing

@testable import World

/// An engine that submits one processing request, due 60 s after its first foreground launch,
/// and completes each wake when it begins (or, if told not to, at its expiration call).
final class ProcessingEngine: AppEngine {
    let requiresNetwork: Bool
    let requiresPower: Bool
    let completesAtOnce: Bool

    init(requiresNetwork: Bool = false, requiresPower: Bool = false, completesAtOnce: Bool = true) {
        self.requiresNetwork = requiresNetwork
        self.requiresPower = requiresPower
        self.completesAtOnce = completesAtOnce
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard launch.state == .foreground, !services.userDefaults.bool(forKey: "submitted") else {
            return
        }
        services.userDefaults.set(true, forKey: "submitted")
        services.submitProcessing(
            identifier: "maintenance", earliestBegin: services.now + .seconds(60),
            requiresNetworkConnectivity: requiresNetwork, requiresExternalPower: requiresPower)
    }
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        if completesAtOnce { services.completeWake(task, success: true) }
    }
}

@Suite("Processing requests (R-H10)")
struct ProcessingTaskRuleTests {
    @Test("R-H10: a processing request runs the suspended app in the background at its date")
    func runsAtItsDate() {
        let world = runWorld(route: parked, until: 120, actions: [(0, .open), (2, .leave)]) {
            ProcessingEngine()
        }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 processing maintenance background",
            ])
    }

    @Test(
        "R-H10: due while the app is in the foreground, it runs once the app is in the background")
    func waitsForTheBackground() {
        let world = runWorld(route: parked, until: 200, actions: [(0, .open), (100, .leave)]) {
            ProcessingEngine()
        }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "101.5 processing maintenance background",
            ])
    }

    @Test("R-H10: requiring the network, it waits while the network is down")
    func requiresTheNetwork() {
        let world = runWorld(
            route: parked, until: 200,
            actions: [(0, .open), (1, .networkDown), (2, .leave), (150, .networkUp)]
        ) { ProcessingEngine(requiresNetwork: true) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "150.0 processing maintenance background",
            ])
    }

    @Test("R-H10: requiring external power, it never runs: the modelled device is never plugged in")
    func requiresPowerNeverRuns() {
        let world = runWorld(route: parked, until: 600, actions: [(0, .open), (2, .leave)]) {
            ProcessingEngine(requiresPower: true)
        }
        #expect(world.wakeTimeline() == ["0.0 launch foreground"])
    }

    @Test("R-H10, R-H3: not completed, it gets its expiration call after processingTaskRuntime")
    func expiresAfterItsRuntime() {
        let world = runWorld(route: parked, until: 300, actions: [(0, .open), (2, .leave)]) {
            ProcessingEngine(completesAtOnce: false)
        }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 processing maintenance background",
                "240.0 expiring",
            ])
    }

    @Test("R-H10, R-H2: after a force-quit it does not run")
    func notAfterForceQuit() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave), (20, .forceQuit)]
        ) { ProcessingEngine() }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "20.0 killed force-quit",
                "60.0 dropped processing maintenance R-H2",
            ])
    }
}

extension PolicyScenario {
    /// A processing request due at 60 s whose engine completes it only at its expiration call.
    static let processingNotCompleted = PolicyScenario(name: "processing not completed") {
        policy in
        runWorld(policy: policy, route: parked, until: 300, actions: [(0, .open), (2, .leave)]) {
            ProcessingEngine(completesAtOnce: false)
        }
        .wakeTimeline()
    }
}
