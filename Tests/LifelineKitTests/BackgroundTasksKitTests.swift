// BGTaskScheduler's app refresh and the silent push through LifelineKit (R-H1–R-H4): the launch
// handler and the app delegate get the wakes, with Apple's names and shapes.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// An app delegate that registers an app refresh handler at every launch, submits a request at
/// its first foreground launch, and notes its refresh tasks and silent pushes.
final class WakeApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    /// What the launch handler does with its task.
    let handle: (BGTask, Journal) -> Void
    /// Whether the push handler calls its completion handler.
    let completesPush: Bool

    init(journal: Journal, completesPush: Bool, handle: @escaping (BGTask, Journal) -> Void) {
        self.journal = journal
        self.completesPush = completesPush
        self.handle = handle
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let journal = journal
        let handle = handle
        let registered = BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.refresh", using: nil
        ) { task in
            journal.note("refresh \(task.identifier) \(task is BGAppRefreshTask)")
            handle(task, journal)
        }
        journal.note("registered \(registered) \(application.applicationState)")
        if application.applicationState != .background {
            let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
            request.earliestBeginDate = VirtualClock.startDate.addingTimeInterval(60)
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                journal.note("submit failed")
            }
        }
        return true
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        journal.note("push \(application.applicationState) \(userInfo["aps"] != nil)")
        if completesPush { completionHandler(.newData) }
    }
}

/// Runs `WakeApp` on a parked device.
func runWakeApp(
    until end: Double, actions: [(Double, UserAction)], completesPush: Bool = true,
    handle: @escaping @Sendable (BGTask, Journal) -> Void = { task, _ in
        task.setTaskCompleted(success: true)
    }
) -> (World, Journal) {
    let journal = Journal()
    let world = runParkedApp(until: end, actions: actions) {
        WakeApp(journal: journal, completesPush: completesPush, handle: handle)
    }
    return (world, journal)
}

extension World {
    /// True when the watchdog killed a process.
    var watchdogKilled: Bool {
        log.contains { if case .killed(.watchdog) = $0.kind { true } else { false } }
    }
}

@Suite("LifelineKit: BGTaskScheduler and silent pushes (R-H1–R-H4)")
struct BackgroundTasksKitTests {
    @Test(
        "R-H1: the launch handler of a relaunched process runs the submitted refresh in the background"
    )
    func refreshRelaunches() {
        let (world, journal) = runWakeApp(
            until: 120, actions: [(0, .open), (2, .leave), (20, .memoryPressure)])
        #expect(
            journal.notes == [
                "registered true inactive", "registered true background",
                "refresh com.example.refresh true",
            ])
        #expect(!world.watchdogKilled)
    }

    @Test("R-H3: the expiration handler runs; a task it does not complete gets the app killed")
    func expirationHandlerWithoutCompletion() {
        let (world, journal) = runWakeApp(until: 120, actions: [(0, .open), (2, .leave)]) {
            task, journal in
            task.expirationHandler = { journal.note("expired") }
        }
        #expect(journal.notes.suffix(2) == ["refresh com.example.refresh true", "expired"])
        #expect(world.watchdogKilled)
    }

    @Test("R-H3: completed in its expiration handler, the task ends without a kill")
    func expirationHandlerCompletes() {
        let (world, journal) = runWakeApp(until: 120, actions: [(0, .open), (2, .leave)]) {
            task, journal in
            task.expirationHandler = {
                journal.note("expired")
                task.setTaskCompleted(success: false)
            }
        }
        #expect(journal.notes.last == "expired")
        #expect(!world.watchdogKilled)
    }

    @Test("R-H3: a task with no expiration handler is marked completed when its time is up")
    func noExpirationHandler() {
        let (world, _) = runWakeApp(until: 120, actions: [(0, .open), (2, .leave)]) { _, _ in }
        #expect(!world.watchdogKilled)
    }

    @Test(
        "R-H4: a silent push reaches the app delegate in the background; unanswered, it is killed")
    func silentPush() {
        let (answered, journal) = runWakeApp(
            until: 120, actions: [(0, .open), (2, .leave), (30, .silentPush)])
        #expect(journal.notes.contains("push background true"))
        #expect(!answered.watchdogKilled)
        let (unanswered, _) = runWakeApp(
            until: 120, actions: [(0, .open), (2, .leave), (30, .silentPush)],
            completesPush: false)
        #expect(unanswered.watchdogKilled)
    }

    @Test("R-H2: after a force-quit neither the refresh nor a silent push launches the app")
    func forceQuit() {
        let (_, journal) = runWakeApp(
            until: 120, actions: [(0, .open), (20, .forceQuit), (30, .silentPush)])
        #expect(journal.notes == ["registered true inactive"])
    }
}
