// `applicationWillTerminate`: called at a force-quit of a running app (policy
// `willTerminateOnForceQuit`), never for a suspended app, a purge (R-F3), a crash, an exit or a
// reboot; requests made in it that outlive the process take effect (R-D7).
import Simulation
import Testing

@testable import World

/// An engine that, at `applicationWillTerminate` when `registers`, starts significant change
/// and monitors a region around home, as R-D7's engine does with `stopOnTerminate` false.
final class TerminatingEngine: AppEngine {
    private let registers: Bool
    init(registers: Bool = true) { self.registers = registers }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {}

    func applicationWillTerminate(services: LocationServices) {
        guard registers else { return }
        services.startMonitoringSignificantLocationChanges()
        let manager = services.makeManager()
        services.startMonitoring(
            manager,
            for: CircularRegion(identifier: "parked", center: home, radiusMeters: 100))
    }
}

extension World {
    /// Seconds at which `applicationWillTerminate` ran.
    var willTerminateSeconds: [Double] {
        seconds { if case .willTerminate = $0.kind { true } else { false } }
    }
}

@Suite("applicationWillTerminate")
struct WillTerminateTests {
    @Test("A force-quit in the foreground calls it, before the process ends")
    func forceQuitInForeground() {
        let world = runWorld(route: parked, until: 60, actions: [(0, .open), (20, .forceQuit)]) {
            TerminatingEngine(registers: false)
        }
        #expect(world.willTerminateSeconds == [20])
        let kinds = world.log.map(\.kind.description)
        let called = kinds.firstIndex(of: "will terminate") ?? kinds.endIndex
        let killed = kinds.firstIndex(of: "killed (force-quit)") ?? kinds.startIndex
        #expect(called < killed)
    }

    @Test("A force-quit of an app running in the background calls it")
    func forceQuitRunningInBackground() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .attachTestHost(true)), (0, .open), (5, .leave), (60, .forceQuit)]
        ) { TerminatingEngine(registers: false) }
        #expect(world.willTerminateSeconds == [60])
    }

    @Test(
        "R-F3: never for a suspended app, whether purged or force-quit",
        arguments: [UserAction.memoryPressure, .forceQuit])
    func neverWhenSuspended(ending: UserAction) {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (5, .leave), (60, ending)]
        ) { TerminatingEngine(registers: false) }
        #expect(world.terminations.count == 1)
        #expect(world.willTerminateSeconds.isEmpty)
    }

    @Test(
        "Never for a crash, an exit or a reboot of a running app",
        arguments: [UserAction.crash, .exit, .reboot])
    func neverForOtherEndings(ending: UserAction) {
        let world = runWorld(route: parked, until: 60, actions: [(0, .open), (20, ending)]) {
            TerminatingEngine(registers: false)
        }
        #expect(world.terminations.count == 1)
        #expect(world.willTerminateSeconds.isEmpty)
    }

    @Test("Never when the policy's willTerminateOnForceQuit is false")
    func policyTurnsItOff() {
        var policy = IOSPolicy.measured
        policy.willTerminateOnForceQuit = false
        let world = runWorld(
            policy: policy, route: parked, until: 60, actions: [(0, .open), (20, .forceQuit)]
        ) { TerminatingEngine(registers: false) }
        #expect(world.terminations == [.forceQuit])
        #expect(world.willTerminateSeconds.isEmpty)
    }

    @Test(
        "R-D7: significant change and a region registered in it outlive the process and relaunch it",
        arguments: [true, false])
    func registrationsMadeThereTakeEffect(registers: Bool) {
        let policy = IOSPolicy.iOS18  // a force-quit app is relaunched by them (R-B5, R-B6)
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 600, actions: [(0, .open), (10, .forceQuit)]
        ) { TerminatingEngine(registers: registers) }
        #expect(world.willTerminateSeconds == [10])
        // Relaunched in the background by their events (the first as significant change
        // starts, then as the drive goes on); without them, never.
        let relaunches = world.launches.dropFirst()
        #expect(relaunches.isEmpty == !registers)
        #expect(relaunches.allSatisfy { $0.seconds > 10 && $0.context.state == .background })
    }
}
