// LifelineKit's `ProcessInfo` through the simulation: Low Power Mode as the scenario sets it,
// the virtual uptime, the modelled iOS version and the process's number.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.ProcessInfo

/// An app delegate that notes what `ProcessInfo.processInfo` says at each lifecycle call.
private final class ProcessInfoReader: UIResponder, UIApplicationDelegate {
    let journal: Journal

    init(journal: Journal) { self.journal = journal }

    private func note(_ moment: String) {
        let info = ProcessInfo.processInfo
        journal.note(
            "\(moment) process \(info.processIdentifier) low power \(info.isLowPowerModeEnabled)")
    }
    func applicationDidBecomeActive(_ application: UIApplication) { note("active") }
    func applicationDidEnterBackground(_ application: UIApplication) { note("background") }
}

/// Runs `delegate` on a parked device under `policy` with `actions` at their seconds.
private func runReader(
    policy: IOSPolicy = .iOS18, until end: Double, actions: [(Double, UserAction)],
    delegate: @escaping @MainActor @Sendable () -> some UIApplicationDelegate & SendableMetatype
) -> World {
    var world = World(
        WorldConfiguration(
            policy: policy, capabilities: AppCapabilities(sceneBased: false),
            authorization: .whenInUse, route: drive(20, parkedFor: .hours(1)))
    ) {
        ApplicationEngine(delegate: { _ in delegate() }, setTracking: { _, _ in })
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return world
}

@Suite("LifelineKit: ProcessInfo")
struct ProcessInfoTests {
    @Test("isLowPowerModeEnabled follows the scenario's low-power on and off, in every process")
    func lowPowerModeBothWays() {
        let journal = Journal()
        _ = runReader(
            until: 60,
            actions: [
                (0, .open), (5, .setLowPowerMode(true)), (10, .leave), (20, .open),
                (25, .forceQuit), (30, .open), (35, .setLowPowerMode(false)), (40, .leave),
            ]
        ) { ProcessInfoReader(journal: journal) }
        #expect(
            journal.notes == [
                "active process 1 low power false", "background process 1 low power true",
                "active process 1 low power true", "active process 2 low power true",
                "background process 2 low power false",
            ])
    }

    @Test("systemUptime is the virtual uptime; operatingSystemVersion is the policy's iOS")
    func uptimeAndVersion() {
        final class Reader: UIResponder, UIApplicationDelegate {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
            func applicationDidEnterBackground(_ application: UIApplication) {
                let info = ProcessInfo.processInfo
                journal.note("uptime \(info.systemUptime)")
                journal.note("iOS \(info.operatingSystemVersion.majorVersion)")
                journal.note(
                    "at least 17: \(info.isOperatingSystemAtLeast(.init(majorVersion: 17, minorVersion: 0, patchVersion: 0)))"
                )
            }
        }
        let journal = Journal()
        var policy = IOSPolicy.iOS18
        policy.systemVersion = 16
        let world = runReader(policy: policy, until: 30, actions: [(0, .open), (10, .leave)]) {
            Reader(journal: journal)
        }
        let entered = world.log.first {
            if case .lifecycle(.background) = $0.kind { true } else { false }
        }!.instant
        let uptime = VirtualDuration.hours(26) + (entered - .start)  // the default uptimeAtStart
        #expect(
            journal.notes == ["uptime \(uptime.seconds)", "iOS 16", "at least 17: false"])
    }
}
