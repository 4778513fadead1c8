// Foundation's notification center, one per simulated process (layer 4): where UIKit posts the
// application's lifecycle notifications, and where a team's code observes them.
import Foundation
import VirtualConcurrency

/// `NotificationCenter`, one `default` center per simulated process: where `UIApplication`
/// posts its lifecycle notifications (`UIApplication.didEnterBackgroundNotification` and the
/// rest, each right after the matching app delegate call) and where the app's code observes
/// them, with Foundation's method names and its `Notification` values.
///
/// It differs from Foundation's class in two ways, both to keep a run inside the simulation:
///
/// - `NotificationCenter.default` is the calling simulated process's center: a fresh one at
///   every launch, so an observer dies with its process, as a real process's memory does, and
///   parallel fuzz cases never see each other's observers. Outside a simulated process it is
///   one center for that code.
/// - Observers run at once, in the order they were added, on the simulation's thread, which
///   stands for the main thread, whatever `queue` an observer block was given (`.main`, as apps
///   observe UIKit's notifications): Foundation would hand the block to a real
///   `OperationQueue`, outside virtual time.
///
/// A subclass of `NSObject`, as Foundation's is.
///
/// Not here: selector-based observers (`addObserver(_:selector:name:object:)`, which needs the
/// Objective-C runtime) and `notifications(named:object:)`.
///
/// A file that imports Foundation and LifelineKit names this class with a scoped import, which
/// takes precedence over Foundation's (Swift does not let one module's class shadow another's
/// otherwise):
///
///     import Foundation
///     #if canImport(UIKit)
///         import UIKit
///     #else
///         import LifelineKit
///         import class LifelineKit.NotificationCenter
///     #endif
public final class NotificationCenter: NSObject, @unchecked Sendable {
    /// The simulated process's center, made at its first use in the process.
    static let ofProcess = ProcessLocal { NotificationCenter() }

    /// `NotificationCenter.default`: the calling simulated process's center.
    public class var `default`: NotificationCenter { ofProcess.value }

    /// One observer: what it listens for and what it runs.
    private struct Observer {
        let token: ObserverToken
        let name: NSNotification.Name?
        let object: AnyObject?
        let block: (Notification) -> Void
    }

    private var observers: [Observer] = []

    /// `init()`: a center of its own, which nothing posts to but its owner.
    public override init() { super.init() }

    /// `addObserver(forName:object:queue:using:)`: `block` runs for every post of `name` (any
    /// name when nil) by `object` (the same instance; any sender when nil). Keep the returned
    /// token to remove the observer.
    @discardableResult
    public func addObserver(
        forName name: NSNotification.Name?, object: Any?, queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        let token = ObserverToken()
        observers.append(
            Observer(token: token, name: name, object: object.map { $0 as AnyObject }, block: block)
        )
        return token
    }

    /// `removeObserver(_:)`: removes every observer the token (from `addObserver`) stands for.
    public func removeObserver(_ observer: Any) {
        removeObserver(observer, name: nil, object: nil)
    }

    /// `removeObserver(_:name:object:)`: removes the token's observer when it listens for
    /// `name` and `object` (nil matches any).
    public func removeObserver(
        _ observer: Any, name: NSNotification.Name?, object: Any?
    ) {
        guard let token = observer as? ObserverToken else { return }
        let sender = object.map { $0 as AnyObject }
        observers.removeAll { entry in
            entry.token === token && (name == nil || entry.name == name)
                && (sender == nil || entry.object === sender)
        }
    }

    /// `post(_:)`: runs every observer of the notification's name and sender, in the order
    /// they were added (observers added by one of them hear the next post).
    public func post(_ notification: Notification) {
        let sender = notification.object.map { $0 as AnyObject }
        let listening = observers.filter { entry in
            (entry.name == nil || entry.name == notification.name)
                && (entry.object == nil || entry.object === sender)
        }
        for entry in listening { entry.block(notification) }
    }

    /// `post(name:object:userInfo:)`.
    public func post(
        name: NSNotification.Name, object: Any?, userInfo: [AnyHashable: Any]? = nil
    ) {
        post(Notification(name: name, object: object, userInfo: userInfo))
    }

    /// What `addObserver(forName:object:queue:using:)` returns.
    private final class ObserverToken: NSObject {}
}

extension UIApplication {
    /// `UIApplication.didFinishLaunchingNotification`: posted after
    /// `application(_:didFinishLaunchingWithOptions:)` returns. `userInfo` carries the launch
    /// options, when there are any.
    public nonisolated static let didFinishLaunchingNotification = NSNotification.Name(
        "UIApplicationDidFinishLaunchingNotification")
    /// `UIApplication.didBecomeActiveNotification`: after `applicationDidBecomeActive(_:)`.
    public nonisolated static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification")
    /// `UIApplication.willResignActiveNotification`: after `applicationWillResignActive(_:)`.
    public nonisolated static let willResignActiveNotification = NSNotification.Name(
        "UIApplicationWillResignActiveNotification")
    /// `UIApplication.didEnterBackgroundNotification`: after
    /// `applicationDidEnterBackground(_:)`.
    public nonisolated static let didEnterBackgroundNotification = NSNotification.Name(
        "UIApplicationDidEnterBackgroundNotification")
    /// `UIApplication.willEnterForegroundNotification`: after
    /// `applicationWillEnterForeground(_:)`.
    public nonisolated static let willEnterForegroundNotification = NSNotification.Name(
        "UIApplicationWillEnterForegroundNotification")
    /// `UIApplication.willTerminateNotification`: after `applicationWillTerminate(_:)`.
    public nonisolated static let willTerminateNotification = NSNotification.Name(
        "UIApplicationWillTerminateNotification")
    /// `UIApplication.protectedDataDidBecomeAvailableNotification`: after
    /// `applicationProtectedDataDidBecomeAvailable(_:)`.
    public nonisolated static let protectedDataDidBecomeAvailableNotification = NSNotification.Name(
        "UIApplicationProtectedDataDidBecomeAvailable")

    /// Posts `name` with this application as its object, to the process's center.
    func post(_ name: NSNotification.Name, userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
