// Foundation's process information for the simulated process (layer 4): Low Power Mode, the
// uptime and the iOS version as the world has them, the rest Foundation's.
import Foundation
import World

/// `ProcessInfo`, for the calling simulated process: what the world knows (Low Power Mode, the
/// uptime, the modelled iOS version, which process this is) comes from the world, the rest is
/// forwarded to Foundation's `ProcessInfo.processInfo`. Foundation's class cannot be extended
/// to read the world (its `isLowPowerModeEnabled` is stored by the system, and on Linux it does
/// not exist), so a tracker names this one with a scoped import, which takes precedence over
/// Foundation's:
///
///     import Foundation
///     #if canImport(UIKit)
///         import UIKit
///     #else
///         import LifelineKit
///         import class LifelineKit.ProcessInfo
///     #endif
///
/// Outside a simulated process (no `ApplicationEngine` callback running) the world's members
/// read as a device that has not booted a process: Low Power Mode off, uptime 0, process 0,
/// and Foundation's operating system version.
///
/// Not here: `thermalState` (Foundation on Linux does not have it, and the world models no
/// heat), `NSProcessInfoPowerStateDidChange` (the world changes Low Power Mode without telling
/// the running app's code: read `isLowPowerModeEnabled` instead) and `globallyUniqueString`
/// (random: it would make a run unrepeatable).
open class ProcessInfo: NSObject, @unchecked Sendable {
    /// `ProcessInfo.processInfo`: one object for every simulated process; each member reads
    /// the calling process.
    open class var processInfo: ProcessInfo { shared }
    private static let shared = ProcessInfo()

    private override init() { super.init() }

    /// The calling simulated process's services, nil outside one.
    private var services: LocationServices? { ProcessScope.current?.services }

    /// `isLowPowerModeEnabled`: whether the user has turned Low Power Mode on
    /// (`UserAction.setLowPowerMode`, the scenario's `low-power on|off`; off at the start), as
    /// the world has told the calling process (Foundation: "A Boolean value that indicates the
    /// current state of Low Power Mode"). While it is on, Background App Refresh is off
    /// (R-H13, `UIApplication.backgroundRefreshStatus`).
    open var isLowPowerModeEnabled: Bool { services?.isLowPowerModeEnabled ?? false }

    /// `systemUptime`: the virtual time since the device's last boot, less the time it slept
    /// (while the screen is locked, and from a boot to the first unlock), as
    /// `CLOCK_MONOTONIC` reads on iOS (`LocationServices.uptime`). Never the real machine's.
    open var systemUptime: TimeInterval { services?.uptime.seconds ?? 0 }

    /// `operatingSystemVersion`: the modelled iOS version (`IOSPolicy.systemVersion`: 16, 17,
    /// 18, 26 or 27; minor and patch 0) inside a simulated process, so a tracker's own version
    /// checks follow the policy it runs under; Foundation's outside one.
    open var operatingSystemVersion: OperatingSystemVersion {
        guard let services else { return Foundation.ProcessInfo.processInfo.operatingSystemVersion }
        return OperatingSystemVersion(
            majorVersion: services.systemVersion, minorVersion: 0, patchVersion: 0)
    }

    /// `isOperatingSystemAtLeast(_:)`: compares `operatingSystemVersion` (the modelled iOS
    /// version inside a simulated process) with `version`, major, then minor, then patch.
    open func isOperatingSystemAtLeast(_ version: OperatingSystemVersion) -> Bool {
        let own = operatingSystemVersion
        return (own.majorVersion, own.minorVersion, own.patchVersion)
            >= (version.majorVersion, version.minorVersion, version.patchVersion)
    }

    /// `processIdentifier`: the simulated process's number among the app's processes (1 for
    /// the first launch, one more at each), not the real machine's process identifier, which
    /// would differ from run to run. 0 outside a simulated process.
    open var processIdentifier: Int32 { Int32(clamping: services?.processNumber ?? 0) }

    /// `environment`: Foundation's, the real process's variables.
    open var environment: [String: String] { Foundation.ProcessInfo.processInfo.environment }

    /// `arguments`: Foundation's, the real process's command-line arguments.
    open var arguments: [String] { Foundation.ProcessInfo.processInfo.arguments }

    /// `processName`: Foundation's.
    open var processName: String { Foundation.ProcessInfo.processInfo.processName }

    /// `activeProcessorCount`: Foundation's.
    open var activeProcessorCount: Int { Foundation.ProcessInfo.processInfo.activeProcessorCount }

    /// `physicalMemory`: Foundation's.
    open var physicalMemory: UInt64 { Foundation.ProcessInfo.processInfo.physicalMemory }
}
