// What a benchmark reads of the process itself: its peak resident memory.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Measurements of the running process, for benchmarks.
package enum ProcessMemory {
    /// The process's peak resident memory so far in bytes (Linux `VmHWM`), or nil elsewhere.
    package static func peakResidentBytes() -> Int? {
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
