// One simulated process's Swift concurrency: the jobs its code made, due now or at a virtual
// deadline, run by the simulation at the instants it chooses, and dropped when the process ends.
import CVirtualClock
import Synchronization

/// What the clocks of a simulated process read at one virtual instant, in nanoseconds.
public struct VirtualClockReading: Sendable, Equatable {
    /// `CLOCK_REALTIME`: `Date()`, `Date.now`, `timeIntervalSinceNow`; since 1970.
    public var realtime: Int64
    /// `CLOCK_MONOTONIC`: `ProcessInfo.systemUptime`, `SuspendingClock`, `DispatchTime`; the
    /// uptime without the device's sleep.
    public var monotonic: Int64
    /// `CLOCK_BOOTTIME`: `ContinuousClock` and so `Task.sleep`; the uptime with sleep.
    public var boottime: Int64

    public init(realtime: Int64, monotonic: Int64, boottime: Int64) {
        self.realtime = realtime
        self.monotonic = monotonic
        self.boottime = boottime
    }

    /// The wall clock at the start of every run: 2026-01-01 00:00:00 UTC, in seconds since 1970.
    public static let realtimeAtStartSeconds: Int64 = 1_767_225_600
}

/// The Swift concurrency of one simulated process.
///
/// While a thread runs inside `withCurrent`, the virtual executors (`VirtualConcurrency`) give
/// this object every job enqueued on that thread, and the thread's clocks read the reading
/// given (`clock_gettime` is interposed; see `VirtualClock`). The simulation then runs the jobs
/// due at its current instant with `runDueJobs(at:)`, and asks `nextDeadline` for when a sleep
/// next wakes.
///
/// Order. Jobs due at one instant run one at a time on the caller's thread. Main-actor jobs
/// keep their order among themselves (the main queue is FIFO); a default-executor job (a task,
/// an actor's turn, a resumed continuation) may run before or after them. When two or more
/// jobs could run next, `pick` chooses (0 is the first enqueued, which is the quiet answer);
/// without one, jobs run first enqueued, first run. Sleeps due at one instant become ready in
/// the order they were started.
///
/// Ending. `end()` drops every job and sleep of the process: the code after an `await` never
/// runs, as in a killed process. A dropped job is leaked, not destroyed (the runtime has no way
/// to destroy a job that never ran), so the memory its task holds stays allocated; a job
/// enqueued on the process after it ended is dropped too.
public final class VirtualProcess {
    /// A job of Swift concurrency, or a block of the app's Dispatch, run-loop or operation
    /// queue work (LifelineKit's `DispatchQueue`, `Timer`, `OperationQueue`).
    private enum Work {
        case job(UnownedJob)
        case block(() -> Void)
    }
    /// One piece of work and its lane: `Lane.main` (the main actor, the main queue, the main
    /// run loop), `Lane.concurrent` (free to run before or after anything), or a serial
    /// queue's own lane. Work of one lane other than `concurrent` runs in enqueue order.
    private struct Entry {
        var work: Work
        var lane: Int
        var onMain: Bool { lane == Lane.main }
    }
    private struct Sleep {
        var deadline: Int64
        var order: UInt64
        var entry: Entry
    }

    /// Chooses among `count` (>= 2) jobs that could run next: an index in `0..<count`.
    public var pick: ((Int) -> Int)? {
        get { state.pointee.pick }
        set { state.pointee.pick = newValue }
    }
    /// The virtual instant, in nanoseconds since the run's start, set by `withCurrent`.
    public var now: Int64 { state.pointee.now }
    /// True once `end()` ran: nothing of this process runs again.
    public var hasEnded: Bool { state.pointee.hasEnded }
    /// True while the thread runs the process's main thread: a main-actor job, or a callback
    /// into the app's code (`withCurrent(onMainThread: true)`).
    public var isOnMainThread: Bool { state.pointee.isOnMainThread }
    /// Jobs run, dropped at `end()` or after it, and sleeps started, since this object was made.
    public var jobsRun: Int { state.pointee.jobsRun }
    public var jobsDropped: Int { state.pointee.jobsDropped }
    public var sleepsStarted: Int { state.pointee.sleepsStarted }
    /// The most jobs `runDueJobs` runs at one instant before it declares a livelock.
    public var jobCountMaxPerInstant: Int {
        get { state.pointee.jobCountMaxPerInstant }
        set { state.pointee.jobCountMaxPerInstant = newValue }
    }
    /// Values of `ProcessLocal` boxes for this process (looked up by key, never iterated).
    var locals: [ObjectIdentifier: Any] {
        get { state.pointee.locals }
        _modify { yield &state.pointee.locals }
    }

    /// Everything mutable, behind one pointer: the world reads it at every callback, and as
    /// stored properties of a class each read paid a dynamic exclusivity check (a third of
    /// the cost this module added to `bench day`). One thread uses a process at a time.
    private struct State {
        var pick: ((Int) -> Int)?
        var now: Int64 = 0
        // invariant: ready holds jobs in enqueue order; sleeps is sorted by (deadline, order).
        var ready: [Entry] = []
        var sleeps: [Sleep] = []
        var sleepOrder: UInt64 = 0
        var hasEnded = false
        var isOnMainThread = false
        var jobsRun = 0
        var jobsDropped = 0
        var sleepsStarted = 0
        var locals: [ObjectIdentifier: Any] = [:]
        var jobCountMaxPerInstant = 1_000_000
        var currentLane = Lane.main
        /// What `end()` dropped, until it is released inside the process (`withCurrent`).
        var droppedWork: [Entry] = []
        /// The runtime's id of the task this process claimed last (`claims`), 0 for none.
        var lastClaimedTask: UInt64 = 0
    }
    private let state: UnsafeMutablePointer<State>

    /// This process's serial number (`VirtualProcess+Ownership`).
    let serial = VirtualProcess.nextSerial()

    public init(pick: ((Int) -> Int)? = nil) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(pick: pick))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The process whose jobs this thread collects now, if any.
    package static var current: VirtualProcess? {
        guard let pointer = lifeline_vc_current_process() else { return nil }
        return Unmanaged<VirtualProcess>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` as this process at virtual instant `now` (nanoseconds since the run's
    /// start) with the thread's clocks reading `clock`: jobs it enqueues (a `Task { }`, an
    /// actor call, a continuation it resumes) come to this process. `onMainThread`: `body` is
    /// app code on the process's main thread (a delegate callback), so `MainActor` isolation
    /// holds in it. The thread's previous process and clock are restored after.
    public func withCurrent<Result>(
        at now: Int64, clock: VirtualClockReading, onMainThread: Bool = true,
        _ body: () throws -> Result
    ) rethrows -> Result {
        precondition(
            now >= state.pointee.now || state.pointee.sleeps.isEmpty,
            "virtual time never runs backwards")
        state.pointee.now = now
        var saved = lifeline_vc_state()
        lifeline_vc_enter(
            Unmanaged.passUnretained(self).toOpaque(), clock.realtime, clock.monotonic,
            clock.boottime, &saved)
        let wasOnMainThread = state.pointee.isOnMainThread
        let wasLane = state.pointee.currentLane
        state.pointee.isOnMainThread = onMainThread
        state.pointee.currentLane = onMainThread ? Lane.main : Lane.concurrent
        defer {
            // The blocks `end()` dropped are released as this process: what their release runs
            // (a captured object's deinit) belongs to it, and an ended process runs nothing.
            if state.pointee.hasEnded, !state.pointee.droppedWork.isEmpty {
                state.pointee.droppedWork.removeAll()
            }
            state.pointee.isOnMainThread = wasOnMainThread
            state.pointee.currentLane = wasLane
            lifeline_vc_restore(&saved)
        }
        return try body()
    }

    /// Runs every job due at the current instant, including the ones those jobs enqueue and
    /// the sleeps whose deadline has come, until none is left; returns how many ran. Call it
    /// inside `withCurrent`. A process that keeps making jobs at one instant (a busy loop of
    /// `Task.yield()`) stops the run with a message after `jobCountMaxPerInstant`.
    /// `stop`, if given, is asked before each job: true ends the run of jobs (an assertion in
    /// one ended the process, say).
    @discardableResult
    public func runDueJobs(stop: (() -> Bool)? = nil) -> Int {
        precondition(VirtualProcess.current === self, "runDueJobs runs inside withCurrent")
        guard !state.pointee.hasEnded else { return 0 }
        var count = 0
        while true {
            wakeSleepers()
            guard !state.pointee.ready.isEmpty, !state.pointee.hasEnded, stop?() != true else {
                return count
            }
            let entry = state.pointee.ready.remove(at: nextIndex())
            count += 1
            state.pointee.jobsRun += 1
            precondition(
                count <= state.pointee.jobCountMaxPerInstant,
                "a simulated process ran \(count) jobs at one virtual instant without waiting "
                    + "(a busy loop of Task.yield() or of actor hops?)")
            run(entry)
        }
    }

    /// Runs `entry` on this thread as work of its lane.
    private func run(_ entry: Entry) {
        let wasOnMainThread = state.pointee.isOnMainThread
        let wasLane = state.pointee.currentLane
        state.pointee.isOnMainThread = entry.onMain
        state.pointee.currentLane = entry.lane
        switch entry.work {
        case .job(let job) where entry.onMain:
            job.runSynchronously(on: VirtualExecutorFactory.mainVirtual.asUnownedSerialExecutor())
        case .job(let job):
            job.runSynchronously(
                on: VirtualExecutorFactory.defaultVirtual.asUnownedTaskExecutor())
        case .block(let block):
            block()
        }
        state.pointee.isOnMainThread = wasOnMainThread
        state.pointee.currentLane = wasLane
    }

    /// While work on this thread waits (a `DispatchSemaphore` or `DispatchGroup` wait),
    /// runs the work ready now that another thread would run meanwhile: every lane but the
    /// waiting one, in the order `pick` chooses, until `isSatisfied` or none is left. Returns
    /// whether `isSatisfied` held. Sleeps due later are not run: the world's time does not
    /// move during a wait.
    package func runOtherLanes(whileWaiting isSatisfied: () -> Bool) -> Bool {
        let waiting = state.pointee.currentLane
        var count = 0
        while !isSatisfied() {
            wakeSleepers()
            guard !state.pointee.hasEnded,
                let index = nextIndex(excluding: waiting)
            else { return isSatisfied() }
            let entry = state.pointee.ready.remove(at: index)
            count += 1
            state.pointee.jobsRun += 1
            precondition(
                count <= state.pointee.jobCountMaxPerInstant,
                "a simulated process ran \(count) jobs at one virtual instant during a wait")
            run(entry)
        }
        return true
    }

    /// True when a job is ready or a sleep is due at `now` (nanoseconds since the run's start).
    public func hasDueJobs(at now: Int64) -> Bool {
        let state = state
        return !state.pointee.hasEnded
            && (!state.pointee.ready.isEmpty
                || (state.pointee.sleeps.first.map { $0.deadline <= now } ?? false))
    }

    /// When the earliest sleep wakes (nanoseconds since the run's start), if any is pending.
    public var nextDeadline: Int64? {
        state.pointee.hasEnded ? nil : state.pointee.sleeps.first?.deadline
    }

    /// Jobs ready and sleeps pending.
    public var pendingCount: Int { state.pointee.ready.count + state.pointee.sleeps.count }

    /// The process ended (killed, crashed, rebooted, purged): every job and sleep is dropped,
    /// and so is every job enqueued on it later; its `ProcessLocal` values go. Returns how
    /// many were dropped.
    @discardableResult
    public func end() -> Int {
        let dropped = pendingCount
        state.pointee.jobsDropped += dropped
        if dropped > 0 {
            state.pointee.droppedWork = state.pointee.ready + state.pointee.sleeps.map(\.entry)
        }
        state.pointee.ready.removeAll()
        state.pointee.sleeps.removeAll()
        state.pointee.locals.removeAll()
        state.pointee.hasEnded = true
        return dropped
    }

    // MARK: - From the executors

    /// A job enqueued while this process is current; `delay` (nanoseconds) for a sleep, nil
    /// when the sleep's clock is not a `Swift.Duration` clock.
    func accept(_ job: UnownedJob, onMain: Bool, after delay: Int64?? = .none) {
        guard !state.pointee.hasEnded else {
            state.pointee.jobsDropped += 1
            return
        }
        enqueue(Entry(work: .job(job), lane: onMain ? Lane.main : Lane.concurrent), after: delay)
    }

    /// Work of the app's own queues and run loops (LifelineKit), enqueued while this process is
    /// current: `block` runs on `lane` after `delay` nanoseconds (nil: now), at the simulation's
    /// choice among the work due at its instant, exactly as a job does; dropped if the process
    /// has ended or ends first.
    package func accept(block: @escaping () -> Void, lane: Int, after delay: Int64? = nil) {
        guard !state.pointee.hasEnded else {
            state.pointee.jobsDropped += 1
            return
        }
        enqueue(Entry(work: .block(block), lane: lane), after: delay.map { .some($0) } ?? .none)
    }

    /// Counts a job refused as another process's.
    func noteDropped() { state.pointee.jobsDropped += 1 }

    /// The task this process claimed last (`VirtualProcess+Ownership`).
    var lastClaimedTask: UInt64 {
        get { state.pointee.lastClaimedTask }
        set { state.pointee.lastClaimedTask = newValue }
    }

    /// The lane of the work running now on this thread (`Lane.main` in a callback).
    package var currentLane: Int { state.pointee.currentLane }

    /// Whether work of `lane` is ready now (not counting sleeps).
    package func hasReadyWork(onLane lane: Int) -> Bool {
        state.pointee.ready.contains { $0.lane == lane }
    }

    /// Runs `body` now, on this thread, as work of `lane` (a `DispatchQueue.sync`).
    package func runInline<Result>(onLane lane: Int, _ body: () throws -> Result) rethrows
        -> Result
    {
        let wasOnMainThread = state.pointee.isOnMainThread
        let wasLane = state.pointee.currentLane
        state.pointee.isOnMainThread = lane == Lane.main
        state.pointee.currentLane = lane
        defer {
            state.pointee.isOnMainThread = wasOnMainThread
            state.pointee.currentLane = wasLane
        }
        return try body()
    }

    private func enqueue(_ entry: Entry, after delay: Int64??) {
        switch delay {
        case .none:
            state.pointee.ready.append(entry)
        case .some(.none):
            preconditionFailure(
                "a simulated process slept on a clock whose duration is not Swift.Duration: "
                    + "only ContinuousClock and SuspendingClock sleeps run in virtual time")
        case .some(.some(let nanoseconds)):
            state.pointee.sleepsStarted += 1
            state.pointee.sleepOrder += 1
            let sleep = Sleep(
                deadline: state.pointee.now + max(0, nanoseconds),
                order: state.pointee.sleepOrder, entry: entry)
            // Sorted insertion after every sleep due no later (sleeps are few).
            let index =
                state.pointee.sleeps.lastIndex { $0.deadline <= sleep.deadline }.map { $0 + 1 }
                ?? 0
            state.pointee.sleeps.insert(sleep, at: index)
        }
    }

    // MARK: - Internals

    private func wakeSleepers() {
        while let first = state.pointee.sleeps.first, first.deadline <= state.pointee.now {
            state.pointee.ready.append(state.pointee.sleeps.removeFirst().entry)
        }
    }

    /// The index in `ready` of the job to run next: among the first job of each serial lane
    /// (the main actor and queue, each serial queue) and every job of the concurrent lane, as
    /// `pick` chooses.
    private func nextIndex() -> Int {
        guard state.pointee.ready.count >= 2, let pick = state.pointee.pick else { return 0 }
        return nextIndex(excluding: nil, pick: pick)!
    }

    /// The same, leaving out the serial lane `excluded` (nil when no work is ready outside it).
    private func nextIndex(excluding excluded: Int?, pick: ((Int) -> Int)? = nil) -> Int? {
        var candidates: [Int] = []
        var seenLanes: [Int] = []
        for (index, entry) in state.pointee.ready.enumerated() {
            if entry.lane != Lane.concurrent {
                if entry.lane == excluded || seenLanes.contains(entry.lane) { continue }
                seenLanes.append(entry.lane)
            }
            candidates.append(index)
        }
        guard candidates.count >= 2, let pick = pick ?? state.pointee.pick else {
            return candidates.first
        }
        let chosen = pick(candidates.count)
        precondition(chosen >= 0 && chosen < candidates.count, "a pick is one of the candidates")
        return candidates[chosen]
    }
}

/// The lanes of a process's work: which pieces keep their order among themselves.
package enum Lane {
    /// Free: a task, an actor's turn, a concurrent queue's block.
    package static let concurrent = 0
    /// The main thread: main-actor jobs, the main queue, the main run loop's timers.
    package static let main = 1
    /// A fresh lane for a serial queue of the app's own (only its identity matters: lanes
    /// never order work among lanes).
    package static func make() -> Int { nextLane.add(1, ordering: .relaxed).newValue }
    private static let nextLane = Atomic<Int>(1)
}
