// Ctrl-C during a long command (the CLI layer): the first SIGINT asks the run to stop between
// cases, so it ends cleanly with its summary; a second one ends the process at once.
import Dispatch
import Foundation
import Fuzzing

/// Catches SIGINT while it lives: the first requests `stop`; a second, if the run has not
/// ended yet (it may be shrinking a failure), restores the default action and raises the
/// signal again, so the process ends as Ctrl-C ends any process.
final class InterruptCatcher {
    private let source: DispatchSourceSignal

    init(_ stop: FuzzStop) {
        signal(SIGINT, SIG_IGN)  // the source sees it; the default action must not end us
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            guard stop.request() else { return }
            signal(SIGINT, SIG_DFL)
            raise(SIGINT)
        }
        source.resume()
    }

    /// Stops catching: Ctrl-C ends the process again.
    func release() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
