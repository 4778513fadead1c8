import Foundation

// The processor time a child process, or one of its threads, has used (layer 5): what a hang's
// timeout counts, so that a case slowed down by a loaded machine is not taken for a hang.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds of processor time (user and system) used so far, read from Linux's `/proc`. Read only
/// to decide when a case has hung, never for what a result says. Elsewhere, and when `/proc`
/// cannot be read, every reading is nil and a timeout counts wall-clock time instead.
package enum ProcessorTime {
    /// The calling thread's id in `/proc` (`/proc/thread-self` names `PID/task/TID`), or nil.
    package static func currentThread() -> Int32? {
        #if os(Linux)
            var name = [UInt8](repeating: 0, count: 64)
            let count = name.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    readlink("/proc/thread-self", $0.baseAddress!, $0.count - 1)
                }
            }
            guard count > 0 else { return nil }
            let link = String(decoding: name[..<count], as: UTF8.self)
            return link.split(separator: "/").last.flatMap { Int32($0) }
        #else
            return nil
        #endif
    }

    /// The seconds process `pid` has used, or only its thread `thread` when given.
    package static func seconds(process pid: pid_t, thread: Int32? = nil) -> Double? {
        #if os(Linux)
            let path = thread.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
            guard let stat = try? String(contentsOfFile: path, encoding: .utf8) else {
                return nil
            }
            return seconds(fromStat: stat)
        #else
            return nil
        #endif
    }

    /// The user and system times of a `/proc/…/stat` line, in seconds: fields 14 and 15 in
    /// clock ticks, counted after the command name, which is in parentheses and may hold
    /// spaces.
    static func seconds(fromStat stat: String) -> Double? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        // The fields after the name start at field 3 (the state).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
        else { return nil }
        return (user + system) / ticksPerSecond
    }

    static let ticksPerSecond: Double = {
        #if os(Linux)
            let ticks = sysconf(Int32(_SC_CLK_TCK))
            return ticks > 0 ? Double(ticks) : 100
        #else
            return 100
        #endif
    }()
}
