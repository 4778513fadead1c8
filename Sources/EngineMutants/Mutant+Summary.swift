// What each mutant's mistake is, in one line, as `lifeline engines` prints it.
import Engines

extension Mutant {
    /// The mistake in one line, for `lifeline engines`.
    public var summary: String {
        switch self {
        case .sessionFromBackground:
            "session: begins its background activity session in the background (R-C5)"
        case .restoreAfterSlowWork:
            "session: recreates its sessions after slow launch work, not at once (R-B10)"
        case .noRegionOnTerminate:
            "standard: sets no region and no significant change at termination (R-D7)"
        case .fixAcknowledgedBeforeCommit:
            "session: acknowledges fixes before their commit, committing every few"
        case .retryWithoutIdempotency:
            "session: sends its uploads without an idempotency key (R-D13)"
        case .backgroundWithoutCapability:
            "standard: enables background updates without the Info.plist mode (R-A9)"
        case .rebootByUptime:
            "session: detects a reboot from the uptime, which pauses in sleep (R-B12)"
        case .startsUndetermined:
            "location-runtime: starts services with undetermined authorization (R-A13)"
        case .stopOnTerminateAfterResume:
            "session: clears the stopOnTerminate flag after resuming (R-B11)"
        case .monitorRenamed:
            "location-runtime: reopens its monitor under another name at a relaunch (R-A12)"
        case .nilLocationEndsStream:
            "session: stops reading live updates at an update without a location (R-C1)"
        case .storesNothing:
            "session: says every fix is accepted and writes none to the store"
        case .forgetsEnabledFlag:
            "session: keeps its enabled flag in memory only, so a relaunch resumes nothing"
        case .deletesFailedBatch:
            "session: deletes a batch's rows when its upload fails (R-S1)"
        case .resendsAcceptedBatch:
            "session: keeps a batch's acceptance in memory only, so a relaunch resends it (R-S2)"
        case .newestFirstOutbox:
            "session: sends each batch's rows newest first, out of the order stored"
        case .stopsMonitoringOnTerminate:
            "standard: notes the termination and removes its relaunch paths there (R-D7)"
        }
    }
}
