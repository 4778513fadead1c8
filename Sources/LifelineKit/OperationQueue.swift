// Foundation's `OperationQueue`, running the app's operations as work of the simulated process.
import Foundation
import VirtualConcurrency

/// `OperationQueue` as Foundation shapes it, in virtual time on the simulated process. Name it
/// with `import class LifelineKit.OperationQueue`.
///
/// `OperationQueue.main` runs its operations as the process's main-thread work, in order; a
/// queue of the app's own runs them as free work (or in order, with
/// `maxConcurrentOperationCount` 1), ordered among the process's other work by the run's
/// ordering strategy, and all of it dies with the process. `cancelAllOperations()` keeps the
/// operations not yet started from running. Outside every simulated process it is Foundation's
/// own queue.
open class OperationQueue: @unchecked Sendable {
    /// Foundation's value for "as many as the system allows".
    public static let defaultMaxConcurrentOperationCount = -1

    /// The main queue: the simulated process's main thread.
    public static let main = OperationQueue(lane: Lane.main, real: .main)

    open var name: String?
    open var maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
    open var qualityOfService: QualityOfService = .default
    /// Operations added and not yet finished (or cancelled) in the calling process.
    open private(set) var operationCount = 0

    private let serialLane: Int
    private let isMain: Bool
    private let madeReal: Foundation.OperationQueue?
    private lazy var real: Foundation.OperationQueue = madeReal ?? Foundation.OperationQueue()
    /// Bumped by `cancelAllOperations()`: an operation queued before does not start.
    private var cancellations = 0

    public init() {
        serialLane = Lane.make()
        isMain = false
        madeReal = nil
    }

    private init(lane: Int, real: Foundation.OperationQueue) {
        serialLane = lane
        isMain = true
        madeReal = real
    }

    private var lane: Int {
        isMain || maxConcurrentOperationCount == 1 ? serialLane : Lane.concurrent
    }

    /// `addOperation(_:)` with a block.
    open func addOperation(_ block: @escaping @Sendable () -> Void) {
        guard let process = ProcessWork.current else { return real.addOperation(block) }
        operationCount += 1
        let cancelled = cancellations
        ProcessWork.enqueue(
            { [self] in
                operationCount -= 1
                if cancelled == cancellations { block() }
            }, on: process, lane: lane, after: nil)
    }

    /// `addOperation(_:)` with an operation: started in its turn unless cancelled.
    open func addOperation(_ operation: Operation) {
        let box = UncheckedBlock { if !operation.isCancelled { operation.start() } }
        addOperation { box.run() }
    }

    /// `addOperations(_:waitUntilFinished:)`.
    open func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        for operation in operations { addOperation(operation) }
        if wait { waitUntilAllOperationsAreFinished() }
    }

    /// `addBarrierBlock(_:)`: after the operations queued before it.
    open func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        guard let process = ProcessWork.current else { return real.addBarrierBlock(barrier) }
        operationCount += 1
        // In order with this queue's earlier operations: on their serial lane.
        ProcessWork.enqueue(
            { [self] in
                operationCount -= 1
                barrier()
            }, on: process, lane: serialLane, after: nil)
    }

    /// `cancelAllOperations()`.
    open func cancelAllOperations() {
        guard ProcessWork.current != nil else { return real.cancelAllOperations() }
        cancellations += 1
    }

    /// `waitUntilAllOperationsAreFinished()`, in virtual time (as `DispatchGroup.wait`).
    open func waitUntilAllOperationsAreFinished() {
        guard ProcessWork.current != nil else { return real.waitUntilAllOperationsAreFinished() }
        _ = VirtualWait.wait(
            "OperationQueue.waitUntilAllOperationsAreFinished()",
            until: { self.operationCount == 0 }, timeoutPassed: false,
            instead: "an operation's completionBlock or async/await")
    }
}
