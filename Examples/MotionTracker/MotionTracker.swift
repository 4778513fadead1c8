// A tracker that saves power with Core Motion, written as an iOS team writes one: location
// updates run while the device moves and pause while Core Motion says it is stationary; a
// region is left where it stopped, because a Core Motion update never wakes a suspended app,
// and leaving the region (or moving, when the app runs) resumes the updates. Significant
// change stays on as a safety net, and the app delegate restarts the tracker at every launch.
// This file builds for iOS with CoreLocation, CoreMotion and UIKit, and here with LifelineKit:
// only the imports differ. Its persistence is behind `TrackStore`.
import Foundation

#if canImport(CoreLocation) && canImport(CoreMotion) && canImport(UIKit)
    import CoreLocation
    import CoreMotion
    import UIKit
#else
    import LifelineKit
    import class LifelineKit.OperationQueue
#endif

/// Where the tracker keeps what must survive the process: the recorded locations and the
/// user's switch.
public protocol TrackStore: AnyObject {
    /// Appends `locations` durably; false when the store cannot be opened yet (before the
    /// first unlock after a reboot), so the caller keeps them and tries again.
    func append(_ locations: [CLLocation]) -> Bool
    /// The user turned tracking off in the app.
    var trackingSwitchedOff: Bool { get set }
}

/// The tracker: one `CLLocationManager` and one `CMMotionActivityManager`, made again in every
/// process.
open class MotionTracker: NSObject, CLLocationManagerDelegate {
    /// The region left behind so that leaving it wakes or relaunches the app.
    public static let restartRegionIdentifier = "motion.restart"
    /// Its radius in metres.
    public static let restartRegionRadius: CLLocationDistance = 150

    public let locationManager = CLLocationManager()
    public let motionManager = CMMotionActivityManager()
    private let store: TrackStore
    /// Locations received while the store could not be opened.
    private var unsaved: [CLLocation] = []
    /// The last location this process received.
    public private(set) var lastLocation: CLLocation?
    /// The first location since updates last started: a stationary activity that began
    /// before it is one the device has since left.
    private var firstLocationSinceStart: CLLocation?
    /// The latest activity Core Motion reported.
    public private(set) var activity: CMMotionActivity?
    /// Location updates are paused because the device is stationary.
    public private(set) var isPaused = false
    /// Location updates run (started in this process, not paused or stopped since).
    private var isUpdating = false
    /// The restart region must be placed again at the next location.
    private var regionNeedsMove = true
    /// False from a launch before the first unlock after a reboot until that unlock.
    private var settingsReadable = true

    public init(store: TrackStore) {
        self.store = store
        super.init()
        locationManager.delegate = self
        locationManager.desiredAccuracy = kCLLocationAccuracyBest
        locationManager.distanceFilter = kCLDistanceFilterNone
    }

    private var isAuthorized: Bool {
        switch locationManager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse: return true
        default: return false
        }
    }

    /// At every launch and whenever the app comes back: track unless the user said no.
    public func resume() {
        guard settingsReadable else { return }
        guard !store.trackingSwitchedOff else { return stopServices() }
        if isAuthorized {
            startServices()
        } else if locationManager.authorizationStatus == .notDetermined {
            locationManager.requestAlwaysAuthorization()
        }
    }

    /// The app's own switch.
    public func setTracking(_ on: Bool) {
        store.trackingSwitchedOff = !on
        if on { resume() } else { stopServices() }
    }

    /// A launch before the first unlock: nothing is decided until the switch can be read, but
    /// location runs so that the app keeps running until then.
    public func waitForFirstUnlock() {
        settingsReadable = false
        if isAuthorized { startServices() }
    }

    /// The first unlock: what came before is written, or dropped if tracking was off.
    public func protectedDataDidBecomeAvailable() {
        if !settingsReadable {
            settingsReadable = true
            if store.trackingSwitchedOff { unsaved.removeAll() }
        }
        flush()
        resume()
    }

    /// Writes what could not be written before.
    public func flush() {
        guard settingsReadable, !unsaved.isEmpty, store.append(unsaved) else { return }
        unsaved.removeAll()
    }

    /// Leaves the restart region at the last location, if this process has one, at least as
    /// wide as that location is uncertain (so that the device is inside it).
    public func armRestartRegion() {
        guard settingsReadable, !store.trackingSwitchedOff, isAuthorized, let lastLocation
        else { return }
        let region = CLCircularRegion(
            center: lastLocation.coordinate,
            radius: max(Self.restartRegionRadius, lastLocation.horizontalAccuracy),
            identifier: Self.restartRegionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        locationManager.startMonitoring(for: region)
        regionNeedsMove = false
    }

    /// What a stationary spell turns off: location updates. The restart region moves to where
    /// the device stopped, so that leaving it wakes the app: Core Motion will not.
    open func pauseLocationServices() {
        locationManager.stopUpdatingLocation()
        armRestartRegion()
    }

    // MARK: - Services

    private func startServices() {
        // Only Always can wake the app by a region: without it, no pause.
        if isPaused, locationManager.authorizationStatus != .authorizedAlways { isPaused = false }
        locationManager.allowsBackgroundLocationUpdates = true
        locationManager.pausesLocationUpdatesAutomatically = false
        locationManager.showsBackgroundLocationIndicator = true
        if !isPaused { startUpdates() }
        locationManager.startMonitoringSignificantLocationChanges()
        guard CMMotionActivityManager.isActivityAvailable() else { return }
        motionManager.startActivityUpdates(to: .main) { [weak self] activity in
            guard let self, let activity else { return }
            self.activity = activity
            self.motionChanged()
        }
    }

    private func stopServices() {
        isUpdating = false
        locationManager.stopUpdatingLocation()
        locationManager.stopMonitoringSignificantLocationChanges()
        motionManager.stopActivityUpdates()
        isPaused = false
        for region in locationManager.monitoredRegions
        where region.identifier == Self.restartRegionIdentifier {
            locationManager.stopMonitoring(for: region)
        }
    }

    /// Starts updates; a start that finds them running keeps its first location.
    private func startUpdates() {
        if !isUpdating { firstLocationSinceStart = nil }
        isUpdating = true
        locationManager.startUpdatingLocation()
    }

    /// Pauses on a stationary spell that began since updates started and a location came,
    /// with Always (the region that resumes a suspended app needs it); resumes on any
    /// movement.
    private func motionChanged() {
        guard settingsReadable, !store.trackingSwitchedOff, let activity else { return }
        if activity.stationary {
            guard !isPaused, locationManager.authorizationStatus == .authorizedAlways,
                activity.confidence != .low, let first = firstLocationSinceStart,
                activity.startDate > first.timestamp
            else { return }
            isPaused = true
            isUpdating = false
            pauseLocationServices()
        } else if activity.walking || activity.running || activity.cycling
            || activity.automotive
        {
            resumeUpdates()
        }
    }

    private func resumeUpdates() {
        guard isPaused, !store.trackingSwitchedOff, isAuthorized else { return }
        isPaused = false
        startUpdates()
    }

    // MARK: - CLLocationManagerDelegate

    public func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
        let valid = locations.filter {
            $0.horizontalAccuracy >= 0 && CLLocationCoordinate2DIsValid($0.coordinate)
        }
        guard let newest = valid.last else { return }
        unsaved.append(contentsOf: valid)
        flush()
        if let previous = lastLocation, newest.timestamp < previous.timestamp { return }
        lastLocation = newest
        if firstLocationSinceStart == nil, !isPaused { firstLocationSinceStart = newest }
        if regionNeedsMove { armRestartRegion() }
        motionChanged()
    }

    public func locationManager(_ manager: CLLocationManager, didFailWithError error: Error) {
        if let error = error as? CLError, error.code == .denied {
            manager.stopUpdatingLocation()
        }
    }

    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        if isAuthorized { resume() }
    }

    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        guard region.identifier == Self.restartRegionIdentifier else { return }
        regionNeedsMove = true
        resumeUpdates()
        resume()
    }

    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
        withError error: Error
    ) {
        regionNeedsMove = true
    }

    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        if !isPaused { manager.startUpdatingLocation() }
    }
}

/// The app delegate: restarts the tracker at every launch, background ones included, and
/// leaves the restart region behind when the app leaves or is terminated.
public final class MotionTrackerAppDelegate: UIResponder, UIApplicationDelegate {
    public let tracker: MotionTracker

    /// The app's tracker: `MotionTracker` with `store`, or another made by `makeTracker`.
    public init(tracker: MotionTracker) {
        self.tracker = tracker
        super.init()
    }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        if application.isProtectedDataAvailable {
            tracker.resume()
        } else {
            tracker.waitForFirstUnlock()
        }
        return true
    }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        tracker.resume()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        tracker.flush()
        tracker.armRestartRegion()
    }

    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        tracker.protectedDataDidBecomeAvailable()
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        tracker.armRestartRegion()
    }
}
