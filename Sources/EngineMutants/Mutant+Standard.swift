// The standard engine's mutants: `StandardEngine` built with one seam changed.
import Engines
import World

extension Mutant {
    /// The standard engine with this mutant's mistake (`base` is `.standard`).
    func makeStandardEngine(launchRules: LaunchRules) -> StandardEngine {
        var seams = StandardEngine.Seams()
        switch self {
        case .noRegionOnTerminate: seams.handlesWillTerminate = false
        case .backgroundWithoutCapability: seams.checksBackgroundModeBeforeAllowing = false
        case .stopsMonitoringOnTerminate: seams.tidiesUpOnTerminate = true
        default: break
        }
        return StandardEngine(
            settings: BuiltInEngine.standardSettings(
                launchRules: launchRules, trackingStart: .atFirstLaunch),
            seams: seams)
    }
}
