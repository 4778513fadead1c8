// Running independent cases side by side (layer 5): worker threads take case positions in
// order, and their results are handed back on the calling thread in position order, so what a
// run reports never depends on how many workers it had or how the threads were scheduled.
import Foundation

/// Runs positions `0, 1, 2, …` of a search on `jobCount` worker threads and commits their
/// results on the calling thread, one at a time and in position order.
///
/// Each worker makes its own work function (`makeWork`, called on the worker's thread), so
/// nothing that is not `Sendable`, a generator say, is shared between threads; a simulation
/// runs whole on one thread, and parallelism is only across simulations.
///
/// States of a position: unclaimed → claimed (a worker runs it) → done (its result waits in
/// the window) → committed (handed to `commit`, in order). A result that says it stops the
/// search (a failure) stops workers from claiming later positions, but every earlier one is
/// still run and committed first, so the lowest such position is the one committed, whatever
/// the timing. `shouldStop` (time up, Ctrl-C) stops claiming; what was claimed is finished and
/// committed, so the committed positions are always a prefix `0..<n` (up to a stopping one).
///
/// Done results wait in a window of `windowSize` positions past the last committed one: a
/// worker that runs too far ahead of a slow position waits, so memory stays bounded.
package struct CaseWorkers<Result: Sendable> {
    /// Positions `0..<positionCount` at most (`Int.max` for a search bounded only by time).
    var positionCount: Int
    /// Worker threads, at least 1.
    var jobCount: Int
    /// Positions a worker may run ahead of the first uncommitted one.
    var windowSize: Int

    package init(positionCount: Int, jobCount: Int) {
        precondition(positionCount >= 0, "a position count is not negative")
        precondition(jobCount >= 1, "at least one worker")
        self.positionCount = positionCount
        self.jobCount = jobCount
        windowSize = 64 * jobCount
    }

    /// What one position gave: its result, and whether it stops the search after it.
    package typealias Outcome = (result: Result, stops: Bool)

    /// Runs the search; returns the number of positions committed.
    /// - Parameters:
    ///   - shouldStop: asked before each claim (from worker threads): true stops claiming.
    ///   - makeWork: called once on each worker's thread; the work it returns runs a position.
    ///   - commit: given each result in position order on the calling thread; false stops the
    ///     search there (nothing later is committed), and it must say false for a result whose
    ///     outcome stopped the search. What it throws is rethrown once the workers have
    ///     stopped.
    @discardableResult
    package func run(
        shouldStop: @escaping @Sendable () -> Bool,
        makeWork: @escaping @Sendable () -> (Int) -> Outcome,
        commit: (Int, Result) throws -> Bool
    ) throws -> Int {
        let board = Board(windowSize: windowSize, positionLimit: positionCount, jobCount: jobCount)
        for _ in 0..<jobCount {
            let thread = Thread {
                let work = makeWork()
                board.work(work, shouldStop: shouldStop)
            }
            thread.stackSize = Self.stackBytes
            thread.start()
        }
        defer { board.finish() }
        while let (position, result) = board.nextDone() {
            guard try commit(position, result) else { break }
        }
        return board.committedCount
    }

    /// Each worker's stack: as much as the main thread's usual 8 MiB, so a run that fits on
    /// the main thread fits on a worker.
    static var stackBytes: Int { 8 << 20 }

    // MARK: - The board the threads share

    /// The positions claimed, done and committed; every field is read and written only under
    /// `condition`'s lock.
    final class Board: @unchecked Sendable {
        let condition = NSCondition()
        // invariant: committed <= next <= committed + window.count (workers claim only
        // inside the window, so each slot holds at most one position's result).
        var next = 0
        var committed = 0
        /// Positions at or past it are not claimed: the count, lowered past a stopping result.
        var positionLimit: Int
        /// Done results by `position % windowSize`, for positions `committed..<next`.
        var window: [Result?]
        /// Workers still running.
        var running: Int
        /// Set by the calling thread when it wants no more work.
        var isFinished = false

        init(windowSize: Int, positionLimit: Int, jobCount: Int) {
            window = Array(repeating: nil, count: windowSize)
            self.positionLimit = positionLimit
            running = jobCount
        }

        var committedCount: Int { condition.withLock { committed } }

        /// A worker's loop: claim the next position, run it outside the lock, file its result.
        func work(_ work: (Int) -> Outcome, shouldStop: () -> Bool) {
            condition.lock()
            while true {
                while !isFinished && next < positionLimit && next - committed >= window.count {
                    condition.wait()
                }
                if isFinished || next >= positionLimit || shouldStop() { break }
                let position = next
                next += 1
                condition.unlock()
                let outcome = work(position)
                condition.lock()
                precondition(window[position % window.count] == nil, "a window slot is free")
                window[position % window.count] = outcome.result
                if outcome.stops { positionLimit = min(positionLimit, position + 1) }
                condition.broadcast()
            }
            running -= 1
            condition.broadcast()
            condition.unlock()
        }

        /// The next position's result once it is done, in order; nil when no more will come.
        func nextDone() -> (Int, Result)? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                let slot = committed % window.count
                if committed < next, let result = window[slot] {
                    window[slot] = nil
                    committed += 1
                    condition.broadcast()
                    return (committed - 1, result)
                }
                if running == 0 { return nil }
                condition.wait()
            }
        }

        /// Stops the workers and waits for every one to end.
        func finish() {
            condition.lock()
            isFinished = true
            condition.broadcast()
            while running > 0 { condition.wait() }
            condition.unlock()
        }
    }
}
