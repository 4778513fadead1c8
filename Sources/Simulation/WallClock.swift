// The wall clock (layer 1): read only around a run, to time a benchmark or to enforce an
// optional time budget. A simulation never reads it; it has only virtual time.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic wall clock, for measuring runs and bounding open-ended work.
public enum WallClock {
    /// Seconds on the monotonic clock (an arbitrary origin).
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
