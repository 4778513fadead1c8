// The standard engine's seams (layer 4): the decisions a package-internal builder may replace
// (the EngineMutants target plants one mistake at a time through them).
extension StandardEngine {
    /// The decisions of the standard engine that another target of the package may replace.
    /// Each default is the engine's own, correct behaviour.
    package struct Seams: Sendable {
        /// Whether `applicationWillTerminate` leaves significant change and a region for the
        /// relaunch (true, R-D7).
        package var handlesWillTerminate = true
        /// Whether `allowsBackgroundLocationUpdates` is set only when the Info.plist declares
        /// the location mode (true: without it the setter aborts, R-A9).
        package var checksBackgroundModeBeforeAllowing = true
        /// Whether `applicationWillTerminate` tidies up instead (false, the correct way): notes
        /// the termination in the saved record and removes significant change and its region,
        /// so nothing is left to relaunch the app (R-D7 asks the opposite).
        package var tidiesUpOnTerminate = false

        package init() {}
    }
}
