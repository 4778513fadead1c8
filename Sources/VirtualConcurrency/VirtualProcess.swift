// One simulated process's Swift concurrency: the jobs its code made, due now or at a virtual
// deadline, run by the simulation at the instants it chooses, and dropped when the process ends.
import CVirtualClock

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
    private struct Entry {
        var job: UnownedJob
        var onMain: Bool
    }
    private struct Sleep {
        var deadline: Int64
        var order: UInt64
        var entry: Entry
    }

    /// Chooses among `count` (>= 2) jobs that could run next: an index in `0..<count`.
    public var pick: ((Int) -> Int)?
    /// The clock reading for `runDueJobs` (set by `withCurrent`).
    private var reading = VirtualClockReading(realtime: 0, monotonic: 0, boottime: 0)
    /// The virtual instant, in nanoseconds since the run's start, set by `withCurrent`.
    public private(set) var now: Int64 = 0
    // invariant: ready holds jobs in enqueue order; sleeps is sorted by (deadline, order).
    private var ready: [Entry] = []
    private var sleeps: [Sleep] = []
    private var sleepOrder: UInt64 = 0
    /// True once `end()` ran: nothing of this process runs again.
    public private(set) var hasEnded = false
    /// True while the thread runs the process's main thread: a main-actor job, or a callback
    /// into the app's code (`withCurrent(onMainThread: true)`).
    public private(set) var isOnMainThread = false
    /// Jobs run, dropped at `end()` or after it, and sleeps started, since this object was made.
    public private(set) var jobsRun = 0
    public private(set) var jobsDropped = 0
    public private(set) var sleepsStarted = 0
    /// Values of `ProcessLocal` boxes for this process.
    var locals: [ObjectIdentifier: Any] = [:]
    /// The most jobs `runDueJobs` runs at one instant before it declares a livelock.
    public var jobCountMaxPerInstant = 1_000_000

    public init(pick: ((Int) -> Int)? = nil) { self.pick = pick }

    /// The process whose jobs this thread collects now, if any.
    static var current: VirtualProcess? {
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
        precondition(now >= self.now || sleeps.isEmpty, "virtual time never runs backwards")
        self.now = now
        reading = clock
        let previousProcess = lifeline_vc_current_process()
        let wasVirtual = lifeline_vc_clock_is_virtual() != 0
        let wasOnMainThread = isOnMainThread
        lifeline_vc_set_current_process(Unmanaged.passUnretained(self).toOpaque())
        lifeline_vc_clock_set(clock.realtime, clock.monotonic, clock.boottime)
        isOnMainThread = onMainThread
        defer {
            isOnMainThread = wasOnMainThread
            lifeline_vc_set_current_process(previousProcess)
            if !wasVirtual { lifeline_vc_clock_clear() }
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
        guard !hasEnded else { return 0 }
        var count = 0
        while true {
            wakeSleepers()
            guard !ready.isEmpty, !hasEnded, stop?() != true else { return count }
            let entry = ready.remove(at: nextIndex())
            count += 1
            jobsRun += 1
            precondition(
                count <= jobCountMaxPerInstant,
                "a simulated process ran \(count) jobs at one virtual instant without waiting "
                    + "(a busy loop of Task.yield() or of actor hops?)")
            if entry.onMain {
                let wasOnMainThread = isOnMainThread
                isOnMainThread = true
                entry.job.runSynchronously(
                    on: VirtualExecutorFactory.mainVirtual.asUnownedSerialExecutor())
                isOnMainThread = wasOnMainThread
            } else {
                let wasOnMainThread = isOnMainThread
                isOnMainThread = false
                entry.job.runSynchronously(
                    on: VirtualExecutorFactory.defaultVirtual.asUnownedTaskExecutor())
                isOnMainThread = wasOnMainThread
            }
        }
    }

    /// True when a job is ready or a sleep is due at `now` (nanoseconds since the run's start).
    public func hasDueJobs(at now: Int64) -> Bool {
        !hasEnded && (!ready.isEmpty || (sleeps.first.map { $0.deadline <= now } ?? false))
    }

    /// When the earliest sleep wakes (nanoseconds since the run's start), if any is pending.
    public var nextDeadline: Int64? { hasEnded ? nil : sleeps.first?.deadline }

    /// Jobs ready and sleeps pending.
    public var pendingCount: Int { ready.count + sleeps.count }

    /// The process ended (killed, crashed, rebooted, purged): every job and sleep is dropped,
    /// and so is every job enqueued on it later; its `ProcessLocal` values go. Returns how
    /// many were dropped.
    @discardableResult
    public func end() -> Int {
        let dropped = ready.count + sleeps.count
        jobsDropped += dropped
        ready.removeAll()
        sleeps.removeAll()
        locals.removeAll()
        hasEnded = true
        return dropped
    }

    // MARK: - From the executors

    /// A job enqueued while this process is current; `delay` (nanoseconds) for a sleep, nil
    /// when the sleep's clock is not a `Swift.Duration` clock.
    func accept(_ job: UnownedJob, onMain: Bool, after delay: Int64?? = .none) {
        guard !hasEnded else {
            jobsDropped += 1
            return
        }
        let entry = Entry(job: job, onMain: onMain)
        switch delay {
        case .none:
            ready.append(entry)
        case .some(.none):
            preconditionFailure(
                "a simulated process slept on a clock whose duration is not Swift.Duration: "
                    + "only ContinuousClock and SuspendingClock sleeps run in virtual time")
        case .some(.some(let nanoseconds)):
            sleepsStarted += 1
            sleepOrder += 1
            let sleep = Sleep(
                deadline: now + max(0, nanoseconds), order: sleepOrder, entry: entry)
            // Sorted insertion after every sleep due no later (sleeps are few).
            let index = sleeps.lastIndex { $0.deadline <= sleep.deadline }.map { $0 + 1 } ?? 0
            sleeps.insert(sleep, at: index)
        }
    }

    // MARK: - Internals

    private func wakeSleepers() {
        while let first = sleeps.first, first.deadline <= now {
            ready.append(sleeps.removeFirst().entry)
        }
    }

    /// The index in `ready` of the job to run next: among the first main-actor job and every
    /// default-executor job, as `pick` chooses.
    private func nextIndex() -> Int {
        guard ready.count >= 2, let pick else { return 0 }
        var candidates: [Int] = []
        var sawMain = false
        for (index, entry) in ready.enumerated() {
            if entry.onMain {
                if sawMain { continue }
                sawMain = true
            }
            candidates.append(index)
        }
        guard candidates.count >= 2 else { return candidates[0] }
        let chosen = pick(candidates.count)
        precondition(chosen >= 0 && chosen < candidates.count, "a pick is one of the candidates")
        return candidates[chosen]
    }
}
