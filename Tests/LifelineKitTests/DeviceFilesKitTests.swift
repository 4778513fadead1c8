// The app's files on the simulated device through Foundation's own calls: paths into the
// container, the same in every process; every common call working there and nowhere else;
// data protection (R-S4, R-S5); a call outside the container refused and reported.
import CVirtualClock
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.FileManager
import func LifelineKit.NSHomeDirectory
import func LifelineKit.NSTemporaryDirectory

/// An app delegate that keeps significant-change monitoring on (so a reboot relaunches it
/// before the unlock, R-B7) and runs the test's code at each launch, at the first unlock's
/// callback and when it becomes active.
final class FilesApp: UIResponder, UIApplicationDelegate,
    @preconcurrency CLLocationManagerDelegate
{
    let journal: Journal
    let launched: @Sendable (Journal) -> Void
    let unlocked: @Sendable (Journal) -> Void
    /// Run at every location, when given: the app then updates its location in the background.
    let located: (@Sendable (Journal) -> Void)?
    let manager = CLLocationManager()

    init(
        journal: Journal, launched: @escaping @Sendable (Journal) -> Void,
        unlocked: @escaping @Sendable (Journal) -> Void, located: (@Sendable (Journal) -> Void)?
    ) {
        self.journal = journal
        self.launched = launched
        self.unlocked = unlocked
        self.located = located
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        located?(journal)
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.launches += 1
        manager.startMonitoringSignificantLocationChanges()
        if located != nil {
            manager.delegate = self
            manager.allowsBackgroundLocationUpdates = true
            manager.pausesLocationUpdatesAutomatically = false
            manager.startUpdatingLocation()
        }
        launched(journal)
        return true
    }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        unlocked(journal)
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        if journal.launches > 1 { unlocked(journal) }
    }
}

/// Runs `FilesApp` (Always authorization, a parked device) with `actions` at their seconds.
func runFilesApp(
    until end: Double, actions: [(Double, UserAction)],
    launched: @escaping @Sendable (Journal) -> Void,
    unlocked: @escaping @Sendable (Journal) -> Void = { _ in },
    located: (@Sendable (Journal) -> Void)? = nil
) -> (World, Journal) {
    let journal = Journal()
    var world = World(
        WorldConfiguration(
            policy: .measured,
            capabilities: AppCapabilities(locationBackgroundMode: true, sceneBased: false),
            authorization: .always, route: drive(20, parkedFor: .hours(1)))
    ) {
        ApplicationEngine(
            delegate: { _ in
                FilesApp(
                    journal: journal, launched: launched, unlocked: unlocked, located: located)
            },
            setTracking: { _, _ in })
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    if Foundation.ProcessInfo.processInfo.environment["LIFELINE_DEBUG_FILES"] != nil {
        print(world.log.map(\.description).joined(separator: "\n"))
    }
    return (world, journal)
}

/// What reading `url` gives: its text, or the error's code.
func readOutcome(_ url: URL) -> String {
    do {
        return "read \(String(decoding: try Data(contentsOf: url), as: UTF8.self))"
    } catch let error as NSError {
        return "error \(error.code)"
    }
}

@Suite("The app's files on the simulated device")
struct DeviceFilesKitTests {
    @Test("the app's paths are the container's, the same device paths in every process")
    func pathsAreTheContainers() {
        let (_, journal) = runFilesApp(
            until: 60, actions: [(0, .open), (20, .forceQuit), (30, .open)]
        ) { journal in
            let manager = FileManager.default
            journal.note(NSHomeDirectory())
            journal.note(NSTemporaryDirectory())
            journal.note(manager.temporaryDirectory.path)
            for directory in [
                FileManager.SearchPathDirectory.documentDirectory, .applicationSupportDirectory,
                .cachesDirectory,
            ] {
                journal.note(manager.urls(for: directory, in: .userDomainMask)[0].path)
            }
            journal.note(
                manager.containerURL(forSecurityApplicationGroupIdentifier: "group.example")?.path
                    ?? "none")
        }
        let home = DeviceFiles.containerPath
        #expect(home.hasPrefix("/var/mobile/Containers/Data/Application/"))
        let expected = [
            home, home + "/tmp/", home + "/tmp", home + "/Documents",
            home + "/Library/Application Support", home + "/Library/Caches",
        ]
        #expect(Array(journal.notes.prefix(6)) == expected)
        #expect(journal.notes[6].hasPrefix("/var/mobile/Containers/Shared/AppGroup/"))
        #expect(journal.notes.count == 14)
        #expect(Array(journal.notes.prefix(7)) == Array(journal.notes.suffix(7)), "both processes")
    }

    @Test("Foundation's file calls work in the container, and what is written outlives the process")
    func foundationCallsWork() throws {
        let (world, journal) = runFilesApp(
            until: 60, actions: [(0, .open), (20, .forceQuit), (30, .open)]
        ) { journal in
            let manager = FileManager.default
            let support = manager.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            let folder = support.appendingPathComponent("Notes", isDirectory: true)
            let file = folder.appendingPathComponent("b.txt")
            if journal.launches == 2 {
                journal.note("second " + readOutcome(file))
                journal.note(
                    "listing \((try? manager.contentsOfDirectory(atPath: folder.path)) ?? [])")
                return
            }
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("one".utf8).write(to: file, options: .atomic)
                try "zwei".write(
                    to: folder.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
                journal.note(
                    try String(contentsOf: folder.appendingPathComponent("a.txt"), encoding: .utf8))
                let handle = try FileHandle(forWritingTo: file)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(" two".utf8))
                try handle.synchronize()
                try handle.close()
                journal.note(readOutcome(file))
                try manager.copyItem(at: file, to: folder.appendingPathComponent("c.txt"))
                try manager.moveItem(
                    at: folder.appendingPathComponent("c.txt"),
                    to: folder.appendingPathComponent("d.txt"))
                _ = manager.createFile(
                    atPath: folder.appendingPathComponent("e.txt").path, contents: Data("e".utf8))
                try manager.removeItem(at: folder.appendingPathComponent("e.txt"))
                journal.note("exists \(manager.fileExists(atPath: file.path))")
                journal.note("listing \(try manager.contentsOfDirectory(atPath: folder.path))")
                let attributes = try manager.attributesOfItem(atPath: file.path)
                journal.note(
                    "protection \((attributes[.protectionKey] as? FileProtectionType)?.rawValue ?? "none")"
                )
                journal.note("size \((attributes[.size] as? NSNumber)?.intValue ?? -1)")
            } catch {
                journal.note("failed \(error)")
            }
        }
        #expect(
            journal.notes == [
                "zwei", "read one two", "exists true", "listing [\"a.txt\", \"b.txt\", \"d.txt\"]",
                "protection NSFileProtectionCompleteUntilFirstUserAuthentication", "size 7",
                "second read one two", "listing [\"a.txt\", \"b.txt\", \"d.txt\"]",
            ])
        // The files are rows of the app's store, as the invariants read them.
        let keys = world.storedRows.map(\.key)
        let notes = DeviceFiles.rowKey(
            ofPath: DeviceFiles.containerPath + "/Library/Application Support/Notes/")
        #expect(keys.sorted() == ["a.txt", "b.txt", "d.txt"].map { notes + $0 })
        #expect(world.storedRows.first { $0.key == notes + "b.txt" }?.text == "one two")
    }

    @Test(
        "R-S4: after a reboot a completeUntilFirstUserAuthentication file is unreadable until the first unlock, with iOS's error"
    )
    func unreadableUntilFirstUnlock() {
        let relaunch = 30 + IOSPolicy.measured.rebootRelaunchDelay.seconds
        let (_, journal) = runFilesApp(
            until: relaunch + 60,
            actions: [
                (0, .open), (2, .leave), (30, .reboot), (relaunch + 20, .unlock),
                (relaunch + 30, .open),
            ]
        ) { journal in
            let file = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("saved.txt")
            if journal.launches == 1 { try? Data("kept".utf8).write(to: file, options: .atomic) }
            journal.note("launch \(journal.launches): \(readOutcome(file))")
            let written = (try? Data("new".utf8).write(to: file)) != nil
            journal.note("launch \(journal.launches): written \(written)")
        } unlocked: { journal in
            let file = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
                .appendingPathComponent("saved.txt")
            let outcome = "unlocked: \(readOutcome(file))"
            if journal.notes.last != outcome { journal.note(outcome) }
        }
        // NSFileReadNoPermissionError (257): the open failed with EPERM, as iOS fails a
        // protected file's (DeviceFilesTests checks the errno); the write failed too.
        #expect(
            journal.notes == [
                "launch 1: read kept", "launch 1: written true",
                "launch 2: error 257", "launch 2: written false",
                "unlocked: read new",
            ])
    }

    @Test("R-S5: a complete file is unreadable while the device is locked, readable once unlocked")
    func completeWhileLocked() {
        let file = URL(fileURLWithPath: DeviceFiles.containerPath + "/Documents/secret.txt")
        let (_, journal) = runFilesApp(
            until: 60, actions: [(0, .open), (2, .leave), (10, .lock), (40, .unlock)]
        ) { journal in
            let manager = FileManager.default
            _ = manager.createFile(
                atPath: file.path, contents: Data("s".utf8),
                attributes: [.protectionKey: FileProtectionType.complete])
            let protection = try? manager.attributesOfItem(atPath: file.path)[.protectionKey]
            journal.note("class \((protection as? FileProtectionType)?.rawValue ?? "?")")
        } located: { journal in
            let outcome = readOutcome(file)
            if journal.notes.last != outcome { journal.note(outcome) }
        }
        #expect(
            journal.notes == [
                "class NSFileProtectionComplete", "read s", "error 257", "read s",
            ])
    }

    @Test("a file call outside the container is refused with EACCES and reported as an escape")
    func escapeRefused() {
        lifeline_vf_set_stop_on_escape(0)
        defer { lifeline_vf_set_stop_on_escape(1) }
        let before = lifeline_vf_escape_count()
        let real = Foundation.NSTemporaryDirectory() + "lifeline-escape-probe.txt"
        let (_, journal) = runFilesApp(until: 10, actions: [(0, .open)]) { journal in
            do {
                try Data("x".utf8).write(to: URL(fileURLWithPath: real))
                journal.note("written")
            } catch let error as NSError {
                journal.note("refused \(error.code)")
            }
            // Foundation's own reads of the system's files still work.
            journal.note(TimeZone(identifier: "Europe/London")?.identifier ?? "no zone")
        }
        // NSFileWriteNoPermissionError, from EACCES.
        #expect(journal.notes == ["refused 513", "Europe/London"])
        #expect(lifeline_vf_escape_count() > before)
        #expect(!Foundation.FileManager.default.fileExists(atPath: real))
    }
}
