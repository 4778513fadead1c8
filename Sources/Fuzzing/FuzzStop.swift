// Stopping a fuzzing run from outside (layer 5): Ctrl-C sets the flag, the workers read it
// between cases, and the run ends with the cases finished so far.
import Foundation

/// A flag that, once set, stops a fuzzing run from starting new cases. The cases already
/// started finish and count (`FuzzReport.cases` is still a prefix of the case indices); the
/// report says the run was interrupted. Set from any thread (a signal handler's queue, say).
public final class FuzzStop: @unchecked Sendable {
    // invariant: `requested` is read and written only under `lock`.
    private let lock = NSLock()
    private var requested = false

    public init() {}

    /// Whether a stop was asked for.
    public var isRequested: Bool { lock.withLock { requested } }

    /// Asks the run to stop; returns whether it had been asked already.
    @discardableResult
    public func request() -> Bool {
        lock.withLock {
            defer { requested = true }
            return requested
        }
    }
}
