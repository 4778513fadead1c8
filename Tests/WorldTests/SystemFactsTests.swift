// The read-only facts an engine reads on `LocationServices`: authorization and accuracy
// authorization, Low Power Mode, the boot time (`kern.boottime`) and the uptime.
import Simulation
import Testing

@testable import World

/// What an engine read, at each launch and at each lifecycle change.
final class FactsEngine: AppEngine {
    struct Reading: Equatable {
        var seconds: Double
        var authorization: Authorization
        var accuracy: AccuracyAuthorization
        var lowPowerMode: Bool
        var bootTime: BootTime
        var uptime: VirtualDuration
    }
    final class Readings: @unchecked Sendable { var all: [Reading] = [] }
    private let readings: Readings
    init(_ readings: Readings) { self.readings = readings }

    private func read(_ services: LocationServices) {
        readings.all.append(
            Reading(
                seconds: (services.bootTime.sinceStart + services.uptime).seconds,
                authorization: services.authorizationStatus,
                accuracy: services.accuracyAuthorization,
                lowPowerMode: services.isLowPowerModeEnabled, bootTime: services.bootTime,
                uptime: services.uptime))
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) { read(services) }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) { read(services) }
}

func readFacts(
    uptimeAtStart: VirtualDuration = .hours(26), accuracy: AccuracyAuthorization = .full,
    actions: [(Double, UserAction)]
) -> [FactsEngine.Reading] {
    let readings = FactsEngine.Readings()
    let configuration = WorldConfiguration(
        accuracy: accuracy, route: parked, uptimeAtStart: uptimeAtStart)
    var world = World(configuration) { FactsEngine(readings) }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + .seconds(600))
    return readings.all
}

@Suite("System facts")
struct SystemFactsTests {
    @Test("The first boot is uptimeAtStart before the start; uptime is the time since it")
    func bootTimeBeforeTheRun() {
        let readings = readFacts(uptimeAtStart: .hours(3), actions: [(0, .open), (40, .leave)])
        let boot = BootTime(sinceStart: .zero - .hours(3))
        #expect(readings.map(\.bootTime) == [boot, boot])
        let backgroundAt = VirtualDuration.seconds(40) + IOSPolicy.measured.leavingTransition
        #expect(readings.map(\.uptime) == [.hours(3), .hours(3) + backgroundAt])
        #expect(readings.map(\.seconds) == [0, backgroundAt.seconds])
    }

    @Test(
        "R-B12: the boot time changes across a reboot and not across a relaunch; the uptime leaves out the time on the lock screen after the boot"
    )
    func bootTimeDetectsReboot() {
        let readings = readFacts(actions: [
            (0, .open), (10, .forceQuit), (20, .open), (30, .reboot), (100, .unlock), (110, .open),
        ])
        #expect(readings.count == 3)
        let boots = readings.map(\.bootTime)
        #expect(boots[0] == boots[1])
        #expect(boots[2] == BootTime(sinceStart: .seconds(30)))
        // Rebooted at 30 s to the lock screen, unlocked at 100 s, read at 110 s.
        #expect(
            readings[2].uptime == VirtualDuration.seconds(110 - 30)
                - VirtualDuration.seconds(100 - 30))
    }

    @Test(
        "R-B12: while the screen is locked the device sleeps: the uptime pauses, the boot time does not move"
    )
    func uptimePausesWhileLocked() {
        let readings = readFacts(
            uptimeAtStart: .hours(1),
            actions: [(0, .open), (10, .lock), (310, .unlock), (320, .forceQuit), (330, .open)])
        #expect(readings.count == 2)
        #expect(readings[0].bootTime == readings[1].bootTime)
        let asleep = VirtualDuration.seconds(310 - 10)
        #expect(readings[1].uptime == .hours(1) + .seconds(330) - asleep)
    }

    @Test("Low Power Mode reads as the user last set it, in a running process and at a launch")
    func lowPowerMode() {
        let readings = readFacts(actions: [
            (0, .open), (5, .setLowPowerMode(true)), (10, .leave), (20, .forceQuit),
            (25, .setLowPowerMode(false)), (30, .setLowPowerMode(true)), (40, .open),
        ])
        #expect(readings.map(\.lowPowerMode) == [false, true, true])
    }

    @Test("A launch reads the accuracy authorization the user set while the app was not running")
    func accuracyAtLaunch() {
        let readings = readFacts(actions: [
            (0, .open), (10, .forceQuit), (20, .setAccuracy(.reduced)),
            (30, .setAuthorization(.always)), (40, .open),
        ])
        #expect(readings.map(\.accuracy) == [.full, .reduced])
        #expect(readings.map(\.authorization) == [.whenInUse, .always])
    }

    @Test("Low Power Mode is a user action in the trace, sent to the app process")
    func lowPowerModeInTrace() {
        let trace = MemoryTrace<WorldMessage>()
        var world = World(WorldConfiguration(route: parked), trace: trace) {
            FactsEngine(FactsEngine.Readings())
        }
        world.schedule(.setLowPowerMode(true), at: .start + .seconds(1))
        world.run(until: .start + .seconds(2))
        #expect(
            trace.records.map(\.message.description).contains { $0.contains("user low-power on") })
    }
}
