// The app's side of one simulated process, on the main actor (layer 4): its `UIApplication`
// and app delegate, called in UIKit's order. `ApplicationEngine` enters it from the world.
import Foundation
import World

/// One process's `UIApplication` and app delegate, isolated to the main actor as UIKit's are.
///
/// `ApplicationEngine` calls it from the world's callbacks through `MainActor.assumeIsolated`:
/// the world calls the app on the simulation's thread as the process's main thread
/// (`VirtualProcess.withCurrent(onMainThread: true)`), where the virtual main executor says the
/// main actor's isolation holds (docs/concurrency.md). The process's objects reach it through
/// its `ProcessScope`, which is `Sendable` because that one thread is the only one that uses it.
@MainActor
final class ApplicationHost<Delegate: UIApplicationDelegate> {
    private let makeDelegate: ApplicationEngine<Delegate>.MakeDelegate
    private let setTracking: ApplicationEngine<Delegate>.SetTracking
    /// The process's scope, once launched.
    private var scope: ProcessScope?
    private(set) var application: UIApplication?
    private(set) var delegate: Delegate?

    nonisolated init(
        makeDelegate: @escaping ApplicationEngine<Delegate>.MakeDelegate,
        setTracking: @escaping ApplicationEngine<Delegate>.SetTracking
    ) {
        self.makeDelegate = makeDelegate
        self.setTracking = setTracking
    }

    /// The launch: the application, the delegate, `willFinishLaunching` and
    /// `didFinishLaunching`, and for a foreground launch `applicationDidBecomeActive`.
    func launch(_ launch: LaunchContext, scope: ProcessScope) {
        guard let services = scope.services else { return }
        let application = UIApplication(
            scope: scope, state: launch.state == .foreground ? .inactive : .background,
            protectedDataAvailable: launch.protectedDataAvailable)
        scope.application = application
        self.scope = scope
        self.application = application
        let options: [UIApplication.LaunchOptionsKey: Any]? =
            launch.launchOptions.contains("location") ? [.location: true] : nil
        let delegate = makeDelegate(services)
        self.delegate = delegate
        application.delegate = delegate
        _ = delegate.application(application, willFinishLaunchingWithOptions: options)
        _ = delegate.application(application, didFinishLaunchingWithOptions: options)
        scope.taskScheduler.hasFinishedLaunching = true  // later registrations: R-H14
        application.post(
            UIApplication.didFinishLaunchingNotification,
            userInfo: options.map {
                Dictionary(uniqueKeysWithValues: $0.map { ($0.rawValue, $1) })
            })
        if launch.state == .foreground {
            application.applicationState = .active
            delegate.applicationDidBecomeActive(application)
            application.post(UIApplication.didBecomeActiveNotification)
        }
    }

    /// The app's own tracking switch, once the delegate exists.
    func switchTracking(_ on: Bool) {
        guard let delegate else { return }
        setTracking(delegate, on)
    }

    func lifecycleChanged(to state: ProcessState) {
        guard let application, let delegate else { return }
        switch state {
        case .background:
            delegate.applicationWillResignActive(application)
            application.post(UIApplication.willResignActiveNotification)
            application.applicationState = .background
            delegate.applicationDidEnterBackground(application)
            application.post(UIApplication.didEnterBackgroundNotification)
        case .foreground:
            delegate.applicationWillEnterForeground(application)
            application.post(UIApplication.willEnterForegroundNotification)
            application.applicationState = .active
            delegate.applicationDidBecomeActive(application)
            application.post(UIApplication.didBecomeActiveNotification)
        default: break
        }
    }

    func protectedDataDidBecomeAvailable() {
        guard let application, let delegate else { return }
        application.isProtectedDataAvailable = true
        delegate.applicationProtectedDataDidBecomeAvailable(application)
        application.post(UIApplication.protectedDataDidBecomeAvailableNotification)
    }

    func willTerminate() {
        guard let application, let delegate else { return }
        delegate.applicationWillTerminate(application)
        application.post(UIApplication.willTerminateNotification)
    }

    /// A silent push (R-H4); false when the app has no delegate to take it.
    func didReceiveRemoteNotification(completing task: WakeTaskID) -> Bool {
        guard let application, let delegate, let services = scope?.services else { return false }
        delegate.application(
            application, didReceiveRemoteNotification: UIApplication.silentPushUserInfo,
            fetchCompletionHandler: { result in
                services.completeWake(task, success: result != .failed)
            })
        return true
    }

    /// A background session's events are due (R-H6); false when the app has no delegate to
    /// take them.
    func handleEvents(forBackgroundURLSession identifier: String, completing task: WakeTaskID)
        -> Bool
    {
        guard let application, let delegate, let services = scope?.services else { return false }
        delegate.application(
            application, handleEventsForBackgroundURLSession: identifier,
            completionHandler: { services.completeWake(task, success: true) })
        return true
    }
}
