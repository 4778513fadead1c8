// Stopping a fuzzing run from outside (layer 5): Ctrl-C sets the flag, the workers read it
// between cases, a shrink reads it between runs, and the run ends with what it has so far.
import Foundation

/// A flag that, once set, stops a fuzzing run from starting new cases and a shrink from trying
/// more candidates. The cases already started finish and count (`FuzzReport.cases` is still a
/// prefix of the case indices); the report says the run was interrupted, and a failure being
/// shrunk is reported as the smallest found so far. Set from any thread (a signal handler's
/// queue, say).
public final class FuzzStop: @unchecked Sendable {
    // invariant: `requestCount` is read and written only under `lock`.
    private let lock = NSLock()
    private var requestCount = 0

    public init() {}

    /// Whether a stop was asked for.
    public var isRequested: Bool { lock.withLock { requestCount > 0 } }

    /// How many times a stop was asked for (a second Ctrl-C ends a run at once).
    public var requests: Int { lock.withLock { requestCount } }

    /// Asks the run to stop; returns whether it had been asked already.
    @discardableResult
    public func request() -> Bool {
        lock.withLock {
            defer { requestCount += 1 }
            return requestCount > 0
        }
    }
}
