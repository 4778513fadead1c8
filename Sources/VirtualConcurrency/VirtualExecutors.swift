import CVirtualClock
import Synchronization
// Swift concurrency in virtual time: the process's main and default executors, replaced through
// the runtime's executor factory (`_createExecutors(factory:)`, the custom main and global
// executors pitch, SPI in Swift 6.3), so that every job a simulated app's code makes, and every
// `Task.sleep`, reaches the simulation instead of Dispatch.
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// Turns Swift concurrency's executors into virtual ones, process-wide.
///
/// Installed, the main and default executors route each job by the thread that enqueues it: a
/// thread running a `VirtualProcess` (`VirtualProcess.withCurrent`) collects the job in that
/// process, to be run at the current virtual instant (`runDueJobs`) or, for a `Task.sleep`, at
/// its virtual deadline; every other thread hands it to the platform's own executors
/// (`PlatformExecutorFactory`, Dispatch on Linux), so the rest of the program (a test runner,
/// the tool's worker threads) runs as before.
///
/// **When to install.** The C half of this module installs the executors when the program
/// loads (a constructor that runs before `main`, before any task exists), unless the
/// environment sets `LIFELINE_VIRTUAL_CONCURRENCY=0`: a program that links this module has
/// nothing to call. Measured on Swift 6.3.1 (Linux), installing later also works, even after
/// tasks ran on the platform executors (they finish there; later jobs come here), but it
/// writes two globals the runtime reads without a lock, so a late `install()` must not race
/// with other threads starting tasks.
public enum VirtualConcurrency {
    private static let installed = Mutex(false)

    /// Installs the virtual executors (idempotent). Normally done at load; see the type's doc.
    public static func install() {
        installed.withLock { done in
            guard !done else { return }
            _createExecutors(factory: VirtualExecutorFactory.self)
            done = true
        }
    }

    /// True when the runtime's default and main executors are this module's: a simulated
    /// process's jobs then run in virtual time. False when the environment turned them off
    /// or another executor factory was installed after them.
    public static var isInstalled: Bool {
        Task.defaultExecutor === VirtualExecutorFactory.defaultVirtual
            && MainActor.executor === VirtualExecutorFactory.mainVirtual
    }

    /// Stops with a clear message unless the virtual executors are installed: for code that
    /// uses Swift concurrency and would otherwise run on Dispatch's threads in real time,
    /// nondeterministically.
    public static func requireInstalled(
        _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
    ) {
        guard !isInstalled else { return }
        preconditionFailure(
            "\(what()) uses Swift concurrency, but the virtual executors are not installed: "
                + "link the VirtualConcurrency module (World links it) and do not set "
                + "LIFELINE_VIRTUAL_CONCURRENCY=0, or call VirtualConcurrency.install() before "
                + "any task starts (docs/concurrency.md)",
            file: file, line: line)
    }
}

/// Called by the C constructor in CVirtualClock when the program loads.
@_cdecl("lifeline_virtual_concurrency_install_at_load")
func lifelineVirtualConcurrencyInstallAtLoad() {
    if let setting = getenv("LIFELINE_VIRTUAL_CONCURRENCY"), String(cString: setting) == "0" {
        return
    }
    VirtualConcurrency.install()
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The factory the runtime asks for its two executors.
enum VirtualExecutorFactory: ExecutorFactory {
    static let mainVirtual = VirtualMainExecutor()
    static let defaultVirtual = VirtualDefaultExecutor()
    static var mainExecutor: any MainExecutor { mainVirtual }
    static var defaultExecutor: any TaskExecutor { defaultVirtual }
}

/// The delay of a sleep in nanoseconds: a `Swift.Duration` (the continuous and suspending
/// clocks) or nil for another clock's duration.
func nanoseconds<D>(of delay: D) -> Int64? {
    guard let duration = delay as? Duration else { return nil }
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
}

/// The executor of `@MainActor` code. In a simulated process it is the process's main thread:
/// its jobs run one at a time, first enqueued first run (as on the main queue).
final class VirtualMainExecutor: MainExecutor, SchedulingExecutor, @unchecked Sendable {
    private let platform = PlatformExecutorFactory.mainExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        if let process = VirtualProcess.current {
            let unowned = UnownedJob(job)
            guard process.claims(unowned) else { return }
            process.accept(unowned, onMain: true)
        } else {
            platform.enqueue(job)
        }
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        if let process = VirtualProcess.current {
            let unowned = UnownedJob(job)
            guard process.claims(unowned) else { return }
            process.accept(unowned, onMain: true, after: nanoseconds(of: delay))
        } else if let scheduling = platform as? any SchedulingExecutor {
            scheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        } else {
            VirtualExecutorFactory.defaultVirtual.enqueue(
                job, after: delay, tolerance: tolerance, clock: clock)
        }
    }

    func run() throws { try platform.run() }
    func stop() { platform.stop() }

    func checkIsolated() {
        if let process = VirtualProcess.current {
            precondition(
                process.isOnMainThread,
                "MainActor-isolated code ran off the simulated process's main thread")
            return
        }
        platform.checkIsolated()
    }

    func isIsolatingCurrentContext() -> Bool? {
        if let process = VirtualProcess.current { return process.isOnMainThread }
        return platform.isIsolatingCurrentContext()
    }
}

/// The global concurrent executor: tasks, actors and continuations resumed off the main actor.
final class VirtualDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private let platform = PlatformExecutorFactory.defaultExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        if let process = VirtualProcess.current {
            let unowned = UnownedJob(job)
            guard process.claims(unowned) else { return }
            process.accept(unowned, onMain: false)
        } else {
            platform.enqueue(job)
        }
    }

    func enqueue<C: Clock>(
        _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
        if let process = VirtualProcess.current {
            let unowned = UnownedJob(job)
            guard process.claims(unowned) else { return }
            process.accept(unowned, onMain: false, after: nanoseconds(of: delay))
        } else if let scheduling = platform as? any SchedulingExecutor {
            scheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
        } else {
            preconditionFailure("the platform's default executor cannot schedule a sleep")
        }
    }
}
