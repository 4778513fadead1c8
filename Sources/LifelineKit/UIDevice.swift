// UIKit's `UIDevice` battery shapes (layer 4) over the world's battery, read by the calling
// simulated process, with their notifications through LifelineKit's `NotificationCenter`.
import Foundation
import Simulation
import VirtualConcurrency
import World

/// `UIDevice` as UIKit shapes it, for the battery (R-B1, R-B2): main-actor isolated, with
/// Apple's `nonisolated` notification names.
///
/// `UIDevice.current` answers for the calling simulated process. With
/// `isBatteryMonitoringEnabled` false (the default, per process) `batteryLevel` is −1 and
/// `batteryState` `.unknown`, as Apple documents; with it true they are the world's battery
/// (`Battery`: drained faster while GNSS runs for the app, charged while the user's `charger`
/// action has it plugged in), the level in 5 % steps. While monitoring is on and the process
/// runs, the process checks the battery once a minute (a main run-loop timer, so not while it
/// is suspended) and posts `batteryLevelDidChangeNotification` and
/// `batteryStateDidChangeNotification` to `NotificationCenter.default` when they changed:
/// Apple sends level changes "no more frequently than once per minute"; a state change is
/// posted at the same check, within a minute of the plug (an assumption). Outside every
/// simulated process monitoring reads as off.
@MainActor
open class UIDevice {
    /// The battery state (`UIDevice.BatteryState`).
    public enum BatteryState: Int, Sendable {
        case unknown, unplugged, charging, full
    }

    /// `UIDevice.current`: the device the calling process runs on.
    public static var current: UIDevice { shared }
    private static let shared = UIDevice()

    /// `batteryLevelDidChangeNotification`.
    public nonisolated static let batteryLevelDidChangeNotification = NSNotification.Name(
        "UIDeviceBatteryLevelDidChangeNotification")
    /// `batteryStateDidChangeNotification`.
    public nonisolated static let batteryStateDidChangeNotification = NSNotification.Name(
        "UIDeviceBatteryStateDidChangeNotification")

    /// How often a process with monitoring on checks the battery (R-B2: Apple posts level
    /// changes no more often than once a minute).
    static let batteryCheckInterval: TimeInterval = 60
    /// The steps the level is reported in (R-B1, an assumption: developers report 0.05 steps).
    static let batteryLevelStepPercent = 5.0

    /// What one process's monitoring keeps: whether it is on, what was last posted, the
    /// timer.
    private final class Watch: @unchecked Sendable {
        var enabled = false
        var level: Float = -1
        var state = BatteryState.unknown
        var timer: Timer?
    }
    private static let watch = ProcessLocal<Watch> { Watch() }

    private init() {}

    /// `isBatteryMonitoringEnabled`: false at each launch.
    open var isBatteryMonitoringEnabled: Bool {
        get { ProcessScope.current != nil && Self.watch.value.enabled }
        set {
            guard ProcessScope.current != nil else { return }
            let watch = Self.watch.value
            guard newValue != watch.enabled else { return }
            watch.enabled = newValue
            watch.timer?.invalidate()
            watch.timer = nil
            guard newValue else { return }
            (watch.level, watch.state) = (batteryLevel, batteryState)
            let timer = Timer(timeInterval: Self.batteryCheckInterval, repeats: true) { _ in
                MainActor.assumeIsolated { UIDevice.current.checkBattery() }
            }
            RunLoop.main.add(timer, forMode: .common)
            watch.timer = timer
        }
    }

    /// `batteryLevel`: 0–1 in 5 % steps, −1 while monitoring is off.
    open var batteryLevel: Float {
        guard isBatteryMonitoringEnabled, let services = ProcessScope.current?.services,
            let battery = services.battery
        else { return -1 }
        // In whole steps first, so that 80 % is 0.8, not a step below it.
        let steps = (battery.levelPercent(at: services.now) / Self.batteryLevelStepPercent)
            .rounded(.down)
        return Float(steps * Self.batteryLevelStepPercent) / 100
    }

    /// `batteryState`: `.unknown` while monitoring is off.
    open var batteryState: BatteryState {
        guard isBatteryMonitoringEnabled, let services = ProcessScope.current?.services,
            let battery = services.battery
        else { return .unknown }
        switch battery.charge(at: services.now) {
        case .unplugged: return .unplugged
        case .charging: return .charging
        case .full: return .full
        }
    }

    /// The minute's check: posts what changed since the last post.
    private func checkBattery() {
        let watch = Self.watch.value
        guard watch.enabled else { return }
        let (level, state) = (batteryLevel, batteryState)
        if state != watch.state {
            watch.state = state
            NotificationCenter.default.post(
                name: Self.batteryStateDidChangeNotification, object: self)
        }
        if level != watch.level {
            watch.level = level
            NotificationCenter.default.post(
                name: Self.batteryLevelDidChangeNotification, object: self)
        }
    }
}
