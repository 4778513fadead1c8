// What the LifelineKit tests share: a drive, a journal that outlives every process, and a
// probe app written against UIKit's and Core Location's shapes whose callbacks note into it.
import Foundation
import LifelineKit
import Simulation
import World

let home = Coordinate(latitude: 51.5007, longitude: -0.1246)

/// Parked for `parkedFor`, then a drive east at `speed` m/s.
func drive(_ speed: Double, parkedFor: VirtualDuration = .zero) -> Route {
    Route(
        start: home, headingDegrees: 90,
        segments: [
            .init(.park, parkedFor), .init(.drive, .hours(2), speedMetersPerSecond: speed),
        ])
}

/// What the app's code saw, across processes (test-only memory outside the simulated ones).
final class Journal: @unchecked Sendable {
    var notes: [String] = []
    var locations: [CLLocation] = []
    /// What the app read of `CLLocationManager.location`, in order.
    var cachedLocations: [CLLocation?] = []
    var launches = 0
    func note(_ line: String) { notes.append(line) }
}

/// A `CLLocationManagerDelegate` that notes every callback.
final class NotingDelegate: NSObject, CLLocationManagerDelegate {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        journal.locations += locations
        journal.note("locations \(locations.count)")
    }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        journal.note("failed \((error as? CLError)?.code.rawValue ?? -1)")
    }
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        journal.note("authorization \(manager.authorizationStatus.rawValue)")
    }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        journal.note(
            "exit \(region.identifier) \(region is CLCircularRegion ? "circular" : "bare")")
    }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        journal.note("enter \(region.identifier)")
    }
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {
        let arrival = visit.arrivalDate.timeIntervalSince(VirtualClock.startDate)
        let departure = visit.departureDate.timeIntervalSince(VirtualClock.startDate)
        journal.note(
            visit.departureDate == .distantFuture
                ? "arrival \(Int(arrival))" : "departure \(Int(departure))")
    }
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        journal.note("paused")
    }
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {
        journal.note("resumed")
    }
    func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
        withError error: any Error
    ) {
        journal.note("monitoring failed \(region?.identifier ?? "nil")")
    }
}

/// An app delegate whose launch runs `setUp`, noting every lifecycle call and the state.
final class ProbeApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    let setUp: @MainActor (ProbeApp, UIApplication) -> Void
    var manager: CLLocationManager?
    /// More managers the set-up made, held by the app.
    var extraManagers: [CLLocationManager] = []
    /// Delegates the set-up made, held by the app (managers hold theirs weakly).
    var keptDelegates: [AnyObject] = []
    lazy var locationDelegate = NotingDelegate(journal: journal)
    var task = UIBackgroundTaskIdentifier.invalid

    init(journal: Journal, setUp: @escaping @MainActor (ProbeApp, UIApplication) -> Void) {
        self.journal = journal
        self.setUp = setUp
    }

    private func note(_ call: String, _ application: UIApplication) {
        journal.note("\(call) \(application.applicationState)")
    }

    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        note("willFinishLaunching", application)
        return true
    }
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.launches += 1
        let location = launchOptions?[.location] != nil ? " location" : ""
        note("didFinishLaunching\(location)", application)
        expectSharedCheck(UIApplication.shared === application)
        setUp(self, application)
        return true
    }
    func applicationDidBecomeActive(_ application: UIApplication) {
        note("didBecomeActive", application)
    }
    func applicationWillResignActive(_ application: UIApplication) {
        note("willResignActive", application)
    }
    func applicationDidEnterBackground(_ application: UIApplication) {
        note("didEnterBackground", application)
    }
    func applicationWillEnterForeground(_ application: UIApplication) {
        note("willEnterForeground", application)
    }
    func applicationWillTerminate(_ application: UIApplication) {
        note("willTerminate", application)
    }

    /// A manager with the noting delegate, held by the app.
    func makeManager() -> CLLocationManager {
        let manager = CLLocationManager()
        manager.delegate = locationDelegate
        self.manager = manager
        return manager
    }
}

/// Checks `condition` from main-actor code (a failed check is noted by Swift Testing's caller).
func expectSharedCheck(_ condition: Bool) {
    precondition(condition, "UIApplication.shared is the launching process's application")
}

/// Runs `ProbeApp` on a world.
func runProbe(
    policy: IOSPolicy = .iOS18, authorization: Authorization = .always,
    accuracy: AccuracyAuthorization = .full, answers: AuthorizationAnswers = AuthorizationAnswers(),
    capabilities: AppCapabilities = AppCapabilities(sceneBased: false),
    route: Route = drive(20), until end: Double, actions: [(Double, UserAction)],
    setUp: @escaping @MainActor @Sendable (ProbeApp, UIApplication) -> Void
) -> (World, Journal) {
    let journal = Journal()
    var world = World(
        WorldConfiguration(
            policy: policy, capabilities: capabilities, authorization: authorization,
            accuracy: accuracy, route: route, authorizationAnswers: answers)
    ) {
        ApplicationEngine(
            delegate: { _ in ProbeApp(journal: journal, setUp: setUp) },
            setTracking: { _, _ in })
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return (world, journal)
}

/// Runs the app delegate `makeDelegate` makes (a fresh one at every launch) on a device parked
/// for an hour and then driving, When In Use, with `actions` at their seconds, until `end`
/// seconds: the world the wake-path, processing, defaults and notification tests share.
func runParkedApp<Delegate: UIApplicationDelegate & SendableMetatype>(
    until end: Double, actions: [(Double, UserAction)],
    capabilities: AppCapabilities = AppCapabilities(sceneBased: false),
    delegate makeDelegate: @escaping @MainActor @Sendable () -> Delegate
) -> World {
    var world = World(
        WorldConfiguration(
            policy: .iOS18, capabilities: capabilities, authorization: .whenInUse,
            route: drive(20, parkedFor: .hours(1)))
    ) {
        ApplicationEngine(delegate: { _ in makeDelegate() }, setTracking: { _, _ in })
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    return world
}
