// Source B's session engine (Sources/Engines/SessionEngine*.swift) written as an iOS team
// writes it: `CLServiceSession`, `CLBackgroundActivitySession`, a task reading
// `CLLocationUpdate.liveUpdates` with `for try await`, a `CLLocationManager` for significant
// change and the rolling wake region, its flags in `UserDefaults.standard`, and its store,
// uploader, timer and boot time behind `TrackerDevice`. Same decisions and same numbers
// (`SessionEngine.Settings`, `SessionEngine.Seams`) as the engine it ports; each method names
// the one it ports.
import Engines
import Foundation
import LifelineKit
import Simulation
import World

/// Source B's session engine on Core Location's iOS 17/18 API: live updates read in a task
/// (R-C2), a `CLBackgroundActivitySession` (R-C5), a `CLServiceSession` requiring Always
/// (R-B9), both recreated at every launch before anything slow (R-B10), and a rolling wake
/// region around the last accepted fix plus significant change on one `CLLocationManager`
/// (R-B6, R-B7, R-A10). Accepted fixes go to the device's store and uploader (R-B14);
/// `stopOnTerminate` and `startOnBoot` are honoured at launch (R-B11, R-B12).
///
/// The reading loop is `Task { for try await update in CLLocationUpdate.liveUpdates(…) }`:
/// starting it starts the world's stream when the task first runs (after the callback that
/// made it, at the same instant), cancelling it stops the stream. With `loopOnMainActor` the
/// task runs on the main actor (`Task { @MainActor in … }`), as a `@MainActor` app delegate
/// makes it on iOS.
///
/// Only the simulation's thread touches it (the process's callbacks and its task's jobs),
/// hence `@unchecked Sendable`.
package final class SessionTracker: NSObject, CLLocationManagerDelegate, KitTracker,
    @unchecked Sendable
{
    package let settings: SessionEngine.Settings
    /// What this process's tracker has told its host app, in order (the SDK's event stream).
    package private(set) var events: [TrackingEvent] = []
    /// Whether `events` keeps what the tracker tells (`EngineNarration`).
    private let narrates = EngineNarration.isKept
    /// The session engine's decisions: its own unless a mutant of the package plants a
    /// mistake through them.
    let seams: SessionEngine.Seams
    /// Whether the reading loop runs on the main actor.
    let loopOnMainActor: Bool

    /// The manager of significant change and the wake region, and of authorization changes.
    let manager: CLLocationManager
    private let device: TrackerDevice
    private let defaults = TrackerDefaults()

    /// The persisted enabled flag, as this process knows it (nil until read).
    package private(set) var isEnabled: Bool?
    private var serviceSession: CLServiceSession?
    private var activitySession: CLBackgroundActivitySession?
    /// The task reading live updates, while tracking runs in this process.
    private var liveTask: Task<Void, any Error>?
    /// Whether the last live update said the sessions do not keep location running.
    private var lastUpdateLimited = false
    /// The wake region's centre, while it is monitored.
    private var wakeCenter: CLLocation?
    /// The state the process launched in, and the state UIKit last told.
    private var launchState = ProcessState.foreground
    private var appState = ProcessState.foreground
    /// The authorization this process last acted on: the manager's first callback, which
    /// only reports the launch's status, changes nothing (`SessionEngine.authorizationChanged`
    /// is called for changes).
    private var knownAuthorization: CLAuthorizationStatus
    /// The timer of the launch work before resuming (`Seams.slowWorkBeforeResuming`).
    private var slowWork: TrackerTimer?
    /// True while a background launch restores: the one time the background activity session
    /// may be begun in the background, as a rejoin (R-C5, R-B10).
    private var restoring = false

    /// Made at every launch, before anything else, so the event that woke the app reaches its
    /// manager (R-A12).
    package init(
        settings: SessionEngine.Settings, device: TrackerDevice, seams: SessionEngine.Seams,
        loopOnMainActor: Bool = false
    ) {
        self.settings = settings
        self.device = device
        self.seams = seams
        self.loopOnMainActor = loopOnMainActor
        manager = CLLocationManager()
        knownAuthorization = manager.authorizationStatus
        super.init()
        manager.delegate = self
    }

    // MARK: - The host app's calls

    /// `SessionEngine.start`: persists the enabled flag, then the sessions and updates.
    package func start() {
        if seams.startPersistsEnabledFlag { defaults.isEnabled = true }
        isEnabled = true
        tell(.started)
        startMachinery()
    }

    /// `SessionEngine.stop`: persists the flag and lets go of every session, the reading loop
    /// and every registration.
    package func stop() {
        defaults.isEnabled = false
        isEnabled = false
        tell(.stopped)
        serviceSession?.invalidate()
        activitySession?.invalidate()
        liveTask?.cancel()
        manager.stopMonitoringSignificantLocationChanges()
        stopWakeRegion()
        serviceSession = nil
        activitySession = nil
        liveTask = nil
    }

    /// `SessionEngine.userDidSetTracking`: the user's switch, kept for the host app.
    package func userDidSetTracking(_ on: Bool) {
        defaults.userWantsTracking = on
        if on { start() } else { stop() }
    }

    /// `getState()` (R-B13): active while the loop runs, both sessions are held and the last
    /// update did not say they fail to keep location running (the session objects'
    /// diagnostics are asynchronous sequences here, not a property to read).
    package func state(at now: Instant) -> EngineState {
        EngineState(
            enabled: isEnabled ?? false,
            lastAcceptedFixAge: device.lastSavedFix.map { now - $0.instant },
            sessionEngineActive: liveTask != nil && serviceSession != nil
                && activitySession != nil && !lastUpdateLimited)
    }

    private func tell(_ event: TrackingEvent) {
        if narrates { events.appendGrowingGently(event) }
    }

    private func tell(contentsOf told: [TrackingEvent]) {
        if narrates { events.appendGrowingGently(contentsOf: told) }
    }

    // MARK: - Launch, unlock and lifecycle (called by the app delegate)

    /// `SessionEngine.didLaunch`, from `didFinishLaunchingWithOptions` (on the main actor,
    /// where the application's state is read).
    @MainActor func didFinishLaunching(_ application: UIApplication) {
        launchState = application.applicationState == .background ? .background : .foreground
        appState = launchState
        guard application.isProtectedDataAvailable else {
            // The saved record reads empty before the first unlock (R-D9).
            tell(.waitingForFirstUnlock)
            return
        }
        restoring = launchState == .background
        defer { restoring = false }
        resumeAtLaunch()
    }

    /// `SessionEngine.protectedDataDidBecomeAvailable`.
    func protectedDataDidBecomeAvailable() {
        guard isEnabled == nil else { return }
        restoring = launchState == .background
        defer { restoring = false }
        resumeAtLaunch()
    }

    /// `SessionEngine.resumeAtLaunch`: the launch rules (R-B11, R-B12), then resume before
    /// anything slow (R-B10), or start if the user opened the app.
    private func resumeAtLaunch() {
        if seams.resumesBeforeLaunchRules, defaults.isEnabled { startMachinery() }
        let bootNow =
            seams.bootTimeFromUptime ? (device.now - .start) - device.uptime : device.bootTime
        let (enabled, launchEvents) = defaults.applyAtLaunch(
            settings.launchRules, bootTime: bootNow)
        isEnabled = enabled
        tell(contentsOf: launchEvents)
        if enabled {
            tell(.resumed(launchedIn: launchState))
            if let launchWork = seams.slowWorkBeforeResuming {
                slowWork = device.scheduleTimer(after: launchWork) { [weak self] in
                    self?.slowWorkDone()
                }
            } else {
                startMachinery()
            }
        } else if appState == .foreground && settings.startsWhenOpened
            && defaults.hostStartsWhenOpened(settings.trackingStart)
        {
            start()
        } else {
            clearRegistrations()
        }
        device.resumeStore()
    }

    /// `SessionEngine.timerDidFire` for its slow launch work.
    private func slowWorkDone() {
        slowWork = nil
        startMachinery()
    }

    /// `SessionEngine.lifecycleChanged`, from `applicationDidBecomeActive` and
    /// `applicationDidEnterBackground` (after a foreground launch too, where it changes
    /// nothing: the launch decided).
    func lifecycleChanged(to state: ProcessState) {
        appState = state
        // A session deferred to the foreground begins now (R-C5).
        if isEnabled == true, liveTask != nil || seams.lifecycleChecksSessionWithoutStream {
            beginActivitySessionIfDue()
        }
        guard state == .foreground, isEnabled == false, settings.startsWhenOpened,
            defaults.hostStartsWhenOpened(settings.trackingStart)
        else { return }
        start()
    }

    // MARK: - The machinery

    /// `SessionEngine.startMachinery`: sessions first, then the reading loop, then the
    /// registrations that outlive the process. Nothing starts without permission (R-A13,
    /// R-D10).
    private func startMachinery() {
        let authorization = manager.authorizationStatus
        guard authorization == .authorizedWhenInUse || authorization == .authorizedAlways else {
            tell(.permissionMissing(authorization.world))
            return
        }
        if serviceSession == nil {
            serviceSession = CLServiceSession(
                authorization: CLServiceSession.AuthorizationRequirement(
                    settings.serviceSessionRequirement))
        }
        beginActivitySessionIfDue()
        if liveTask == nil { liveTask = readLiveUpdates() }
        manager.startMonitoringSignificantLocationChanges()
        if let last = device.lastSavedFix {
            moveWakeRegion(
                to: CLLocation(
                    latitude: last.coordinate.latitude, longitude: last.coordinate.longitude))
        }
    }

    /// The reading loop: each update to `read`, until it says stop or the task is cancelled.
    private func readLiveUpdates() -> Task<Void, any Error> {
        let configuration = CLLocationUpdate.LiveConfiguration(settings.liveConfiguration)
        if loopOnMainActor {
            return Task { @MainActor [weak self] in
                for try await update in CLLocationUpdate.liveUpdates(configuration) {
                    guard let self, self.read(update) else { break }
                }
            }
        }
        return Task { [weak self] in
            for try await update in CLLocationUpdate.liveUpdates(configuration) {
                guard let self, self.read(update) else { break }
            }
        }
    }

    /// `SessionEngine.beginActivitySessionIfDue`: in the foreground, or while a background
    /// launch restores (R-C5, R-B10).
    private func beginActivitySessionIfDue() {
        guard activitySession == nil, seams.activitySessionDue(appState, restoring) else {
            return
        }
        activitySession = CLBackgroundActivitySession()
    }

    // MARK: - Live updates

    /// `SessionEngine.didReceive`: one live update; false ends the reading loop.
    private func read(_ update: CLLocationUpdate) -> Bool {
        lastUpdateLimited = update.insufficientlyInUse || update.authorizationDenied
        guard let location = update.location else {
            // nil means "no location now" (R-C1), unless the seam says the loop ends.
            return !seams.updateWithoutLocationEndsStream
        }
        // With Precise Location off every fix is approximate (R-F10): keep what iOS gives.
        guard
            location.horizontalAccuracy <= settings.minimumAccuracyMeters
                || manager.accuracyAuthorization == .reducedAccuracy
        else {
            tell(.fixRejected(location.fix, reason: "accuracy over the minimum"))
            return true
        }
        if seams.storesAcceptedFixes { device.save(location.fix) }
        tell(.fixAccepted(location.fix))
        if let wakeCenter,
            wakeCenter.distance(from: location) < settings.wakeRegionRollDistanceMeters
        {
            return true
        }
        moveWakeRegion(to: location)
        return true
    }

    // MARK: - The wake region and significant change

    /// Monitors the wake region around `center` (the same identifier replaces the old one).
    private func moveWakeRegion(to center: CLLocation) {
        wakeCenter = center
        manager.startMonitoring(
            for: CLCircularRegion(
                center: center.coordinate, radius: settings.wakeRegionRadiusMeters,
                identifier: settings.wakeRegionIdentifier))
    }

    /// `SessionEngine.clearRegistrations`: tracking is off at launch, so what an earlier
    /// process left (significant change, the wake region) would only relaunch the app for
    /// nothing.
    private func clearRegistrations() {
        manager.stopMonitoringSignificantLocationChanges()
        manager.stopMonitoring(
            for: CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: 0, longitude: 0),
                radius: settings.wakeRegionRadiusMeters,
                identifier: settings.wakeRegionIdentifier))
    }

    private func stopWakeRegion() {
        guard let center = wakeCenter else { return }
        manager.stopMonitoring(
            for: CLCircularRegion(
                center: center.coordinate, radius: settings.wakeRegionRadiusMeters,
                identifier: settings.wakeRegionIdentifier))
        wakeCenter = nil
    }

    // MARK: - CLLocationManagerDelegate

    /// `SessionEngine.authorizationChanged`: a change of authorization starts the machinery
    /// that waited for it. The manager's first callback, with the launch's status, is no
    /// change; nor is a change of accuracy alone.
    package func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let status = manager.authorizationStatus
        guard status != knownAuthorization else { return }
        knownAuthorization = status
        guard isEnabled == true, liveTask == nil else { return }
        startMachinery()
    }
}

/// The world's configuration, named apart from `CLLocationUpdate.LiveConfiguration`.
private typealias WorldLiveConfiguration = LiveConfiguration

extension CLLocationUpdate.LiveConfiguration {
    fileprivate init(_ configuration: WorldLiveConfiguration) {
        switch configuration {
        case .default: self = .default
        case .automotiveNavigation: self = .automotiveNavigation
        case .otherNavigation: self = .otherNavigation
        case .fitness: self = .fitness
        case .airborne: self = .airborne
        }
    }
}

extension CLServiceSession.AuthorizationRequirement {
    fileprivate init(_ requirement: ServiceSessionRequirement) {
        switch requirement {
        case .none: self = .none
        case .whenInUse: self = .whenInUse
        case .always: self = .always
        }
    }
}
