// `LocationRuntime`'s seams (layer 4): the decisions a package-internal builder may replace
// (the EngineMutants target plants one mistake at a time through them).
extension LocationRuntime {
    /// The decisions of the runtime that another target of the package may replace. Each
    /// default is the runtime's own, correct behaviour.
    package struct Seams: Sendable {
        /// Whether nothing starts while the authorization is undetermined (true, R-A13).
        package var waitsForAuthorization = true
        /// The name a monitor restored from the saved record is reopened under: its own
        /// (R-A12: under another name, the event that woke the app goes nowhere).
        package var restoredMonitorName: @Sendable (String) -> String = { $0 }

        package init() {}
    }
}
