// UIKit's application object and its delegate with Apple's names (layer 4): the app's state,
// background tasks and the lifecycle calls, driven by `ApplicationEngine`.
import Foundation
import Simulation
import World

/// `UIResponder`: the base class of `UIApplication` and of a team's `AppDelegate`
/// (`class AppDelegate: UIResponder, UIApplicationDelegate`). No responder chain is modelled.
/// Main-actor isolated, as Apple declares it, so a subclass is too.
@MainActor
open class UIResponder: NSObject {
    public override init() { super.init() }
}

/// `UIBackgroundTaskIdentifier`: a background task's handle (`.invalid` for none). Not
/// isolated, as Apple's is not.
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `UIBackgroundTaskIdentifier.invalid`.
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// `UIApplication`: one per simulated process, `UIApplication.shared` inside it.
///
/// Main-actor isolated, as Apple declares it (`@MainActor class UIApplication: UIResponder`),
/// with Apple's exceptions: `beginBackgroundTask`, `endBackgroundTask`,
/// `backgroundTimeRemaining` and the notification names are `nonisolated`, callable from any
/// code of the process. The world calls the app on the simulation's thread, which stands for
/// the process's main thread, and the main actor's executor is the virtual one
/// (`VirtualConcurrency`, docs/concurrency.md): inside a callback the main actor's isolation
/// holds and `Task { … }` made by main-actor code runs on it in virtual time.
/// `Thread.isMainThread` is false there.
///
/// - `applicationState`: `.inactive` while a foreground launch finishes and while the app
///   resigns or regains activity, `.active` in the foreground, `.background` in the background
///   (the world's `ProcessState`; a suspended app runs no code, so it never reads it).
/// - `beginBackgroundTask(withName:expirationHandler:)` and `endBackgroundTask(_:)`: the
///   world's background tasks (R-F1): a task keeps a background app running until the app's
///   background time is up; the expiration handler runs then, and a task still held after it
///   gets the app killed by the watchdog.
/// - `backgroundTimeRemaining`: that background time, as the world's operating system counts
///   it, in virtual seconds.
///
/// Its lifecycle notifications (`didEnterBackgroundNotification` and the rest) are posted to
/// the process's `NotificationCenter.default`, each after the matching delegate call.
open class UIApplication: UIResponder {
    /// `UIApplication.State` (not isolated, as Apple's is not).
    public enum State: Int, Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    /// `UIApplication.LaunchOptionsKey` (not isolated, as Apple's is not).
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `.location`: the app was launched for a location event (significant change, a
        /// region, a visit; R-A10). Only an app without scenes gets launch options (R-A11),
        /// and only where the policy says the system sets this key
        /// (`legacyLaunchOptionsCarryLocation`).
        public static let location = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsLocationKey")
    }

    /// `UIApplication.shared`: the calling process's application. Reading it outside a
    /// simulated process (no `ApplicationEngine` callback is running) is a programming error.
    public class var shared: UIApplication {
        guard let scope = ProcessScope.current else {
            preconditionFailure(
                "UIApplication.shared read outside a simulated process: LifelineKit's app code "
                    + "runs inside an ApplicationEngine's callbacks")
        }
        guard let application = scope.application else {
            preconditionFailure("UIApplication.shared read before the launch made it")
        }
        return application
    }

    /// `delegate`, held weakly (the engine keeps the app delegate for the process's life).
    public weak var delegate: (any UIApplicationDelegate)?

    /// `applicationState` (the process's, kept in its scope so that `backgroundTimeRemaining`
    /// can read it from any code).
    public internal(set) var applicationState: State {
        get { scope.applicationState }
        set { scope.applicationState = newValue }
    }

    /// `backgroundRefreshStatus`: `.available`, or `.denied` while Background App Refresh is
    /// off: the user turned it off for the app (R-H12, `UserAction.setBackgroundRefresh`), or
    /// Low Power Mode is on (R-H13, `UserAction.setLowPowerMode`; Apple: "Background App
    /// Refresh is disabled automatically when a device is operating in low-power mode"). Apple
    /// names no value for Low Power Mode; `.denied` is "The user explicitly disabled background
    /// behavior for this app or for the whole system", which Low Power Mode is, while
    /// `.restricted` is for a user who "cannot enable them again". `.restricted` is never
    /// reported.
    public var backgroundRefreshStatus: UIBackgroundRefreshStatus {
        (scope.services?.isBackgroundRefreshEnabled ?? true) ? .available : .denied
    }

    /// `backgroundTimeRemaining`: in the background, the seconds of virtual time left before the
    /// app's background time is up and its tasks expire (R-F1; Apple: "The maximum amount of
    /// time remaining for the app to run in the background", UIKit's `backgroundTimeRemaining`).
    /// The figure is the world's operating system's own clock, which tells the process of each
    /// change (`LocationServices.backgroundTimeRemaining`): one app-wide figure that starts at
    /// `backgroundTaskBudget` when the app first holds a task on borrowed time and counts down
    /// in virtual time, 0 once it is up. `greatestFiniteMagnitude` in the foreground (and while
    /// the app resigns or regains activity), and while the app is kept running in the
    /// background by location (the daemon) or a test host, where the clock does not run (R-F1;
    /// `DBL_MAX` is what iOS reports in the foreground). In the background before any task, the
    /// time a task begun now would get. Apple says the value is valid once the app is in the
    /// background and has begun a task; the model gives one in every state. `nonisolated`, as
    /// Apple's ("can be safely called on a non-main thread").
    public nonisolated var backgroundTimeRemaining: TimeInterval {
        guard scope.applicationState == .background, let services = scope.services,
            let remaining = services.backgroundTimeRemaining
        else { return .greatestFiniteMagnitude }
        return remaining.seconds
    }

    /// `isProtectedDataAvailable`: false from a boot to the first unlock (R-D9).
    public internal(set) var isProtectedDataAvailable: Bool

    /// The process scope: its services, its state and the expiration handlers (it holds this
    /// application weakly, so that the two die with the process).
    nonisolated let scope: ProcessScope

    init(scope: ProcessScope, state: State, protectedDataAvailable: Bool) {
        self.scope = scope
        isProtectedDataAvailable = protectedDataAvailable
        super.init()
        applicationState = state
        scope.services?.watchBackgroundTime()  // so `backgroundTimeRemaining` is the system's
    }

    /// `beginBackgroundTask(withName:expirationHandler:)`: a background task (R-F1). The
    /// handler runs when the app's background time is up; end the task in it. Apple types the
    /// handler `@MainActor @Sendable`, as Apple does; the handler runs on the main actor.
    /// `nonisolated`, as Apple's.
    public nonisolated func beginBackgroundTask(
        withName taskName: String?,
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        guard let services = scope.services else { return .invalid }
        let task = services.beginBackgroundTask()
        if let handler { scope.expirationHandlers[task.object.value] = handler }
        return UIBackgroundTaskIdentifier(rawValue: task.object.value)
    }

    /// `beginBackgroundTask(expirationHandler:)`.
    public nonisolated func beginBackgroundTask(
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    /// `endBackgroundTask(_:)`: ends the task (an `.invalid` or unknown one is ignored).
    /// `nonisolated`, as Apple's.
    public nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        guard identifier != .invalid, let services = scope.services else { return }
        scope.expirationHandlers[identifier.rawValue] = nil
        services.endBackgroundTask(BackgroundTaskID(ObjectID(identifier.rawValue)))
    }
}

/// `UIBackgroundRefreshStatus` (not isolated): whether the app may run in the background for Background App
/// Refresh (R-H12).
public enum UIBackgroundRefreshStatus: Int, Sendable {
    case restricted = 0
    case denied = 1
    case available = 2
}

/// `UIBackgroundFetchResult` (not isolated): what a background fetch or a silent push's handling found.
public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData = 0
    case noData = 1
    case failed = 2
}

extension UIApplication {
    /// The payload of the world's silent push (`UserAction.silentPush`): a background
    /// notification carries `content-available` and nothing to show.
    static var silentPushUserInfo: [AnyHashable: Any] { ["aps": ["content-available": 1]] }
}

/// `UIApplicationDelegate`: the app delegate's lifecycle calls, every one optional (defaults in
/// an extension). Main-actor isolated, as Apple declares it: a conforming class is too, so a
/// `Task { … }` it starts runs on the main actor and may touch the delegate's own state.
/// `ApplicationEngine` calls them as UIKit does, from the world's process events:
///
/// - launch: `application(_:willFinishLaunchingWithOptions:)` then
///   `application(_:didFinishLaunchingWithOptions:)`, with `[.location: true]` when the world
///   launched the app for a location event with launch options (R-A11); then, for a launch in
///   the foreground, `applicationDidBecomeActive(_:)`;
/// - leaving: `applicationWillResignActive(_:)` then `applicationDidEnterBackground(_:)`;
/// - returning: `applicationWillEnterForeground(_:)` then `applicationDidBecomeActive(_:)`;
/// - `applicationProtectedDataDidBecomeAvailable(_:)` at the first unlock after a boot (R-D9);
/// - `applicationWillTerminate(_:)` when the world's policy calls it (a force-quit of a
///   running app, R-D7; never for a suspended app, a purge, a crash or a reboot);
/// - `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` for a silent push
///   (R-H4), after the launch when the push launched the app.
///
/// Suspension is not told, as UIKit does not tell it.
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    func applicationDidBecomeActive(_ application: UIApplication)
    func applicationWillResignActive(_ application: UIApplication)
    func applicationDidEnterBackground(_ application: UIApplication)
    func applicationWillEnterForeground(_ application: UIApplication)
    func applicationWillTerminate(_ application: UIApplication)
    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication)
    /// A silent push woke the app (R-H4): call `completionHandler` within
    /// `remoteNotificationRuntime` (30 s) or, in the background, the process is killed. By
    /// default the handler is called at once with `.noData`.
    func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
    /// The transfers of the background session `identifier` are done and the app was not
    /// running: the system resumed or launched it in the background (R-H6). Make a
    /// `URLSession` with that identifier (if this process has none), let its delegate take the
    /// events, and call `completionHandler` (in `urlSessionDidFinishEvents`); until then, for
    /// `backgroundSessionEventsRuntime`, the app is kept running. By default the handler is
    /// called at once.
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void)
}

extension UIApplicationDelegate {
    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    public func applicationWillResignActive(_ application: UIApplication) {}
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    public func applicationWillTerminate(_ application: UIApplication) {}
    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {}
    public func application(
        _ application: UIApplication,
        didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { completionHandler(.noData) }
    public func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) { completionHandler() }
}
