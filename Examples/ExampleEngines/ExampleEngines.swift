// Every example tracker of Examples/ as an engine, for the `lifeline-examples` tool and the
// LifelineKit tests.
import Engines

/// The example trackers' engines by name: each example as written, its twin where it has one
/// (the same tracker timed with `Task.sleep` or kept in the project's store, which must get
/// the same verdicts), and its planted mistake (which the fuzzer must find).
package enum ExampleEngines {
    /// Every example engine, the correct ones first.
    package static let all: [CustomEngine] = [
        delegateTracker, FileSharer.example, FileSharer.twin, batchedReporter, sleepingReporter,
        debouncedRecorder, sleepingRecorder, motionTracker, FileSharer.completeWhileLocked,
        unscheduledTimerReporter, stillWritingRecorder, everythingOffTracker,
    ]
}
