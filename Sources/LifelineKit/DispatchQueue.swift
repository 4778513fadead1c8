// Dispatch's `DispatchQueue`, running the app's blocks as work of the simulated process.
import Dispatch
import Foundation
import VirtualConcurrency

/// `DispatchQueue` as Dispatch shapes it, running in virtual time on the simulated process.
/// Name it with `import class LifelineKit.DispatchQueue` (it takes precedence over Dispatch's);
/// `DispatchTime`, `DispatchWallTime`, `DispatchQoS` and `DispatchWorkItemFlags` stay
/// Dispatch's own.
///
/// In a simulated process every block becomes work of that process (`VirtualProcess`): the
/// main queue's blocks keep their order among themselves and with the main actor's jobs; a
/// serial queue of the app's keeps its own order; a global or concurrent queue's blocks are
/// free. Work due at one instant runs one piece at a time, in the order the run's ordering
/// strategy picks, so the explorer tries its interleavings with the app's tasks and callbacks.
/// `asyncAfter` takes its deadline on the virtual clocks (`DispatchTime` reads the virtual
/// monotonic clock, `DispatchWallTime` the virtual wall clock). Nothing of it runs while the
/// process is suspended (it runs when the process runs again), and all of it is dropped when
/// the process ends. Outside every simulated process the calls go to Dispatch's real queues.
///
/// `sync` runs the block on the calling thread once the queue's earlier blocks have run (a
/// `sync` onto the queue that is running the caller deadlocks on iOS, and traps here the same
/// way). The `.barrier` flag is not modelled: a concurrent queue's blocks stay free.
public final class DispatchQueue: @unchecked Sendable {
    public typealias Attributes = Dispatch.DispatchQueue.Attributes
    public typealias AutoreleaseFrequency = Dispatch.DispatchQueue.AutoreleaseFrequency

    public let label: String
    /// The lane of this queue's work in a simulated process.
    let lane: Int
    /// Dispatch's own queue, for calls outside every simulated process.
    private let real: Dispatch.DispatchQueue

    private init(label: String, lane: Int, real: Dispatch.DispatchQueue) {
        self.label = label
        self.lane = lane
        self.real = real
    }

    /// The main queue: the simulated process's main thread.
    public static let main = DispatchQueue(
        label: "com.apple.main-thread", lane: Lane.main, real: .main)

    /// A global concurrent queue.
    public class func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue {
        DispatchQueue(
            label: "com.apple.root.\(qos)", lane: Lane.concurrent, real: .global(qos: qos))
    }

    /// A queue of the app's own: serial unless `attributes` has `.concurrent`; a serial queue
    /// that targets a serial queue shares its order.
    public convenience init(
        label: String, qos: DispatchQoS = .unspecified, attributes: Attributes = [],
        autoreleaseFrequency: AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil
    ) {
        let lane =
            attributes.contains(.concurrent)
            ? Lane.concurrent
            : target.map { $0.lane == Lane.concurrent ? Lane.make() : $0.lane } ?? Lane.make()
        self.init(
            label: label, lane: lane,
            real: Dispatch.DispatchQueue(
                label: label, qos: qos, attributes: attributes,
                autoreleaseFrequency: autoreleaseFrequency, target: target?.real))
    }

    // MARK: - async

    /// `async(group:qos:flags:execute:)`.
    public func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void
    ) {
        submit(work, group: group, after: nil)
    }

    /// `async(execute:)` with a work item: nothing runs if it is cancelled first.
    public func async(execute workItem: DispatchWorkItem) {
        submit(workItem.runFromQueue, group: nil, after: nil, item: workItem)
    }

    /// `asyncAfter(deadline:qos:flags:execute:)`: at `deadline` on the monotonic clock.
    public func asyncAfter(
        deadline: DispatchTime, qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void
    ) {
        submit(work, group: nil, after: Self.delay(until: deadline), realDeadline: deadline)
    }

    /// `asyncAfter(deadline:execute:)` with a work item.
    public func asyncAfter(deadline: DispatchTime, execute workItem: DispatchWorkItem) {
        submit(
            workItem.runFromQueue, group: nil, after: Self.delay(until: deadline),
            realDeadline: deadline, item: workItem)
    }

    /// `asyncAfter(wallDeadline:qos:flags:execute:)`: at `wallDeadline` on the wall clock.
    public func asyncAfter(
        wallDeadline: DispatchWallTime, qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void
    ) {
        guard ProcessWork.current != nil else {
            return real.asyncAfter(wallDeadline: wallDeadline, execute: work)
        }
        submit(work, group: nil, after: Self.delay(until: wallDeadline))
    }

    /// `asyncAfter(wallDeadline:execute:)` with a work item.
    public func asyncAfter(wallDeadline: DispatchWallTime, execute workItem: DispatchWorkItem) {
        guard ProcessWork.current != nil else {
            let block = UncheckedBlock(workItem.runFromQueue)
            return real.asyncAfter(wallDeadline: wallDeadline) { block.run() }
        }
        submit(
            workItem.runFromQueue, group: nil, after: Self.delay(until: wallDeadline),
            item: workItem)
    }

    // MARK: - sync

    /// `sync(execute:)`: runs `work` on the calling thread after the queue's earlier work.
    public func sync<T>(execute work: () throws -> T) rethrows -> T {
        guard let process = ProcessWork.current else { return try real.sync(execute: work) }
        if lane != Lane.concurrent {
            precondition(
                process.currentLane != lane,
                "DispatchQueue.sync onto the queue '\(label)' from its own work deadlocks "
                    + "(on iOS: dispatch_sync called on queue already owned by current thread)")
            _ = process.runOtherLanes { !process.hasReadyWork(onLane: lane) }
        }
        return try process.runInline(onLane: lane, work)
    }

    /// `sync(flags:execute:)`.
    public func sync<T>(flags: DispatchWorkItemFlags, execute work: () throws -> T) rethrows -> T {
        try sync(execute: work)
    }

    /// `sync(execute:)` with a work item.
    public func sync(execute workItem: DispatchWorkItem) {
        sync { workItem.runFromQueue() }
    }

    // MARK: - Internals

    /// Puts `work` on this queue: in the calling simulated process, or on Dispatch's queue
    /// outside every one. `delay` in nanoseconds (nil: now; `Int64.max`: never).
    private func submit(
        _ work: @escaping () -> Void, group: DispatchGroup?, after delay: Int64?,
        realDeadline: DispatchTime? = nil, item: DispatchWorkItem? = nil
    ) {
        guard let process = ProcessWork.current else {
            let sendable = UncheckedBlock(work)
            if let realDeadline {
                return real.asyncAfter(deadline: realDeadline) { sendable.run() }
            }
            if let group { return real.async(group: group.real) { sendable.run() } }
            return real.async { sendable.run() }
        }
        if let item, !item.belongs(to: process) { return }
        if delay == Int64.max { return }  // `.distantFuture`: never
        guard let group else {
            return ProcessWork.enqueue(work, on: process, lane: lane, after: delay)
        }
        group.enter()
        ProcessWork.enqueue(
            {
                work()
                group.leave()
            }, on: process, lane: lane, after: delay)
    }

    /// Nanoseconds from the virtual monotonic clock to `deadline` (`Int64.max` for never).
    static func delay(until deadline: DispatchTime) -> Int64 {
        if deadline == .distantFuture { return Int64.max }
        let now = DispatchTime.now().uptimeNanoseconds
        let due = deadline.uptimeNanoseconds
        return due > now ? Int64(clamping: due - now) : 0
    }

    /// Nanoseconds from the virtual wall clock to `deadline` (`Int64.max` for never).
    static func delay(until deadline: DispatchWallTime) -> Int64 {
        if deadline == .distantFuture { return Int64.max }
        // Dispatch keeps a wall time as its nanoseconds since 1970, negated.
        let due = -Int64(bitPattern: deadline.rawValue)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nowNanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return max(0, due - nowNanoseconds)
    }
}

/// A block handed to Dispatch's own queues from a non-Sendable closure (outside every
/// simulation, where the app's code runs as it would without Lifeline).
struct UncheckedBlock: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
