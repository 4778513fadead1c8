// The session engine's seams (layer 4): the decisions a package-internal builder may replace
// (the EngineMutants target plants one mistake at a time through them).
import Simulation
import World

extension SessionEngine {
    /// The decisions of the session engine that another target of the package may replace.
    /// Each default is the engine's own, correct behaviour; `SessionEngine(settings)` uses them
    /// all.
    package struct Seams: Sendable {
        /// Whether the background activity session may begin, given the app's state and
        /// whether a background launch is restoring: in the foreground, or as a rejoin while
        /// a background launch restores (R-C5, R-B10).
        package var activitySessionDue:
            @Sendable (_ appState: ProcessState, _ restoring: Bool)
                -> Bool = { appState, restoring in appState == .foreground || restoring }
        /// Whether a lifecycle change considers beginning the session even while no stream
        /// runs (false: a deferred session is begun only for a running stream).
        package var lifecycleChecksSessionWithoutStream = false
        /// Work at a resuming launch before the sessions are recreated; nil: none, they are
        /// recreated at once (R-B10).
        package var slowWorkBeforeResuming: VirtualDuration? = nil
        /// Whether the launch restarts the saved machinery before applying the launch rules
        /// (false: the rules clear the flag first, R-B11, R-B12).
        package var resumesBeforeLaunchRules = false
        /// Whether the boot time is taken as `now - uptime` (false: the system's boot time;
        /// the uptime pauses while the device sleeps, R-B12).
        package var bootTimeFromUptime = false
        /// Whether an update without a location ends the engine's reading of the stream
        /// (false: nil means "no location now", R-C1).
        package var updateWithoutLocationEndsStream = false
        /// Whether an accepted fix is written to the store (true, R-B14).
        package var storesAcceptedFixes = true
        /// Whether `start()` writes the enabled flag to the saved record (true: later launches
        /// resume it, R-B11, R-D7).
        package var startPersistsEnabledFlag = true

        package init() {}
    }
}
