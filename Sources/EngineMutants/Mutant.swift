// Deliberately broken variants of the built-in engines (test mutants): each one real mistake
// that a source describes, built from a correct reference engine, for the fuzzer to find.
import Engines
import Simulation
import World

/// A built-in engine with one real mistake in it, named after the mistake: the one place a
/// mutant's name is declared. The fuzzer must catch every one (`lifeline fuzz --engine NAME`),
/// and `lifeline engines` lists them as `mutant`. Each is its `base` engine, built by
/// `make(launchRules:)` through the seams the reference engine exposes to the package
/// (`SessionEngine.Seams`, `StandardEngine.Seams`, `LocationRuntime.Seams`) or by changing its
/// settings; nothing else differs.
public enum Mutant: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The session engine begins its background activity session when the app goes to the
    /// background, not at `start()` in the foreground: iOS ignores a session begun there
    /// (R-C5).
    case sessionFromBackground = "session-from-background"
    /// The session engine recreates its sessions after its slow launch work (a few seconds),
    /// not at once: iOS counts them as a new background request and ignores them (R-B10).
    case restoreAfterSlowWork = "restore-after-slow-work"
    /// The standard engine does nothing at `applicationWillTerminate`: no region around the
    /// last position, no significant change ensured (R-D7).
    case noRegionOnTerminate = "no-region-on-terminate"
    /// The session engine tells its host a fix is accepted when it inserts it, and commits
    /// every few fixes: a kill loses the acknowledged rows not yet committed.
    case fixAcknowledgedBeforeCommit = "fix-acknowledged-before-commit"
    /// The session engine's uploader sends its requests without an idempotency key: a retry
    /// after a lost answer is stored twice (R-D13).
    case retryWithoutIdempotency = "retry-without-idempotency"
    /// The standard engine sets `allowsBackgroundLocationUpdates` without checking the
    /// Info.plist: without the location mode the process aborts (R-A9).
    case backgroundWithoutCapability = "background-without-capability"
    /// The session engine detects a reboot from `now - uptime`: the uptime pauses while the
    /// device sleeps, so a long lock looks like a reboot (R-B12).
    case rebootByUptime = "reboot-by-uptime"
    /// `LocationRuntime` starts its services while the authorization is undetermined (R-A13).
    case startsUndetermined = "starts-undetermined"
    /// The session engine resumes first and clears the enabled flag after (R-B11: the flag
    /// must be cleared before any resume).
    case stopOnTerminateAfterResume = "stop-on-terminate-after-resume"
    /// `LocationRuntime` reopens its monitor under another name at a relaunch: the event that
    /// woke it goes nowhere (R-A12).
    case monitorRenamed = "monitor-renamed"
    /// The session engine stops reading live updates at the first update without a location
    /// (as `guard let location = update.location else { break }` ends a `for try await`
    /// loop): nil means "none now", not the end (R-C1).
    case nilLocationEndsStream = "nil-location-ends-stream"
    /// The session engine tells its host every fix is accepted and never writes one to the
    /// store (a write path left disconnected).
    case storesNothing = "stores-nothing"
    /// The session engine keeps its enabled flag in memory only: a relaunch after iOS ended
    /// the process finds tracking off and resumes nothing (R-B11, R-D7).
    case forgetsEnabledFlag = "forgets-enabled-flag"
    /// The session engine gives up on a batch whose upload failed and deletes its rows from the
    /// store (so that a bad batch is not retried for ever): a timeout or a lost connection
    /// deletes fixes the server never accepted (R-S1).
    case deletesFailedBatch = "deletes-failed-batch"
    /// The session engine's uploader learns that the server accepted a batch and forgets it
    /// in memory only, writing no done row: after a kill the next process sends the batch
    /// again, long after the app knew the server had it, and a server that stores every
    /// request stores it twice (R-S2: a resend is excusable only while the app cannot know).
    case resendsAcceptedBatch = "resends-accepted-batch"
    /// The session engine's uploader sends each batch's rows newest first (an outbox read
    /// `ORDER BY id DESC`): the server receives a backlog out of the order it was stored, and
    /// one that keeps the latest point per device shows an older point.
    case newestFirstOutbox = "newest-first-outbox"
    /// The standard engine tidies up in `applicationWillTerminate`: it notes the termination in
    /// its saved record and removes significant change and its region, so nothing relaunches
    /// it after a swipe (R-D7 asks it to leave them; the saved record's write is not the loss).
    case stopsMonitoringOnTerminate = "stops-monitoring-on-terminate"

    public var description: String { rawValue }

    /// The correct engine the mistake is planted in.
    public var base: BuiltInEngine {
        switch self {
        case .noRegionOnTerminate, .backgroundWithoutCapability, .stopsMonitoringOnTerminate:
            .standard
        case .startsUndetermined, .monitorRenamed: .locationRuntime
        case .sessionFromBackground, .restoreAfterSlowWork, .fixAcknowledgedBeforeCommit,
            .retryWithoutIdempotency, .rebootByUptime, .stopOnTerminateAfterResume,
            .nilLocationEndsStream, .storesNothing, .forgetsEnabledFlag, .deletesFailedBatch,
            .resendsAcceptedBatch, .newestFirstOutbox:
            .session
        }
    }

    /// Its host app: `base`'s profile, except that the app of
    /// `background-without-capability` declares no location background mode (its mistake is
    /// one only in such an app: with the mode declared the call is right), and that of
    /// `resends-accepted-batch` uploads to a server that stores every request.
    public var profile: AppProfile {
        var profile = base.profile
        if self == .backgroundWithoutCapability {
            profile.capabilities.locationBackgroundMode = false
        }
        // Its mistake duplicates only on a server that stores every request: a deduplicating
        // one answers the resend "already have it".
        if self == .resendsAcceptedBatch { profile.serverDeduplication = .storesEveryRequest }
        return profile
    }

    /// A new engine: `base` with its launch rules and this mistake.
    public func make(launchRules: LaunchRules = LaunchRules()) -> any TrackingEngine {
        switch base {
        case .session: makeSessionEngine(launchRules: launchRules)
        case .standard: makeStandardEngine(launchRules: launchRules)
        case .locationRuntime: makeLocationRuntime()
        }
    }

    /// The mutant as an engine the tool runs by name (`EngineChoice.mutant`).
    public var engine: MutantEngine {
        MutantEngine(
            name: rawValue, base: base, summary: summary, profile: profile,
            make: { [self] in make(launchRules: $0) })
    }
}
