// Dispatch's `DispatchGroup` and `DispatchSemaphore`, waiting in virtual time.
import Dispatch
import Foundation
import VirtualConcurrency

/// `DispatchGroup` as Dispatch shapes it, for LifelineKit's `DispatchQueue`. Name it with
/// `import class LifelineKit.DispatchGroup`.
///
/// `notify` puts its block on the queue when the group empties. `wait(timeout:)` on a simulated
/// thread first runs the process's work that other threads would run meanwhile (every lane but
/// the waiting one, ready at this instant): if that empties the group, the wait succeeds. A
/// timeout already passed then gives `.timedOut`. A wait that only time passing could end is
/// refused loudly (`escaped-simulation`, naming `notify(queue:execute:)`), and returns
/// `.timedOut`. Outside every simulated process it is Dispatch's own group.
public final class DispatchGroup: @unchecked Sendable {
    /// Dispatch's group, for use outside every simulated process.
    let real = Dispatch.DispatchGroup()
    private var count = 0
    private var notifications: [(queue: DispatchQueue, block: @Sendable () -> Void)] = []

    public init() {}

    public func enter() {
        guard ProcessWork.current != nil else { return real.enter() }
        count += 1
    }

    public func leave() {
        guard ProcessWork.current != nil else { return real.leave() }
        precondition(count > 0, "DispatchGroup.leave() without a matching enter() (as on iOS)")
        count -= 1
        guard count == 0 else { return }
        let pending = notifications
        notifications = []
        for (queue, block) in pending { queue.async(execute: block) }
    }

    /// `notify(qos:flags:queue:execute:)`.
    public func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        queue: DispatchQueue, execute work: @escaping @Sendable () -> Void
    ) {
        guard ProcessWork.current != nil else {
            return real.notify(queue: .main) { queue.async(execute: work) }
        }
        if count == 0 { return queue.async(execute: work) }
        notifications.append((queue, work))
    }

    /// `notify(queue:work:)`.
    public func notify(queue: DispatchQueue, work: DispatchWorkItem) {
        notify(queue: queue) { work.perform() }
    }

    /// `wait()`: until the group empties.
    public func wait() { _ = wait(timeout: .distantFuture) }

    /// `wait(timeout:)`, in virtual time.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        guard ProcessWork.current != nil else { return real.wait(timeout: timeout) }
        return VirtualWait.wait(
            "DispatchGroup.wait(timeout:)", until: { self.count == 0 },
            timeoutPassed: DispatchQueue.delay(until: timeout) == 0,
            instead: "DispatchGroup.notify(queue:execute:) of LifelineKit, or async/await")
    }

    /// `wait(wallTimeout:)`, in virtual time.
    public func wait(wallTimeout timeout: DispatchWallTime) -> DispatchTimeoutResult {
        guard ProcessWork.current != nil else { return real.wait(wallTimeout: timeout) }
        return VirtualWait.wait(
            "DispatchGroup.wait(wallTimeout:)", until: { self.count == 0 },
            timeoutPassed: DispatchQueue.delay(until: timeout) == 0,
            instead: "DispatchGroup.notify(queue:execute:) of LifelineKit, or async/await")
    }
}

/// `DispatchSemaphore` as Dispatch shapes it. Name it with
/// `import class LifelineKit.DispatchSemaphore`.
///
/// A wait on a simulated thread runs as `DispatchGroup`'s does: the process's work that other
/// threads would run meanwhile runs first; a signal among it ends the wait; a timeout already
/// passed gives `.timedOut`; a wait only time passing could end is refused loudly
/// (`escaped-simulation`) and returns `.timedOut`. Outside every simulated process it is
/// Dispatch's own semaphore.
public final class DispatchSemaphore: @unchecked Sendable {
    private let real: Dispatch.DispatchSemaphore
    private var value: Int

    public init(value: Int) {
        real = Dispatch.DispatchSemaphore(value: value)
        self.value = value
    }

    /// `signal()`: returns nonzero when it ended a wait (never, here: a simulated wait takes
    /// its signal as it runs).
    @discardableResult
    public func signal() -> Int {
        guard ProcessWork.current != nil else { return real.signal() }
        value += 1
        return 0
    }

    /// `wait()`.
    public func wait() { _ = wait(timeout: .distantFuture) }

    /// `wait(timeout:)`, in virtual time.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        guard ProcessWork.current != nil else { return real.wait(timeout: timeout) }
        return take(
            "DispatchSemaphore.wait(timeout:)",
            timeoutPassed: DispatchQueue.delay(until: timeout) == 0)
    }

    /// `wait(wallTimeout:)`, in virtual time.
    public func wait(wallTimeout timeout: DispatchWallTime) -> DispatchTimeoutResult {
        guard ProcessWork.current != nil else { return real.wait(wallTimeout: timeout) }
        return take(
            "DispatchSemaphore.wait(wallTimeout:)",
            timeoutPassed: DispatchQueue.delay(until: timeout) == 0)
    }

    private func take(_ call: String, timeoutPassed: Bool) -> DispatchTimeoutResult {
        let result = VirtualWait.wait(
            call, until: { self.value > 0 }, timeoutPassed: timeoutPassed,
            instead: "a completion handler, DispatchGroup.notify or async/await")
        if result == .success { value -= 1 }
        return result
    }
}

/// A wait on a simulated thread: what other threads would do meanwhile runs; only the passing
/// of time is refused.
enum VirtualWait {
    static func wait(
        _ call: String, until isSatisfied: () -> Bool, timeoutPassed: Bool, instead: String
    ) -> DispatchTimeoutResult {
        guard let process = ProcessWork.current else { return .timedOut }
        if process.runOtherLanes(whileWaiting: isSatisfied) { return .success }
        if !timeoutPassed { ProcessWork.refuseBlockingWait(call, instead: instead) }
        return .timedOut
    }
}
