// The session engine's mutants: `SessionEngine` built with one seam or one setting changed.
import Engines
import Simulation
import World

extension Mutant {
    /// How long the slow launch work of `restore-after-slow-work` takes (opening a database,
    /// say): longer than iOS's few seconds to recreate sessions (R-B10).
    static let slowLaunchWork = VirtualDuration.seconds(5)
    /// How many fixes `fix-acknowledged-before-commit` inserts before it commits them.
    static let fixesPerCommit = 10

    /// The session engine with this mutant's mistake (`base` is `.session`).
    func makeSessionEngine(launchRules: LaunchRules) -> SessionEngine {
        var settings = BuiltInEngine.sessionSettings(
            launchRules: launchRules, trackingStart: .atFirstLaunch)
        if self == .retryWithoutIdempotency { settings.uploader.keysRequestsByBatch = false }
        if self == .resendsAcceptedBatch { settings.uploader.recordsAcceptance = false }
        if self == .newestFirstOutbox { settings.uploader.sendsNewestFirst = true }
        let engine = SessionEngine(settings, seams: sessionSeams)
        if self == .fixAcknowledgedBeforeCommit {
            engine.recorder.fixesPerCommit = Self.fixesPerCommit
        }
        if self == .deletesFailedBatch { engine.recorder.deletesFailedBatches = true }
        return engine
    }

    /// The session engine's seams with this mutant's mistake, if it is planted through them
    /// (the defaults otherwise): also what plants it in a port of the session engine
    /// (`session-kit`'s mutants, KitEngines).
    package var sessionSeams: SessionEngine.Seams {
        var seams = SessionEngine.Seams()
        switch self {
        case .sessionFromBackground:
            // The wrong way round: begun only once the app has left the foreground.
            seams.activitySessionDue = { appState, _ in appState != .foreground }
            seams.lifecycleChecksSessionWithoutStream = true
        case .restoreAfterSlowWork: seams.slowWorkBeforeResuming = Self.slowLaunchWork
        case .rebootByUptime: seams.bootTimeFromUptime = true
        case .stopOnTerminateAfterResume: seams.resumesBeforeLaunchRules = true
        case .nilLocationEndsStream: seams.updateWithoutLocationEndsStream = true
        case .storesNothing: seams.storesAcceptedFixes = false
        case .forgetsEnabledFlag: seams.startPersistsEnabledFlag = false
        case .retryWithoutIdempotency, .fixAcknowledgedBeforeCommit, .noRegionOnTerminate,
            .backgroundWithoutCapability, .startsUndetermined, .monitorRenamed,
            .deletesFailedBatch, .resendsAcceptedBatch, .newestFirstOutbox,
            .stopsMonitoringOnTerminate:
            break
        }
        return seams
    }
}
