// Dispatch's timer sources, firing in virtual time on LifelineKit's queues.
import Dispatch
import Foundation
import VirtualConcurrency

/// `DispatchSource` as Dispatch shapes it, for timers: `makeTimerSource(flags:queue:)`. Name it
/// with `import class LifelineKit.DispatchSource` and
/// `import protocol LifelineKit.DispatchSourceTimer`.
///
/// A timer source is made suspended, as Dispatch makes it: it fires once resumed (`resume()` or
/// `activate()`) and scheduled, at its deadline and then every `repeating` interval, as work of
/// its queue (a global queue when none is given) in the simulated process; a fire due while
/// the process is suspended comes when it runs again, once (Dispatch coalesces a timer's
/// missed fires). `cancel()` stops it and runs the cancel handler. The leeway is not applied.
/// Only timer sources are provided; they need a simulated process.
public final class DispatchSource: @unchecked Sendable {
    public typealias TimerFlags = Dispatch.DispatchSource.TimerFlags

    private init() {}

    /// `makeTimerSource(flags:queue:)`.
    public class func makeTimerSource(flags: TimerFlags = [], queue: DispatchQueue? = nil)
        -> DispatchSourceTimer
    {
        VirtualTimerSource(queue: queue ?? .global())
    }
}

/// A timer source, with the members of Dispatch's protocol of that name that apps use (the
/// Apple-named ones are in the extension, with Dispatch's defaults).
public protocol DispatchSourceTimer: AnyObject, Sendable {
    /// Arms the timer: first at `deadline`, then every `interval` nanoseconds (nil: once).
    func arm(deadline: DispatchTime, repeatingNanoseconds interval: Int64?)
    /// The event handler (`cancel`: false) or the cancel handler (`cancel`: true).
    func setHandler(_ handler: (@Sendable () -> Void)?, cancel: Bool)
    func resume()
    func suspend()
    func activate()
    func cancel()
    var isCancelled: Bool { get }
}

extension DispatchSourceTimer {
    /// `schedule(deadline:repeating:leeway:)` (the leeway is not applied).
    public func schedule(
        deadline: DispatchTime, repeating interval: DispatchTimeInterval = .never,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        arm(deadline: deadline, repeatingNanoseconds: VirtualTimerSource.nanoseconds(interval))
    }

    /// `schedule(deadline:repeating:leeway:)` with the interval in seconds.
    public func schedule(
        deadline: DispatchTime, repeating interval: Double,
        leeway: DispatchTimeInterval = .nanoseconds(0)
    ) {
        arm(
            deadline: deadline,
            repeatingNanoseconds: interval.isFinite
                ? max(1, ProcessWork.nanoseconds(interval)) : nil)
    }

    /// `setEventHandler(qos:flags:handler:)`.
    public func setEventHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        handler: (@Sendable () -> Void)?
    ) {
        setHandler(handler, cancel: false)
    }

    /// `setCancelHandler(qos:flags:handler:)`.
    public func setCancelHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        handler: (@Sendable () -> Void)?
    ) {
        setHandler(handler, cancel: true)
    }
}

/// The timer source LifelineKit makes.
final class VirtualTimerSource: DispatchSourceTimer, @unchecked Sendable {
    private let queue: DispatchQueue
    private var handler: (@Sendable () -> Void)?
    private var cancelHandler: (@Sendable () -> Void)?
    private var deadline: DispatchTime?
    /// The repeat interval in nanoseconds, nil for a one-shot.
    private var interval: Int64?
    private var suspendCount = 1  // made suspended, as Dispatch makes a source
    private(set) var isCancelled = false
    /// Each arming's number: a queued fire of an earlier one does nothing.
    private var arming = 0

    init(queue: DispatchQueue) { self.queue = queue }

    func arm(deadline: DispatchTime, repeatingNanoseconds interval: Int64?) {
        self.deadline = deadline
        self.interval = interval
        arm()
    }

    func setHandler(_ handler: (@Sendable () -> Void)?, cancel: Bool) {
        if cancel { cancelHandler = handler } else { self.handler = handler }
    }

    func resume() {
        precondition(suspendCount > 0, "DispatchSource over-resumed (as on iOS)")
        suspendCount -= 1
        arm()
    }

    func activate() { if suspendCount > 0 { resume() } }

    func suspend() {
        suspendCount += 1
        arming += 1
    }

    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        arming += 1
        if let cancelHandler { queue.async(execute: cancelHandler) }
    }

    private func arm() {
        arming += 1
        guard !isCancelled, suspendCount == 0, let deadline else { return }
        let number = arming
        let delay = DispatchQueue.delay(until: deadline)
        guard let process = ProcessWork.current else {
            preconditionFailure(
                "DispatchSource.makeTimerSource of LifelineKit runs in a simulated process only")
        }
        guard delay != Int64.max else { return }
        ProcessWork.enqueue(
            { [self] in fire(number) }, on: process, lane: queue.lane, after: delay)
    }

    private func fire(_ number: Int) {
        guard number == arming, !isCancelled, suspendCount == 0 else { return }
        handler?()
        guard number == arming, !isCancelled, let interval,
            let process = ProcessWork.current
        else { return }
        ProcessWork.enqueue(
            { [self] in fire(number) }, on: process, lane: queue.lane, after: interval)
    }

    static func nanoseconds(_ interval: DispatchTimeInterval) -> Int64? {
        switch interval {
        case .seconds(let value): Int64(value) * 1_000_000_000
        case .milliseconds(let value): Int64(value) * 1_000_000
        case .microseconds(let value): Int64(value) * 1_000
        case .nanoseconds(let value): Int64(value)
        case .never: nil
        @unknown default: nil
        }
    }
}
