// The saved record (`SavedRecord`, like `UserDefaults`): read at once, written to disk
// `savedRecordWriteDelay` after a change; a kill before the write loses the change (R-A1,
// R-F3), and reads come back empty before the first unlock (R-D9).
import Simulation
import Testing

@testable import World

/// What the engines of one run read from their saved record.
final class RecordReadings: @unchecked Sendable {
    /// `bool(forKey: "enabled")` at each launch after the first.
    var enabledAtRelaunch: [Bool] = []
    /// `bool(forKey: "enabled")` in the unlock's callback.
    var enabledAfterUnlock: Bool?
    /// The same, read at once after the first process set it.
    var readBackAtOnce: Bool?
    var launches = 0
}

/// Its first process sets "enabled" at launch (and reads it back); every later process reads it
/// at launch and in the unlock's callback. A tracking engine that resumes only when "enabled"
/// is set would resume, or not, on that value.
final class FlagEngine: AppEngine {
    private let readings: RecordReadings
    private let first: Bool

    init(_ readings: RecordReadings) {
        self.readings = readings
        readings.launches += 1
        first = readings.launches == 1
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        if first {
            // So that a reboot relaunches the app in the background before the unlock (R-B7).
            services.startMonitoringSignificantLocationChanges()
            services.userDefaults.set(true, forKey: "enabled")
            readings.readBackAtOnce = services.userDefaults.bool(forKey: "enabled")
        } else {
            readings.enabledAtRelaunch.append(services.userDefaults.bool(forKey: "enabled"))
        }
    }

    func protectedDataDidBecomeAvailable(services: LocationServices) {
        readings.enabledAfterUnlock = services.userDefaults.bool(forKey: "enabled")
    }
}

func recordLosses(of world: World) -> [(keys: [String], reason: DropReason)] {
    world.log.compactMap { entry in
        if case .savedRecordChangeLost(let keys, let reason) = entry.kind {
            (keys, reason)
        } else {
            nil
        }
    }
}

/// Sets "enabled" at launch (0 s), force-quits at `killSeconds`, opens again 10 s later.
func killAfterSettingFlag(
    at killSeconds: Double, by ending: UserAction = .crash
) -> (World, RecordReadings) {
    let readings = RecordReadings()
    let world = runWorld(
        route: parked, until: killSeconds + 20,
        actions: [(0, .open), (killSeconds, ending), (killSeconds + 10, .open)]
    ) { FlagEngine(readings) }
    return (world, readings)
}

@Suite("Saved record")
struct SavedRecordTests {
    /// The default `savedRecordWriteDelay`, in seconds.
    static let delay = IOSPolicy.measured.savedRecordWriteDelay.seconds

    @Test(
        "R-A1: a change survives a kill after savedRecordWriteDelay, and one exactly at it",
        arguments: [delay, delay + 0.001, delay + 30])
    func changeSurvivesKillAfterWrite(killSeconds: Double) {
        let (world, readings) = killAfterSettingFlag(at: killSeconds)
        #expect(readings.readBackAtOnce == true)
        #expect(readings.enabledAtRelaunch == [true])
        #expect(world.savedRecordOnDisk == ["enabled": .bool(true)])
        #expect(recordLosses(of: world).isEmpty)
    }

    @Test(
        "R-A1: an engine relying on a flag it has just written loses it to a kill before the write",
        arguments: [0.001, delay / 2, delay - 0.001])
    func changeLostByKillBeforeWrite(killSeconds: Double) throws {
        let (world, readings) = killAfterSettingFlag(at: killSeconds)
        #expect(readings.readBackAtOnce == true, "the process itself saw the flag at once")
        #expect(readings.enabledAtRelaunch == [false], "the relaunched engine does not see it")
        #expect(world.savedRecordOnDisk.isEmpty)
        let losses = recordLosses(of: world)
        #expect(losses.count == 1)
        let loss = try #require(losses.first)
        #expect(loss.keys == ["enabled"] && loss.reason == .processEnded(.crash))
        #expect(loss.reason.rule == "R-A1")
    }

    @Test(
        "R-S3: a swipe ends the app normally after applicationWillTerminate: a change made before it is written, not lost",
        arguments: [0.001, delay / 2])
    func changeWrittenAtNormalEnd(killSeconds: Double) {
        let (world, readings) = killAfterSettingFlag(at: killSeconds, by: .forceQuit)
        #expect(readings.enabledAtRelaunch == [true])
        #expect(world.savedRecordOnDisk == ["enabled": .bool(true)])
        #expect(recordLosses(of: world).isEmpty)
    }

    @Test("R-F3: a suspended app purged before the write loses the change, naming R-F3")
    func purgeBeforeWriteNamesRF3() {
        var policy = IOSPolicy.measured
        policy.savedRecordWriteDelay = .seconds(60)
        let world = runWorld(
            policy: policy, route: parked, until: 40,
            actions: [(0, .open), (2, .leave), (20, .memoryPressure)]
        ) { FlagEngine(RecordReadings()) }
        #expect(recordLosses(of: world).map(\.reason.rule) == ["R-F3"])
    }

    @Test("R-A1: a lost change is a 'lost' message naming its rule in the trace")
    func lostChangeIsInTheTrace() {
        let trace = MemoryTrace<WorldMessage>()
        var world = World(WorldConfiguration(route: parked), trace: trace) {
            FlagEngine(RecordReadings())
        }
        world.schedule(.open, at: .start)
        world.schedule(.crash, at: .start + .milliseconds(500))
        world.run(until: .start + .seconds(5))
        let lost = trace.records.map(\.message.description).filter { $0.hasPrefix("lost ") }
        #expect(lost == ["lost saved record change [enabled]: process ended (crash), R-A1"])
    }

    @Test(
        "R-D9: before the first unlock after a boot, saved-record reads come back empty; after it, they see the disk"
    )
    func readsEmptyBeforeFirstUnlock() {
        let readings = RecordReadings()
        // Opening an app unlocks the device: the launch before the unlock is the reboot's
        // background relaunch (R-B7).
        let relaunch = 10 + IOSPolicy.measured.rebootRelaunchDelay.seconds
        _ = runWorld(
            authorization: .always, route: parked, until: 130,
            actions: [(0, .open), (10, .reboot), (relaunch + 5, .unlock)]
        ) { FlagEngine(readings) }
        #expect(readings.enabledAtRelaunch == [false], "launched before the unlock")
        #expect(readings.enabledAfterUnlock == true)
    }

    @Test("R-D9: only an unlocked device opens an app: an open after a reboot is the first unlock")
    func openUnlocks() {
        let readings = RecordReadings()
        let world = runWorld(
            route: parked, until: 60, actions: [(0, .open), (10, .reboot), (20, .open)]
        ) { FlagEngine(readings) }
        #expect(readings.enabledAtRelaunch == [true], "the saved record is readable at the open")
        let launches = world.log.compactMap { entry -> Bool? in
            if case .launch(let launch) = entry.kind { launch.protectedDataAvailable } else { nil }
        }
        #expect(launches == [true, true])
    }

    @Test("R-D9: a write due before the first unlock fails, and its change is lost")
    func writeBeforeUnlockIsLost() {
        let launches = Counter()
        let relaunch = 10 + IOSPolicy.measured.rebootRelaunchDelay.seconds
        let world = runWorld(
            authorization: .always, route: parked, until: 130,
            actions: [(0, .open), (10, .reboot), (relaunch + 5, .unlock)]
        ) {
            launches.value += 1
            let first = launches.value == 1
            let second = launches.value == 2
            return ScriptedEngine { _, services in
                if first { services.startMonitoringSignificantLocationChanges() }
                if second { services.userDefaults.set("locked", forKey: "mode") }
            }
        }
        #expect(recordLosses(of: world).map(\.keys) == [["mode"]])
        #expect(recordLosses(of: world).map(\.reason) == [.protectedDataUnavailable])
        #expect(world.savedRecordOnDisk["mode"] == nil)
    }

    @Test("changes made before the write go with it; each value type reads back by its getter")
    func valuesAndOneWrite() {
        let world = runWorld(route: parked, until: 10, actions: [(0, .open)]) {
            ScriptedEngine { _, services in
                let record = services.userDefaults
                record.set(3, forKey: "count")
                record.set(2.5, forKey: "ratio")
                record.set("on", forKey: "mode")
                record.set(true, forKey: "gone")
                record.removeObject(forKey: "gone")
                #expect(record.integer(forKey: "count") == 3)
                #expect(record.double(forKey: "ratio") == 2.5)
                #expect(record.string(forKey: "mode") == "on")
                #expect(record.value(forKey: "gone") == nil)
                #expect(!record.bool(forKey: "count"), "another type reads as the default")
            }
        }
        #expect(
            world.savedRecordOnDisk == [
                "count": .int(3), "ratio": .double(2.5), "mode": .string("on"),
            ])
        let writes = world.seconds {
            if case .savedRecordWritten = $0.kind { true } else { false }
        }
        #expect(writes == [Self.delay])
    }
}
