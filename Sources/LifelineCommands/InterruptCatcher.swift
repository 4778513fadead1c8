// Ctrl-C during a long command (the CLI layer): the first SIGINT asks the run to stop between
// cases (a shrink stops at its simplest failure so far), so it ends cleanly with what it has;
// a second one ends it at once, still printing the simplest failure found.
import Dispatch
import Foundation
import Fuzzing

/// Catches SIGINT while it lives. Every one requests `stop` and is passed to `then` with the
/// number of requests so far (1 for the first), which decides what else it does: the
/// supervisor passes it on to its worker process (`RunningChild`), a worker process does
/// nothing more, an in-process run ends the process on a second one (`endingOnSecond`).
/// Signals that arrive together are counted one by one.
final class InterruptCatcher {
    private let source: DispatchSourceSignal

    /// - Parameter announces: says on standard error what each Ctrl-C does (not in a worker
    ///   process, whose supervisor speaks), after the tool's name `toolName`.
    init(
        _ stop: FuzzStop, announces: Bool, toolName: String = "lifeline",
        then: @escaping @Sendable (Int) -> Void
    ) {
        signal(SIGINT, SIG_IGN)  // the source sees it; the default action must not end us
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [source] in
            for _ in 0..<max(Int(source.data), 1) {
                stop.request()
                let requests = stop.requests
                if announces, requests <= 2 {
                    let text =
                        requests == 1
                        ? "\(toolName): Ctrl-C: stopping: no new case starts, a shrink ends at "
                            + "its simplest failure so far (Ctrl-C again ends at once)"
                        : "\(toolName): Ctrl-C again: ending at once"
                    FileHandle.standardError.write(Data((text + "\n").utf8))
                }
                then(requests)
            }
        }
        source.resume()
    }

    /// Stops catching: Ctrl-C ends the process again.
    func release() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Ends the process as Ctrl-C ends any process on the second request, unless `keeps` says
    /// it is holding a failure that the first request is already ending the run to print.
    static func endingOnSecond(unless keeps: @escaping @Sendable () -> Bool)
        -> @Sendable (Int) -> Void
    {
        { requests in
            guard requests >= 2, !keeps() else { return }
            signal(SIGINT, SIG_DFL)
            raise(SIGINT)
        }
    }
}

/// The worker process a supervising `lifeline fuzz` runs now, so that Ctrl-C reaches it
/// whether or not the terminal sent it there too: the first is passed on (the worker stops as
/// the supervisor does, and reports), a second kills it at once (the supervisor then reports
/// the simplest failure the worker had told it of).
final class RunningChild: @unchecked Sendable {
    // invariant: `pid` is read and written only under `lock`; it is cleared before the
    // process is waited for, so a pid reused by another process is never signalled.
    private let lock = NSLock()
    private var pid: pid_t?
    private var requests = 0

    func started(_ pid: pid_t) {
        lock.withLock {
            self.pid = pid
            if requests >= 1 { _ = kill(pid, requests >= 2 ? SIGKILL : SIGINT) }
        }
    }

    func ended() { lock.withLock { pid = nil } }

    /// Passes on the interrupt that made `requests` requests so far.
    func interrupt(requests: Int) {
        lock.withLock {
            self.requests = requests
            guard let pid else { return }
            _ = kill(pid, requests >= 2 ? SIGKILL : SIGINT)
        }
    }
}

/// Whether an in-process run is shrinking a failure (told through `FuzzSettings.caseObserver`),
/// so that a second Ctrl-C does not end the process before the failure is printed: the first
/// already ends the shrink at its next run.
final class ShrinkWatch: @unchecked Sendable {
    // invariant: `shrinking` is read and written only under `lock`.
    private let lock = NSLock()
    private var shrinking = false

    var isShrinking: Bool { lock.withLock { shrinking } }

    /// An observer that notes when a shrink begins.
    var observer: FuzzCaseObserver {
        FuzzCaseObserver(wantsChoices: false) { [self] event in
            guard case .shrinking = event else { return }
            lock.withLock { shrinking = true }
        }
    }
}
