// A tracker that keeps its fixes on the phone (layer 4), for the tests and fixtures of
// `AppProfile.uploads`: the standard engine whose uploader never forms a batch.
import Simulation

extension CustomEngine {
    /// `phone-only`: the standard engine (tracking from the first launch) with an uploader
    /// that never forms a batch (a year's wait, no row limit), so it stores every fix and
    /// uploads none; its profile is the standard engine's, declaring `uploads`. Declared
    /// `.nothing` it is a correct tracker with no server, which `uploaded-once` does not
    /// judge; declared `.toServer` it is a tracker that never uploads, which it fails.
    package static func phoneOnly(uploads: AppProfile.Uploads) -> CustomEngine {
        var engine = CustomEngine(name: "phone-only", summary: "stores its fixes, uploads none") {
            rules in
            var settings = BuiltInEngine.standardSettings(
                launchRules: rules, trackingStart: .atFirstLaunch)
            settings.uploader.batchWait = .hours(24 * 365)
            settings.uploader.batchRowCountMax = Int.max
            return StandardEngine(settings: settings)
        }
        engine.profile = BuiltInEngine.standard.profile
        engine.profile.uploads = uploads
        return engine
    }
}
