// UserDefaults and UIApplication's notifications through LifelineKit: what the app stores in
// user defaults obeys the saved record's rules, and each process has its own notification
// center, with Foundation's names and shapes.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.NotificationCenter
import class LifelineKit.UserDefaults

/// An app delegate whose launch runs `launched` and that observes UIApplication's lifecycle
/// notifications on the main queue, as apps do.
final class DefaultsApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    let launched: (Journal) -> Void
    private var observers: [any NSObjectProtocol] = []

    init(journal: Journal, launched: @escaping (Journal) -> Void) {
        self.journal = journal
        self.launched = launched
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.launches += 1
        let process = journal.launches
        let journal = journal
        let names: [(NSNotification.Name, String)] = [
            (UIApplication.didBecomeActiveNotification, "did become active"),
            (UIApplication.willResignActiveNotification, "will resign active"),
            (UIApplication.didEnterBackgroundNotification, "did enter background"),
            (UIApplication.willEnterForegroundNotification, "will enter foreground"),
            (UIApplication.willTerminateNotification, "will terminate"),
        ]
        for (name, text) in names {
            observers.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) {
                    notification in
                    // Delivered on the main queue (`queue: .main`), so on the main actor.
                    let sender = (notification.object as AnyObject?).map(ObjectIdentifier.init)
                    let fromApplication = MainActor.assumeIsolated {
                        sender == ObjectIdentifier(UIApplication.shared)
                    }
                    journal.note("\(process): \(text)\(fromApplication ? "" : " (other sender)")")
                })
        }
        launched(journal)
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        journal.note("\(journal.launches): delegate did enter background")
    }
}

/// Runs `DefaultsApp` on a parked device with `actions` at their seconds.
func runDefaultsApp(
    until end: Double, actions: [(Double, UserAction)],
    launched: @escaping @Sendable (Journal) -> Void = { _ in }
) -> (World, Journal) {
    let journal = Journal()
    let world = runParkedApp(until: end, actions: actions) {
        DefaultsApp(journal: journal, launched: launched)
    }
    return (world, journal)
}

@Suite("UserDefaults on the simulated device")
struct UserDefaultsKitTests {
    @Test("a value set at launch is on the disk after the write delay and read by the next process")
    func valueOutlivesTheProcess() {
        let (world, journal) = runDefaultsApp(
            until: 120, actions: [(0, .open), (30, .forceQuit), (60, .open)]
        ) { journal in
            let defaults = UserDefaults.standard
            journal.note("read \(defaults.bool(forKey: "enabled"))")
            defaults.set(true, forKey: "enabled")
            journal.note("read back \(defaults.bool(forKey: "enabled"))")
        }
        #expect(world.savedRecordOnDisk["enabled"] == .bool(true))
        #expect(
            journal.notes.filter { $0.hasPrefix("read") } == [
                "read false", "read back true", "read true", "read back true",
            ])
    }

    @Test("a value set just before a crash is lost with the process (R-A1, R-S3)")
    func valueLostWithTheProcess() {
        // A crash is an abnormal end; a swipe ends the app normally after
        // applicationWillTerminate, which writes the change (R-S3).
        let delay = IOSPolicy.iOS18.savedRecordWriteDelay
        let quitAt = delay.seconds / 2
        let (world, journal) = runDefaultsApp(
            until: 60, actions: [(0, .open), (quitAt, .crash), (30, .open)]
        ) { journal in
            journal.note("read \(UserDefaults.standard.integer(forKey: "count"))")
            UserDefaults.standard.set(
                UserDefaults.standard.integer(forKey: "count") + 1, forKey: "count")
        }
        #expect(delay > .zero)
        // The first process's change never reached the disk; the second process's did.
        #expect(journal.notes.filter { $0.hasPrefix("read") } == ["read 0", "read 0"])
        #expect(world.savedRecordOnDisk["count"] == .int(1))
    }

    @Test("a suite is its own domain, and NSGlobalDomain is refused")
    func suitesAreSeparate() {
        let (world, journal) = runDefaultsApp(until: 60, actions: [(0, .open)]) { journal in
            guard let group = UserDefaults(suiteName: "group.example.tracker") else {
                return journal.note("no suite")
            }
            group.set("abc", forKey: "token")
            journal.note(
                "standard \(UserDefaults.standard.string(forKey: "token") ?? "nil"), "
                    + "suite \(group.string(forKey: "token") ?? "nil"), "
                    + "global \(UserDefaults(suiteName: "NSGlobalDomain") == nil ? "nil" : "made")")
        }
        #expect(journal.notes.contains("standard nil, suite abc, global nil"))
        #expect(world.savedRecordOnDisk["token"] == nil)
        #expect(world.savedRecordOnDisk.values.contains(.string("abc")))
    }

    @Test("registered defaults are read when the domain holds nothing, and never written")
    func registeredDefaults() {
        let (world, journal) = runDefaultsApp(until: 60, actions: [(0, .open)]) { journal in
            let defaults = UserDefaults.standard
            defaults.register(defaults: ["interval": 30, "enabled": true])
            let before =
                "\(defaults.integer(forKey: "interval")) \(defaults.bool(forKey: "enabled"))"
            defaults.set(60, forKey: "interval")
            let set = defaults.integer(forKey: "interval")
            defaults.removeObject(forKey: "interval")
            let removed = defaults.integer(forKey: "interval")
            journal.note("\(before) / \(set) / \(removed)")
        }
        #expect(journal.notes.contains("30 true / 60 / 30"))
        #expect(world.savedRecordOnDisk["interval"] == nil)
        #expect(world.savedRecordOnDisk["enabled"] == nil)
    }

    @Test("the getters convert between the stored types as Foundation does")
    func gettersConvert() {
        let (_, journal) = runDefaultsApp(until: 10, actions: [(0, .open)]) { journal in
            let defaults = UserDefaults.standard
            defaults.set("YES", forKey: "flag")
            defaults.set(2.9, forKey: "ratio")
            defaults.set(Float(1.5), forKey: "float")
            defaults.set(7, forKey: "count")
            journal.note(
                "\(defaults.bool(forKey: "flag")) \(defaults.integer(forKey: "ratio")) "
                    + "\(defaults.double(forKey: "float")) \(defaults.string(forKey: "count") ?? "nil") "
                    + "\(defaults.bool(forKey: "missing")) \(defaults.object(forKey: "missing") == nil)"
            )
        }
        #expect(journal.notes.contains("true 2 1.5 7 false true"))
    }
}

@Suite("UIApplication's notifications through NotificationCenter")
struct ApplicationNotificationTests {
    @Test("observers on the main queue hear the lifecycle, after the delegate, from the app")
    func lifecycleNotifications() {
        let (_, journal) = runDefaultsApp(
            until: 60, actions: [(0, .open), (10, .leave), (20, .open)])
        #expect(
            journal.notes == [
                "1: did become active", "1: will resign active",
                "1: delegate did enter background", "1: did enter background",
                "1: will enter foreground", "1: did become active",
            ])
    }

    @Test("each process has its own center: a relaunched process hears only its observers")
    func observersDieWithTheProcess() {
        let (_, journal) = runDefaultsApp(
            until: 60, actions: [(0, .open), (10, .forceQuit), (20, .open), (30, .leave)])
        #expect(journal.launches == 2)
        // From the second process's first notification on, only its own observers run.
        let second = journal.notes.firstIndex(of: "2: did become active")
        #expect(second != nil)
        #expect(journal.notes[(second ?? 0)...].allSatisfy { $0.hasPrefix("2: ") })
        #expect(
            journal.notes.suffix(3) == [
                "2: will resign active", "2: delegate did enter background",
                "2: did enter background",
            ])
    }
}

@Suite("UserDefaults and NotificationCenter are NSObjects, as Apple's are")
struct FoundationClassHierarchyTests {
    /// Takes what Apple's API takes where these classes are passed as objects (an `object:` of
    /// a notification, a KVO target): compiles only while both are `NSObject` subclasses.
    private func identity(_ objects: [NSObject]) -> [ObjectIdentifier] {
        objects.map(ObjectIdentifier.init)
    }

    @Test("both pass where an NSObject is expected and keep their behaviour")
    func subclassesOfNSObject() {
        let defaults = UserDefaults(suiteName: "com.example.group")!
        let center = NotificationCenter()
        #expect(identity([defaults, center]).count == 2)
        #expect(defaults.isEqual(defaults) && !defaults.isEqual(center))
        let journal = Journal()
        center.addObserver(forName: .init("ping"), object: defaults, queue: nil) { note in
            journal.note(note.name.rawValue)
        }
        center.post(name: .init("ping"), object: defaults)
        center.post(name: .init("ping"), object: center)
        #expect(journal.notes == ["ping"], "observers still match the sending object by identity")
    }
}
