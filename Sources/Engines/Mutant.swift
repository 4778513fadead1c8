// Deliberately broken variants of the built-in engines (layer 4): each one real mistake that a
// source describes, planted in an otherwise correct engine, for the fuzzer to find.
import Simulation
import World

/// A built-in engine with one real mistake in it, named after the mistake. The fuzzer must
/// catch every one (`lifeline fuzz --engine NAME`), and `lifeline engines` lists them as
/// `mutant`. Each is the correct engine of `base` with one `Flaw`; nothing else differs.
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
    /// The session engine's uploader sends each retry under a fresh key: a retry after a lost
    /// answer is stored twice (R-D13).
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

    public var description: String { rawValue }

    /// The correct engine the mistake is planted in.
    public var base: BuiltInEngine {
        switch self {
        case .noRegionOnTerminate, .backgroundWithoutCapability: .standard
        case .startsUndetermined, .monitorRenamed: .locationRuntime
        case .sessionFromBackground, .restoreAfterSlowWork, .fixAcknowledgedBeforeCommit,
            .retryWithoutIdempotency, .rebootByUptime, .stopOnTerminateAfterResume,
            .nilLocationEndsStream, .storesNothing, .forgetsEnabledFlag:
            .session
        }
    }

    /// The flaw planted in `base`.
    var flaw: Flaws {
        switch self {
        case .sessionFromBackground: .sessionFromBackground
        case .restoreAfterSlowWork: .restoreAfterSlowWork
        case .noRegionOnTerminate: .noRegionOnTerminate
        case .fixAcknowledgedBeforeCommit: .fixAcknowledgedBeforeCommit
        case .retryWithoutIdempotency: .retryWithoutIdempotency
        case .backgroundWithoutCapability: .backgroundWithoutCapability
        case .rebootByUptime: .rebootByUptime
        case .startsUndetermined: .startsUndetermined
        case .stopOnTerminateAfterResume: .stopOnTerminateAfterResume
        case .monitorRenamed: .monitorRenamed
        case .nilLocationEndsStream: .nilLocationEndsStream
        case .storesNothing: .storesNothing
        case .forgetsEnabledFlag: .forgetsEnabledFlag
        }
    }

    /// A new engine: `base` with its launch rules and this mistake.
    public func make(launchRules: LaunchRules = LaunchRules()) -> any TrackingEngine {
        base.make(launchRules: launchRules, flaws: flaw)
    }
}

/// The mistakes an engine can be built with (only `Mutant` plants them).
struct Flaws: OptionSet, Sendable {
    let rawValue: Int

    static let sessionFromBackground = Flaws(rawValue: 1 << 0)
    static let restoreAfterSlowWork = Flaws(rawValue: 1 << 1)
    static let noRegionOnTerminate = Flaws(rawValue: 1 << 2)
    static let fixAcknowledgedBeforeCommit = Flaws(rawValue: 1 << 3)
    static let retryWithoutIdempotency = Flaws(rawValue: 1 << 4)
    static let backgroundWithoutCapability = Flaws(rawValue: 1 << 5)
    static let rebootByUptime = Flaws(rawValue: 1 << 6)
    static let startsUndetermined = Flaws(rawValue: 1 << 7)
    static let stopOnTerminateAfterResume = Flaws(rawValue: 1 << 8)
    static let monitorRenamed = Flaws(rawValue: 1 << 9)
    static let nilLocationEndsStream = Flaws(rawValue: 1 << 10)
    static let storesNothing = Flaws(rawValue: 1 << 11)
    static let forgetsEnabledFlag = Flaws(rawValue: 1 << 12)

    /// How long the slow launch work of `restoreAfterSlowWork` takes (opening a database,
    /// say): longer than iOS's few seconds to recreate sessions (R-B10).
    static let slowLaunchWork = VirtualDuration.seconds(5)
    /// How many fixes `fixAcknowledgedBeforeCommit` inserts before it commits them.
    static let fixesPerCommit = 10
    /// The suffix `monitorRenamed` adds to the monitor's name at a relaunch.
    static let renamedMonitorSuffix = " (restored)"
}
