// The storage and clock seam of the Apple-shaped trackers (KitEngines): what the
// tracker's code asks of the device that LifelineKit has no Apple-named call for. On iOS a team
// puts its database, its uploader, `Timer`, `Bundle.main` and `sysctl(kern.boottime)` behind
// such a protocol; here `SimulatedTrackerDevice` implements it over the world's services.
import Engines
import Simulation
import World

/// What `StandardTracker` and `SessionTracker` need of their device beyond Core Location,
/// UIKit and `UserDefaults`.
package protocol TrackerDevice: AnyObject {
    /// The current instant (iOS: `Date()`; instants, not `Date`, so that the recording clock's
    /// arithmetic is the integer arithmetic of the engine it ports, see `StandardTracker`).
    var now: Instant { get }
    /// The boot's instant minus the scenario's start (iOS: `sysctl` `kern.boottime`).
    var bootTime: VirtualDuration { get }
    /// The time since the boot without the device's sleep (iOS: `ProcessInfo.systemUptime`,
    /// here exact; only `SessionEngine.Seams.bootTimeFromUptime`, a mistake, reads it).
    var uptime: VirtualDuration { get }
    /// The Info.plist's `UIBackgroundModes` (iOS: `Bundle.main.object(forInfoDictionaryKey:)`).
    var backgroundModes: [String] { get }
    /// The fix store and uploader: reads the last stored fix and resumes uploads (at launch).
    func resumeStore()
    /// Writes an accepted fix durably and queues it for upload.
    func save(_ fix: Fix)
    /// The last fix saved, by this process or an earlier one.
    var lastSavedFix: Fix? { get }
    /// A one-shot run-loop timer (iOS: `Timer.scheduledTimer(withTimeInterval:repeats:block:)`).
    func scheduleTimer(after delay: VirtualDuration, _ block: @escaping () -> Void)
        -> TrackerTimer
}

/// A scheduled one-shot timer (iOS: `Timer`).
package final class TrackerTimer {
    let id: TimerID
    private let cancel: (TimerID) -> Void
    /// False once fired or invalidated.
    package private(set) var isValid = true

    init(id: TimerID, cancel: @escaping (TimerID) -> Void) {
        self.id = id
        self.cancel = cancel
    }

    /// `invalidate()`: the block will not run.
    package func invalidate() {
        guard isValid else { return }
        isValid = false
        cancel(id)
    }

    func fired() { isValid = false }
}

/// `TrackerDevice` on the simulated device: the shared `FixRecorder` (the store, one commit per
/// fix, and the batched uploader, R-D13) and the world's timers. One per process, as the
/// recorder of the engine it ports is. `@unchecked Sendable`: the app's code (on the main actor)
/// and `KitTrackerEngine` both use it, and the world runs both on the simulation's one thread,
/// the process's main thread (docs/concurrency.md).
package final class SimulatedTrackerDevice: TrackerDevice, @unchecked Sendable {
    /// The recorder: the standard engine's store and uploader, unchanged.
    package let recorder: FixRecorder
    private weak var services: LocationServices?
    /// The blocks of the timers scheduled and not yet fired or invalidated, by timer.
    private var timers: [(timer: TrackerTimer, block: () -> Void)] = []

    init(uploader: UploaderConfiguration) {
        recorder = FixRecorder(uploader: uploader)
    }

    /// The process's services, given at launch.
    func attach(_ services: LocationServices) { self.services = services }

    package var now: Instant { services?.now ?? .start }
    package var bootTime: VirtualDuration { services?.bootTime.sinceStart ?? .zero }
    package var uptime: VirtualDuration { services?.uptime ?? .zero }
    package var backgroundModes: [String] { services?.backgroundModes ?? [] }

    package func resumeStore() {
        guard let services else { return }
        recorder.resume(services: services)
    }

    package func save(_ fix: Fix) {
        guard let services else { return }
        recorder.accept(fix, services: services)
    }

    package var lastSavedFix: Fix? { recorder.lastAcceptedFix }

    package func scheduleTimer(after delay: VirtualDuration, _ block: @escaping () -> Void)
        -> TrackerTimer
    {
        guard let services else { return TrackerTimer(id: TimerID(ObjectID(0))) { _ in } }
        let id = services.scheduledTimer(after: delay)
        let timer = TrackerTimer(id: id) { [weak self] id in
            self?.timers.removeAll { $0.timer.id == id }
            self?.services?.invalidateTimer(id)
        }
        timers.append((timer, block))
        return timer
    }

    /// Runs the block of `timer` if it is one of the tracker's; false otherwise.
    func fire(_ timer: TimerID) -> Bool {
        guard let index = timers.firstIndex(where: { $0.timer.id == timer }) else { return false }
        let (scheduled, block) = timers.remove(at: index)
        scheduled.fired()
        block()
        return true
    }
}
