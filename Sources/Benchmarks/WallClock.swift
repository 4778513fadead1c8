// Wall-clock time for benchmarks only: it measures how long a run took, and never reaches a
// simulation (which has only virtual time).
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The monotonic wall clock, read by benchmarks around a run.
public enum WallClock {
    /// Seconds on the monotonic clock (an arbitrary origin).
    public static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The process's peak resident memory so far in bytes (Linux `VmHWM`), or nil elsewhere.
    public static func peakResidentBytes() -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(
                decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmHWM:") {
                let digits = text.filter(\.isNumber)
                return Int(digits).map { $0 * 1024 }
            }
        }
        return nil
    }
}
