// The C allocator's settings for a process that runs many simulations in a row (layer 6): keep
// freed memory for the next run instead of returning it to the system after each.
#if canImport(Glibc)
    import Glibc
#endif

/// How the process's allocator treats memory a finished run frees.
///
/// A fuzzer runs thousands of short worlds in a row, each allocating and freeing a few hundred
/// kilobytes. glibc's malloc returns the top of its heap to the system once more than its trim
/// threshold is free (128 KB, raised only as far as the largest block it has mapped and
/// freed), so the next run faulted the same pages in again: `lifeline bench fuzz --jobs 1` took
/// 40 to 56 page faults a scenario once the app's log was kept in segments (2 to 14 before).
/// Keeping up to 256 MB freed, and serving blocks under 32 MB (glibc's largest mapping
/// threshold on 64-bit) from the heap, brings that to about 1.3 (docs/benchmarks.md). It
/// changes no result: only where freed memory waits. Elsewhere than glibc it does nothing.
package enum HeapRetention {
    /// Free memory kept at the top of the heap before any is returned.
    static let trimThresholdBytes: Int32 = 256 << 20
    /// Blocks at least this large are mapped on their own (and unmapped when freed).
    static let mmapThresholdBytes: Int32 = 32 << 20

    /// Applies the settings to this process (each worker process applies its own): true when
    /// the allocator took both, false where there is no glibc or it refused one.
    @discardableResult
    package static func apply() -> Bool {
        #if canImport(Glibc)
            // `mallopt` is declared in malloc.h, which the Glibc module does not export: found
            // by name, with its parameters' values from that header.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else {
                return false
            }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            // mallopt returns 1 on success, 0 on error.
            let trim = mallopt(trimThresholdParameter, trimThresholdBytes)
            let mmap = mallopt(mmapThresholdParameter, mmapThresholdBytes)
            return trim == 1 && mmap == 1
        #else
            return false
        #endif
    }

    /// malloc.h's `M_TRIM_THRESHOLD`.
    private static let trimThresholdParameter: Int32 = -1
    /// malloc.h's `M_MMAP_THRESHOLD`.
    private static let mmapThresholdParameter: Int32 = -3
}
