// Source D's standard-updates engine (Sources/Engines/StandardEngine*.swift) written as an iOS
// team writes it: a `CLLocationManagerDelegate` with Apple's names, its flags in
// `UserDefaults.standard`, and its store, uploader, timers and boot time behind `TrackerDevice`.
// Same decisions and same numbers (`StandardEngine.Settings`) as the engine it ports; each
// method names the one it ports.
import Engines
import Foundation
import LifelineKit
import Simulation
import World

import class LifelineKit.UserDefaults

/// Source D's engine on `CLLocationManager`: one manager runs standard updates for as long as
/// tracking is on (R-D1), resting the GPS at 3 km between the fixes of its recording clock
/// (R-D4), watching a region while parked (R-D5), leaving significant change and a region for
/// a swipe-away (R-D7), waiting for the first unlock (R-D9) and for permission (R-D10), and
/// filtering by accuracy with an overdue rule (R-D11).
///
/// Times are the fixes' world instants (`CLLocation.lifelineFix`), not `timestamp`: a `Date`
/// is a `Double` of seconds since 1970, whose rounding (about 0.24 µs at 2026) would decide
/// "is this fix due yet" differently from the engine's integer nanoseconds for a fix exactly
/// one interval after the last, which is the common case on a 1 s fix grid.
package final class StandardTracker: NSObject, CLLocationManagerDelegate, KitTracker {
    /// The identifier of the tracker's one region (parked, or left at a swipe-away).
    package static let regionIdentifier = StandardEngine.regionIdentifier

    package let settings: StandardEngine.Settings
    /// Why a fix between two due instants is not kept (`StandardEngine`'s words).
    static let notDue = "not due: the engine records one fix each interval, R-D4"
    /// What this process's tracker has told its host app, in order (the SDK's event stream).
    package private(set) var events: [TrackingEvent] = []
    /// Whether `events` keeps what the tracker tells (`EngineNarration`).
    private let narrates = EngineNarration.isKept

    let manager: CLLocationManager
    private let device: TrackerDevice
    private let defaults = TrackerDefaults()

    /// Tracking is on, as this process knows it (the saved flag once readable).
    package private(set) var enabled = false
    /// Launched before the first unlock: the decision waits for it (R-D9).
    private var waitingForFirstUnlock = false
    /// The app's state as last told.
    private var processState = ProcessState.notRunning
    /// Standard updates are on in this process (R-D1).
    private var updating = false
    /// The recording clock runs (R-D4). Read at every location, twice, so without the
    /// run-time exclusivity check (about 75 instructions a read; being `package`, it gets one):
    /// only the simulation's thread touches a tracker.
    @exclusivity(unchecked) package private(set) var recording = false

    // The recording clock (R-D4, R-D11).
    private var due: Instant?
    private var anchored = false
    private var warmUpTimer: TrackerTimer?
    private var best: CLLocation?

    // Motion and the region (R-D5, R-D7).
    private var slowSince: Instant?
    private var parked = false
    private var region: CLCircularRegion?
    private var lastLocation: CLLocation?
    private var lastPreciseLocation: CLLocation?

    /// Made at every launch, before anything else, so the event that woke the app reaches its
    /// manager (R-A12).
    package convenience init(settings: StandardEngine.Settings, device: TrackerDevice) {
        self.init(settings: settings, device: device, seams: StandardEngine.Seams())
    }

    /// The standard engine's decisions (`StandardEngine.Seams`): its own unless a mutant of
    /// the package plants a mistake through them.
    let seams: StandardEngine.Seams

    package init(
        settings: StandardEngine.Settings, device: TrackerDevice, seams: StandardEngine.Seams
    ) {
        self.settings = settings
        self.device = device
        self.seams = seams
        manager = CLLocationManager()
        super.init()
        manager.delegate = self
    }

    // MARK: - The host app's calls

    private var isAuthorized: Bool {
        Self.permits(manager.authorizationStatus)
    }

    private static func permits(_ status: CLAuthorizationStatus) -> Bool {
        status == .authorizedAlways || status == .authorizedWhenInUse
    }

    /// `StandardEngine.start`.
    package func start() {
        guard !enabled else { return }
        enabled = true
        defaults.isEnabled = true
        tell(.started)
        if isAuthorized {
            begin()
        } else {
            tell(.permissionMissing(manager.authorizationStatus.world))
            if manager.authorizationStatus == .notDetermined {
                manager.requestAlwaysAuthorization()
            }
        }
    }

    /// `StandardEngine.stop`.
    package func stop() {
        guard enabled else { return }
        enabled = false
        defaults.isEnabled = false
        halt()
        removeRegistrations()
        tell(.stopped)
    }

    /// `StandardEngine.userDidSetTracking`: the user's switch, kept for the host app.
    package func userDidSetTracking(_ on: Bool) {
        defaults.userWantsTracking = on
        if on { start() } else { stop() }
    }

    /// `getState()` (R-B13).
    package func state(at now: Instant) -> EngineState {
        EngineState(
            enabled: enabled, lastAcceptedFixAge: device.lastSavedFix.map { now - $0.instant },
            sessionEngineActive: recording)
    }

    // MARK: - Narration

    /// Tells the host app `event`, kept when narration is (`EngineNarration`).
    func tell(_ event: TrackingEvent) {
        if narrates { events.appendGrowingGently(event) }
    }

    func tell(contentsOf told: [TrackingEvent]) {
        if narrates { events.appendGrowingGently(contentsOf: told) }
    }

    // MARK: - Launch, unlock and lifecycle (called by the app delegate)

    /// `StandardEngine.didLaunch`, from `didFinishLaunchingWithOptions` (on the main actor,
    /// where the application's state is read).
    @MainActor func didFinishLaunching(_ application: UIApplication) {
        processState = application.applicationState == .background ? .background : .foreground
        guard application.isProtectedDataAvailable else {
            waitingForFirstUnlock = true
            tell(.waitingForFirstUnlock)
            if processState == .background { holdUntilFirstUnlock() }
            return
        }
        resumeAtLaunch()
    }

    /// `StandardEngine.protectedDataDidBecomeAvailable`.
    func protectedDataDidBecomeAvailable() {
        guard waitingForFirstUnlock else { return }
        waitingForFirstUnlock = false
        resumeAtLaunch()
    }

    /// `StandardEngine.lifecycleChanged(to: .foreground)`, from `applicationDidBecomeActive`
    /// (after a foreground launch too, where it changes nothing: the launch decided).
    func didBecomeActive() {
        processState = .foreground
        if !enabled && !waitingForFirstUnlock && settings.startsWhenOpened
            && defaults.hostStartsWhenOpened(settings.trackingStart)
        {
            start()
        }
    }

    /// `StandardEngine.lifecycleChanged(to: .background)`.
    func didEnterBackground() { processState = .background }

    /// `StandardEngine.applicationWillTerminate` (R-D7).
    func willTerminate() {
        guard enabled, seams.handlesWillTerminate else { return }
        if settings.launchRules.stopOnTerminate {
            removeRegistrations()
        } else if isAuthorized {
            keepRegistrationsForRelaunch()
        }
    }

    /// `StandardEngine.resumeAtLaunch`: the launch rules, then resume before anything slow.
    private func resumeAtLaunch() {
        let decision = defaults.applyAtLaunch(settings.launchRules, bootTime: device.bootTime)
        tell(contentsOf: decision.events)
        enabled = decision.enabled
        if enabled {
            if isAuthorized {
                begin()
                tell(.resumed(launchedIn: processState))
            } else {
                halt()
                tell(.permissionMissing(manager.authorizationStatus.world))
            }
        } else {
            halt()
            removeRegistrations()
            if processState == .foreground && settings.startsWhenOpened
                && defaults.hostStartsWhenOpened(settings.trackingStart)
            {
                start()
            }
        }
        device.resumeStore()
    }

    // MARK: - Updates (StandardEngine+Updates)

    private func begin() {
        startUpdates(desiredAccuracy: settings.accuracy.desiredAccuracyMeters)
        manager.startMonitoringSignificantLocationChanges()
        if !parked { removeRegion() }  // a stale one (R-D5)
        recording = true
        cancelWarmUp()
        due = device.now
        anchored = false
        best = nil
    }

    private func halt() {
        if updating {
            manager.stopUpdatingLocation()
            updating = false
        }
        recording = false
        cancelWarmUp()
    }

    private func holdUntilFirstUnlock() {
        startUpdates(desiredAccuracy: settings.betweenFixesAccuracyMeters)
    }

    private func startUpdates(desiredAccuracy: CLLocationAccuracy) {
        setDesiredAccuracy(desiredAccuracy)
        guard !updating else { return }
        // Only with the mode in the Info.plist: without it the setter aborts (R-A9, R-D1).
        if device.backgroundModes.contains("location")
            || !seams.checksBackgroundModeBeforeAllowing
        {
            manager.allowsBackgroundLocationUpdates = true
        }
        manager.pausesLocationUpdatesAutomatically = false
        manager.distanceFilter = kCLDistanceFilterNone
        manager.activityType = CLActivityType(settings.activityType)
        if settings.showsBackgroundLocationIndicator {
            manager.showsBackgroundLocationIndicator = true
        }
        manager.startUpdatingLocation()
        updating = true
    }

    /// Sets `desiredAccuracy` when it changes (each set is a request to the daemon).
    private func setDesiredAccuracy(_ meters: CLLocationAccuracy) {
        guard manager.desiredAccuracy != meters else { return }
        manager.desiredAccuracy = meters
    }

    // MARK: - The recording clock (StandardEngine+Recording)

    private func consider(_ location: CLLocation) {
        guard let due, location.instant >= due else {
            tell(.fixRejected(location.fix, reason: Self.notDue))
            return
        }
        setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
        if location.horizontalAccuracy <= settings.minimumAccuracyMeters {
            accept(location, due: due)
            return
        }
        tell(
            .fixRejected(
                location.fix,
                reason: "accuracy \(Int(location.horizontalAccuracy.rounded())) m worse than "
                    + "the minimum \(Int(settings.minimumAccuracyMeters.rounded())) m, R-D11"))
        if best.map({ location.horizontalAccuracy < $0.horizontalAccuracy }) ?? true {
            best = location
        }
        if location.instant >= due + settings.overdueDelay, let best {
            accept(best, due: due)  // the overdue rule (R-D11)
        }
    }

    private func accept(_ location: CLLocation, due: Instant) {
        device.save(location.fix)
        tell(.fixAccepted(location.fix))
        var next = due + settings.interval
        if !anchored || next <= location.instant { next = location.instant + settings.interval }
        self.due = next
        anchored = true
        best = nil
        guard settings.usesLowPowerBetweenFixes else { return }
        setDesiredAccuracy(settings.betweenFixesAccuracyMeters)
        let warmUp = next + (.zero - settings.warmUpLead)
        cancelWarmUp()
        let now = device.now
        if warmUp <= now {
            setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
        } else {
            warmUpTimer = device.scheduleTimer(after: warmUp - now) { [weak self] in
                self?.warmUpTimerFired()
            }
        }
    }

    /// The configured accuracy goes on `warmUpLead` before the fix is due (R-D4).
    private func warmUpTimerFired() {
        warmUpTimer = nil
        guard recording else { return }
        setDesiredAccuracy(settings.accuracy.desiredAccuracyMeters)
    }

    private func cancelWarmUp() {
        warmUpTimer?.invalidate()
        warmUpTimer = nil
    }

    // MARK: - Motion and regions (StandardEngine+Parking)

    private func observeMotion(_ location: CLLocation) {
        lastLocation = location
        if location.horizontalAccuracy <= settings.minimumAccuracyMeters {
            lastPreciseLocation = location
        }
        guard location.speed < settings.parkedSpeedMetersPerSecondMax else {
            slowSince = nil
            if parked { becomeMoving() }
            return
        }
        let since = slowSince ?? location.instant
        slowSince = since
        guard recording, !parked, location.instant - since >= settings.parkedAfter,
            let anchor = lastPreciseLocation, anchor.instant >= since
        else { return }
        parked = true
        monitorRegion(around: anchor.coordinate, radius: settings.parkedRegionRadiusMeters)
    }

    private func becomeMoving() {
        parked = false
        slowSince = nil
        removeRegion()
    }

    /// R-D7 with `stopOnTerminate` false: significant change stays on, the parked region stays,
    /// and a moving device gets a region grown by the distance it may have covered.
    private func keepRegistrationsForRelaunch() {
        manager.startMonitoringSignificantLocationChanges()
        if parked, let region {
            manager.startMonitoring(for: region)
            return
        }
        guard let anchor = lastPreciseLocation ?? lastLocation else { return }
        let speed = lastLocation?.speed ?? 0
        let covered = anchor.horizontalAccuracy + speed * (device.now - anchor.instant).seconds
        monitorRegion(
            around: anchor.coordinate, radius: max(settings.parkedRegionRadiusMeters, covered))
    }

    private func removeRegistrations() {
        manager.stopMonitoringSignificantLocationChanges()
        removeRegion()
    }

    private func monitorRegion(around center: CLLocationCoordinate2D, radius: CLLocationDistance) {
        let region = CLCircularRegion(
            center: center, radius: radius, identifier: Self.regionIdentifier)
        self.region = region
        manager.startMonitoring(for: region)
    }

    /// Removes the region, known to this process or left by an earlier one.
    private func removeRegion() {
        let known =
            region
            ?? CLCircularRegion(
                center: CLLocationCoordinate2D(latitude: 0, longitude: 0), radius: 1,
                identifier: Self.regionIdentifier)
        region = nil
        manager.stopMonitoring(for: known)
    }

    // MARK: - CLLocationManagerDelegate

    package func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
        for location in locations {
            observeMotion(location)
            if recording {
                consider(location)
            } else {
                tell(.fixRejected(location.fix, reason: "not recording"))
            }
        }
    }

    package func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        guard region.identifier == Self.regionIdentifier else { return }
        becomeMoving()
    }

    /// `StandardEngine.authorizationChanged` (R-D10). Also called once for the new manager
    /// with the launch's status, where it changes nothing: the launch decided.
    package func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        guard enabled, !waitingForFirstUnlock else { return }
        let status = manager.authorizationStatus
        if Self.permits(status) && !recording {
            begin()
            tell(.resumed(launchedIn: processState))
        } else if !Self.permits(status) && recording {
            halt()
            tell(.permissionMissing(status.world))
        }
    }
}

/// The tracker's flags in `UserDefaults.standard`, under the keys of `TrackingRecord`, with its
/// launch rules (R-B11, R-B12).
struct TrackerDefaults {
    private var defaults: UserDefaults { .standard }

    var isEnabled: Bool {
        get { defaults.bool(forKey: TrackingRecord.enabledKey) }
        nonmutating set { defaults.set(newValue, forKey: TrackingRecord.enabledKey) }
    }

    var userWantsTracking: Bool? {
        get { defaults.object(forKey: TrackingRecord.userWantsTrackingKey) as? Bool }
        nonmutating set { defaults.set(newValue, forKey: TrackingRecord.userWantsTrackingKey) }
    }

    func hostStartsWhenOpened(_ trackingStart: TrackingStart) -> Bool {
        userWantsTracking ?? (trackingStart == .atFirstLaunch)
    }

    /// `TrackingRecord.applyAtLaunch`, the boot from the device's boot time.
    func applyAtLaunch(_ rules: LaunchRules, bootTime bootNow: VirtualDuration)
        -> (enabled: Bool, events: [TrackingEvent])
    {
        let saved = (defaults.object(forKey: TrackingRecord.bootTimeKey) as? Int).map {
            VirtualDuration(nanoseconds: Int64($0))
        }
        let decision = rules.decideAtLaunch(
            enabled: isEnabled, savedBootTime: saved, bootTime: bootNow)
        defaults.set(Int(bootNow.nanoseconds), forKey: TrackingRecord.bootTimeKey)
        if decision.enabled != isEnabled { isEnabled = decision.enabled }
        return decision
    }
}

extension CLLocation {
    /// Its instant, exact (see `StandardTracker`).
    fileprivate var instant: Instant { fix.instant }
}

extension CLActivityType {
    fileprivate init(_ type: ActivityType) {
        switch type {
        case .other: self = .other
        case .automotiveNavigation: self = .automotiveNavigation
        case .fitness: self = .fitness
        case .otherNavigation: self = .otherNavigation
        case .airborne: self = .airborne
        }
    }
}
