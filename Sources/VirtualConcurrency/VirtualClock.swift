// The clocks of the program as a simulated process reads them.
import CVirtualClock

/// The thread-scoped virtual clock that `VirtualProcess.withCurrent` sets.
///
/// This module's C half defines `clock_gettime`, `gettimeofday` and `time` in the program that
/// links it; the dynamic linker binds Foundation's and the Swift runtime's calls to them, so on
/// a thread inside `withCurrent` `Date()`, `Date.now`, `timeIntervalSinceNow`,
/// `ProcessInfo.systemUptime`, `ContinuousClock.now`, `SuspendingClock.now` and the deadline
/// of `Task.sleep` are virtual, and on every other thread they are real. `isInterposed` says
/// whether the binding took.
public enum VirtualClock {
    /// True when this program's clock reads go through the interposed `clock_gettime`: a
    /// reading inside a virtual scope returns the virtual time (checked once, on first use).
    public static let isInterposed: Bool = {
        let process = VirtualProcess()
        let reading = VirtualClockReading(
            realtime: 1_000_000_000, monotonic: 2_000_000_000, boottime: 3_000_000_000)
        return process.withCurrent(at: 0, clock: reading) {
            // `ContinuousClock.now` is read by the Swift runtime's own call to clock_gettime:
            // the virtual clock counts it only when the runtime's call was bound to it.
            let before = lifeline_vc_clock_virtual_reads()
            let first = ContinuousClock.now
            let second = ContinuousClock.now
            return first == second && lifeline_vc_clock_virtual_reads() - before == 2
        }
    }()

    /// Nanoseconds of the C library's real `clock_gettime(CLOCK_BOOTTIME)`, whatever the
    /// thread's state (for tests).
    public static func realBoottimeNanoseconds() -> Int64 {
        var seconds: Int64 = 0
        var nanoseconds: Int64 = 0
        _ = lifeline_vc_real_clock_gettime(7, &seconds, &nanoseconds)
        return seconds * 1_000_000_000 + nanoseconds
    }
}
