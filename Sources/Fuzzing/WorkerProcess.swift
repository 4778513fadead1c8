import Foundation
import Simulation

// A child process the fuzzer supervises (layer 5): started with `posix_spawn`, spoken to over
// pipes, read line by line with a wall-clock deadline, and waited for, so that a trap, a bad
// access or a hang in the code it runs ends only the child.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One child process: its standard input (`send`), its standard output (`readLine`), and
/// optionally a third stream on its descriptor 3 (`readEvent`); its standard error goes to a
/// file or is discarded. The wall clock is read only for deadlines (a hang's timeout), never
/// for what a result says.
package final class WorkerProcess {
    /// How a child ended.
    package enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (`SIGTRAP` for a Swift runtime trap on Linux, `SIGILL` on
        /// Apple's platforms, `SIGSEGV`, `SIGBUS`, `SIGABRT`, or `SIGKILL` when it hung and was
        /// killed).
        case signalled(Int32)
    }

    /// What reading a line gave.
    package enum Read: Equatable {
        case line(String)
        /// The stream ended (the child closed it or died).
        case end
        /// The deadline passed first.
        case timeout
    }

    package let pid: pid_t
    private var input: Int32
    private let output: LineReader?
    private let events: LineReader?
    private var termination: Termination?

    /// The path of the running executable (`/proc/self/exe` on Linux), so that a process can
    /// start itself again as a worker.
    package static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments[0]
    }

    /// Starts `executable` with `arguments` (after its name).
    /// - Parameters:
    ///   - pipesStandardStreams: standard input and output are pipes to this object; otherwise
    ///     the child shares the caller's.
    ///   - eventStream: descriptor 3 of the child is a pipe this object reads (`readEvent`).
    ///   - standardErrorPath: where its standard error goes; nil shares the caller's.
    ///   - errorJoinsOutput: its standard error goes to the standard output's pipe instead
    ///     (with `pipesStandardStreams`), so that one reader sees both in order.
    ///   - environment: variables set besides the caller's.
    /// - Throws: `WorkerProcess.Failure` when it cannot be started.
    package init(
        executable: String, arguments: [String], pipesStandardStreams: Bool,
        eventStream: Bool, standardErrorPath: String?, errorJoinsOutput: Bool = false,
        environment: [String: String] = [:]
    ) throws {
        Self.ignoreBrokenPipes()
        // Pipes are made and marked close-on-exec, and the child spawned, under one lock: a
        // child spawned by another thread between a `pipe()` and its `fcntl` would inherit
        // this child's pipe ends and hold them open, and a reader of this child would then
        // wait for that other process's end instead of this one's.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var closeAfter: [Int32] = []
        var childInput: Int32 = -1
        var childOutput: Int32 = -1
        var childEvents: Int32 = -1
        if pipesStandardStreams {
            let (read, write) = try Self.pipe()
            posix_spawn_file_actions_adddup2(&actions, read, 0)
            childInput = write
            closeAfter.append(read)
            let (outRead, outWrite) = try Self.pipe()
            posix_spawn_file_actions_adddup2(&actions, outWrite, 1)
            if errorJoinsOutput { posix_spawn_file_actions_adddup2(&actions, outWrite, 2) }
            childOutput = outRead
            closeAfter.append(outWrite)
        }
        if eventStream {
            let (read, write) = try Self.pipe()
            posix_spawn_file_actions_adddup2(&actions, write, 3)
            childEvents = read
            closeAfter.append(write)
        }
        if let standardErrorPath, !(errorJoinsOutput && pipesStandardStreams) {
            posix_spawn_file_actions_addopen(
                &actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if environment[name] == nil { variables.append(text) }
            index += 1
        }
        variables += environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for descriptor in closeAfter { _ = close(descriptor) }
        guard status == 0 else {
            for descriptor in [childInput, childOutput, childEvents] where descriptor >= 0 {
                _ = close(descriptor)
            }
            throw Failure(message: "cannot start \(executable): error \(status)")
        }
        self.pid = pid
        input = childInput
        output = childOutput >= 0 ? LineReader(childOutput) : nil
        events = childEvents >= 0 ? LineReader(childEvents) : nil
    }

    deinit {
        if termination == nil {
            _ = sendSignal(pid, SIGKILL)
            _ = wait()
        }
        closeInput()
    }

    /// Why a child could not be started.
    package struct Failure: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Writes `bytes` to the child's standard input; false when it is gone.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
        guard input >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                write(input, $0.baseAddress, $0.count)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Closes the child's standard input: it reads the end of its requests.
    package func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// The next line of the child's standard output, waiting until `deadline` (wall-clock
    /// seconds, `WallClock.seconds()`) at most when given.
    package func readLine(until deadline: Double? = nil) -> Read {
        output?.readLine(until: deadline) ?? .end
    }

    /// The next line the child wrote on its descriptor 3.
    package func readEvent(until deadline: Double? = nil) -> Read {
        events?.readLine(until: deadline) ?? .end
    }

    /// Ends the child at once (it hung).
    package func kill() { _ = sendSignal(pid, SIGKILL) }

    /// Waits for the child to end and says how.
    @discardableResult
    package func wait() -> Termination {
        if let termination { return termination }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        let ended: Termination =
            signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        termination = ended
        return ended
    }

    /// A signal's name and what it usually means in a Swift program.
    package static func describe(signal: Int32) -> String {
        switch signal {
        case SIGTRAP:
            "SIGTRAP (a Swift runtime trap: a failed precondition, an index out of "
                + "range, a force unwrap of nil, an overflow)"
        case SIGILL: "SIGILL (a Swift runtime trap)"
        case SIGSEGV: "SIGSEGV (a bad memory access)"
        case SIGBUS: "SIGBUS (a bad memory access)"
        case SIGABRT: "SIGABRT (an abort)"
        case SIGFPE: "SIGFPE (an arithmetic fault)"
        case SIGKILL: "SIGKILL (killed)"
        default: "signal \(signal)"
        }
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard makePipe(&fds) == 0 else {
            throw Failure(message: "cannot make a pipe: error \(errno)")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Held while pipes are made and a child is spawned (`init`).
    private static let spawnLock = NSLock()

    /// A write to a worker that died must be an error, not the supervisor's own death.
    private static func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
}

// The C functions under names of their own: inside the classes above, `kill`, `pipe` and
// `read` would find the methods first.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
private func makePipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { pipe(fds) }

/// Lines read from a descriptor through a buffer, with an optional wall-clock deadline.
package final class LineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    package init(_ fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// The next line (without its newline); `.end` at the end of the stream (a last line
    /// without a newline is dropped: a child that died mid-line did not finish saying it).
    package func readLine(until deadline: Double? = nil) -> WorkerProcess.Read {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if start > 65_536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return .line(line)
            }
            if ended { return .end }
            if let deadline {
                let left = deadline - WallClock.seconds()
                guard left > 0 else { return .timeout }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min(left * 1000, 60_000)) + 1)
                if ready == 0 { continue }
                if ready < 0 && errno == EINTR { continue }
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                continue
            }
            buffer += chunk[..<count]
        }
    }

    /// Exactly `count` bytes (nil when the stream ends first).
    package func readBytes(_ count: Int) -> [UInt8]? {
        while buffer.count - start < count {
            if ended { return nil }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let read = chunk.withUnsafeMutableBytes { readDescriptor(fd, $0) }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 {
                ended = true
                continue
            }
            buffer += chunk[..<read]
        }
        let bytes = Array(buffer[start..<start + count])
        start += count
        return bytes
    }
}

private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
