// `LocationRuntime`'s mutants: the runtime built with one seam changed.
import Engines

extension Mutant {
    /// The suffix `monitor-renamed` adds to the monitor's name at a relaunch.
    static let renamedMonitorSuffix = " (restored)"

    /// The runtime with this mutant's mistake (`base` is `.locationRuntime`).
    func makeLocationRuntime() -> LocationRuntime {
        var seams = LocationRuntime.Seams()
        switch self {
        case .startsUndetermined: seams.waitsForAuthorization = false
        case .monitorRenamed: seams.restoredMonitorName = { $0 + Self.renamedMonitorSuffix }
        default: break
        }
        return LocationRuntime(
            settings: BuiltInEngine.locationRuntimeSettings(trackingStart: .atFirstLaunch),
            seams: seams)
    }
}
