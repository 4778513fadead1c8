// The wall clock, read only to enforce an optional time budget on open-ended exploration
// (never inside a simulation, and never when a run must be machine-independent).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum WallClockForBudgets {
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
