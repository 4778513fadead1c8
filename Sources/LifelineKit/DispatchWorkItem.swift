// Dispatch's `DispatchWorkItem`, cancellable work of the simulated process.
import Dispatch
import Foundation
import VirtualConcurrency

/// `DispatchWorkItem` as Dispatch shapes it, for LifelineKit's `DispatchQueue`. Name it with
/// `import class LifelineKit.DispatchWorkItem`.
///
/// `cancel()` makes every later attempt to run it return at once (Apple: "cancellation causes
/// future attempts to execute the work item to return immediately"); it does not stop a run
/// already under way. `notify` runs once the item has run (or, cancelled, once a queue took it
/// up). A work item belongs to the simulated process that made it: queued or performed in
/// another process after that one ended, it does not run, and the case ends in
/// `escaped-simulation` (a process's work never runs after it ends).
public final class DispatchWorkItem: @unchecked Sendable {
    private let block: () -> Void
    /// True once `cancel()` was called.
    public private(set) var isCancelled = false
    private var notifications: [(queue: DispatchQueue, block: @Sendable () -> Void)] = []
    private weak var maker: VirtualProcess?
    private let madeInProcess: Bool

    /// `init(qos:flags:block:)`.
    public init(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        block: @escaping @Sendable () -> Void
    ) {
        self.block = block
        maker = ProcessWork.current
        madeInProcess = maker != nil
    }

    /// Runs the block now, on the calling thread, unless cancelled.
    public func perform() {
        if let process = ProcessWork.current, !belongs(to: process) { return }
        guard !isCancelled else { return }
        block()
    }

    /// Cancels every later run.
    public func cancel() { isCancelled = true }

    /// `notify(queue:execute:)`: `block` goes on `queue` once the item has run.
    public func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        queue: DispatchQueue, execute block: @escaping @Sendable () -> Void
    ) {
        notifications.append((queue, block))
    }

    /// The run a queue gives it: the block unless cancelled, then the notifications.
    func runFromQueue() {
        if !isCancelled { block() }
        let pending = notifications
        notifications = []
        for (queue, block) in pending { queue.async(execute: block) }
    }

    /// Whether the item may run in `process`: made outside every simulation, or in a process
    /// still running. A work item of an ended process is refused (reported).
    func belongs(to process: VirtualProcess) -> Bool {
        guard madeInProcess, maker !== process else { return true }
        if let maker, !maker.hasEnded { return true }
        ProcessWork.refuseEnded("a DispatchWorkItem")
        return false
    }
}
