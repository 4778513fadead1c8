// `UIApplication.backgroundTimeRemaining` through the simulation: the world's own R-F1 clock,
// told to the app process by the operating system, read in virtual seconds.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// An app delegate that begins a background task when it enters the background and notes
/// `backgroundTimeRemaining` there, at a silent push, in the task's expiration handler and when
/// it is active again.
private final class TimeReadingApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    let updatesLocation: Bool
    var task = UIBackgroundTaskIdentifier.invalid
    var manager: CLLocationManager?

    init(journal: Journal, updatesLocation: Bool) {
        self.journal = journal
        self.updatesLocation = updatesLocation
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        guard updatesLocation else { return true }
        let manager = CLLocationManager()
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.startUpdatingLocation()
        self.manager = manager
        return true
    }

    private func note(_ moment: String, _ application: UIApplication) {
        journal.note("\(moment) \(application.backgroundTimeRemaining)")
    }
    func applicationDidBecomeActive(_ application: UIApplication) {
        note("active", application)
    }
    func applicationDidEnterBackground(_ application: UIApplication) {
        note("entered", application)
        task = application.beginBackgroundTask(withName: "upload") {
            self.note("expiring", application)
            application.endBackgroundTask(self.task)
            self.task = .invalid
        }
        note("began", application)
    }
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        note("push", application)
        completionHandler(.noData)
    }
}

/// Runs `TimeReadingApp` parked for an hour: open at 0 s, leave at 5 s, a silent push at 20 s,
/// open again at 90 s.
private func runTimeReadingApp(
    policy: IOSPolicy, authorization: Authorization, updatesLocation: Bool
) -> (World, Journal) {
    let journal = Journal()
    var world = World(
        WorldConfiguration(
            policy: policy, capabilities: AppCapabilities(sceneBased: false),
            authorization: authorization, route: drive(20, parkedFor: .hours(1)))
    ) {
        ApplicationEngine(
            delegate: { _ in TimeReadingApp(journal: journal, updatesLocation: updatesLocation) },
            setTracking: { _, _ in })
    }
    for (seconds, action) in [(0.0, UserAction.open), (5, .leave), (20, .silentPush), (90, .open)] {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + .seconds(100))
    return (world, journal)
}

@Suite("LifelineKit: backgroundTimeRemaining")
struct BackgroundTimeRemainingTests {
    @Test(
        "R-F1: a task begun in the background reads the policy's budget less the virtual time since; the foreground reads greatestFiniteMagnitude"
    )
    func countsDownInVirtualTime() {
        var policy = IOSPolicy.iOS18
        policy.backgroundTaskBudget = .seconds(40)  // not UIKit's usual figure: read, not assumed
        let (world, journal) = runTimeReadingApp(
            policy: policy, authorization: .whenInUse, updatesLocation: false)
        let entered = world.log.first {
            if case .lifecycle(.background) = $0.kind { true } else { false }
        }!.instant
        let budget = policy.backgroundTaskBudget.seconds
        let atPush = budget - (.start + .seconds(20) - entered).seconds
        let unlimited = TimeInterval.greatestFiniteMagnitude
        #expect(atPush > 0 && atPush < budget, "the push comes while the task runs")
        #expect(
            journal.notes == [
                "active \(unlimited)",
                // Before the task: what a task begun now gets; then the clock has started.
                "entered \(budget)", "began \(budget)",
                "push \(atPush)",
                "expiring 0.0",
                "active \(unlimited)",
            ])
    }

    @Test("R-F1: an app kept running in the background by location has no background-time limit")
    func unlimitedWhileLocationKeepsTheAppRunning() {
        let (_, journal) = runTimeReadingApp(
            policy: .iOS18, authorization: .always, updatesLocation: true)
        let unlimited = TimeInterval.greatestFiniteMagnitude
        #expect(
            journal.notes == [
                "active \(unlimited)", "entered \(unlimited)", "began \(unlimited)",
                "push \(unlimited)", "active \(unlimited)",
            ])
    }
}
