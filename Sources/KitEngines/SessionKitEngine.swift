// `session-kit` (KitEngines): the Apple-shaped session tracker (`SessionTracker`, its app
// `SessionAppDelegate`) run as an engine by `KitTrackerEngine`. Live updates reach the
// tracker's `CLLocationUpdate.liveUpdates` loop through `ApplicationEngine.didReceive`.
import EngineMutants
import Engines
import LifelineKit
import Simulation
import World

extension KitTrackerEngine {
    /// `SessionAppDelegate` with the session engine's `settings`, some of its decisions
    /// replaced if a mutant plants a mistake (`seams`), the reading loop on the main actor if
    /// `loopOnMainActor`; `configure` sets what the ported engine's mutants set on its
    /// recorder.
    package convenience init(
        settings: SessionEngine.Settings, seams: SessionEngine.Seams,
        loopOnMainActor: Bool = false, configure: (FixRecorder) -> Void = { _ in }
    ) {
        self.init(uploader: settings.uploader, configure: configure) { device in
            SessionAppDelegate(
                settings: settings, device: device, seams: seams,
                loopOnMainActor: loopOnMainActor)
        }
    }
}

extension CustomEngine {
    /// `session-kit`: source B's session engine rewritten on LifelineKit (`SessionTracker`),
    /// with the session engine's settings, launch rules and profile.
    package static let sessionKit = sessionKit(
        name: "session-kit",
        summary:
            "source B's session engine on LifelineKit: CLLocationUpdate.liveUpdates in a task, "
            + "CLServiceSession, CLBackgroundActivitySession, UserDefaults")

    /// `session-kit` with its reading loop on the main actor (`Task { @MainActor in … }`).
    package static let sessionKitMainActor = sessionKit(
        name: "session-kit-main-actor",
        summary: "session-kit with its live-updates loop on the main actor",
        loopOnMainActor: true)

    /// `session-kit` with the session engine's decisions `seams` (a mutant's mistake, for the
    /// package's tests) and `configure` applied to its recorder.
    package static func sessionKit(
        name: String, summary: String, seams: SessionEngine.Seams = SessionEngine.Seams(),
        loopOnMainActor: Bool = false,
        configure: @escaping @Sendable (FixRecorder) -> Void = { _ in },
        profile: AppProfile = BuiltInEngine.session.profile
    ) -> CustomEngine {
        var engine = CustomEngine(name: name, summary: summary, honoursLaunchRules: true) {
            rules in
            KitTrackerEngine(
                settings: BuiltInEngine.sessionSettings(
                    launchRules: rules, trackingStart: profile.trackingStart),
                seams: seams, loopOnMainActor: loopOnMainActor, configure: configure)
        }
        engine.profile = profile
        return engine
    }
}

extension CustomEngine {
    /// Six of the session engine's mutants (`Sources/EngineMutants/Mutant+Session.swift`)
    /// planted in `session-kit` through the same seams (`Mutant.sessionSeams`), each named
    /// after its mutant with `-kit`.
    package static let sessionKitMutants: [CustomEngine] = [
        Mutant.storesNothing, .forgetsEnabledFlag, .nilLocationEndsStream, .restoreAfterSlowWork,
        .rebootByUptime, .stopOnTerminateAfterResume,
    ].map { mutant in
        sessionKit(
            name: mutant.rawValue + "-kit",
            summary: "session-kit with the mistake of \(mutant.rawValue)",
            seams: mutant.sessionSeams)
    }
}
