// `standard-kit` (KitEngines): the Apple-shaped standard tracker (`StandardTracker`, its app
// `StandardAppDelegate`) run as an engine by `KitTrackerEngine`.
import Engines
import LifelineKit
import Simulation
import World

extension KitTrackerEngine {
    /// `StandardAppDelegate` with the standard engine's `settings` and, if a mutant plants a
    /// mistake, some of its decisions replaced (`seams`).
    package convenience init(
        settings: StandardEngine.Settings, seams: StandardEngine.Seams = StandardEngine.Seams()
    ) {
        self.init(uploader: settings.uploader) { device in
            StandardAppDelegate(settings: settings, device: device, seams: seams)
        }
    }
}

extension CustomEngine {
    /// `standard-kit`: source D's standard engine rewritten on LifelineKit
    /// (`StandardTracker`), with the standard engine's settings, launch rules and profile.
    package static let standardKit = standardKit(
        name: "standard-kit",
        summary:
            "source D's standard engine on LifelineKit: CLLocationManager, an app delegate, "
            + "UserDefaults",
        seams: StandardEngine.Seams())

    /// `standard-kit` with the standard engine's decisions `seams` (a mutant's mistake, for
    /// the package's tests).
    package static func standardKit(
        name: String, summary: String, seams: StandardEngine.Seams,
        profile: AppProfile = BuiltInEngine.standard.profile
    ) -> CustomEngine {
        var engine = CustomEngine(name: name, summary: summary, honoursLaunchRules: true) {
            rules in
            KitTrackerEngine(
                settings: BuiltInEngine.standardSettings(
                    launchRules: rules, trackingStart: profile.trackingStart),
                seams: seams)
        }
        engine.profile = profile
        return engine
    }
}
