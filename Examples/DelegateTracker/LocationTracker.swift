// A background location tracker written as an iOS team writes it: a `CLLocationManager`
// delegate that records every location, keeps significant-change monitoring on and leaves a
// region behind so iOS relaunches it after it is killed, and an app delegate that restarts
// it at every launch. This file builds for iOS with CoreLocation and UIKit, and here with
// LifelineKit: only the imports differ. Its persistence is behind `LocationStore`, the one
// seam the app's code has (on iOS, the team's Core Data or SQLite store; in Lifeline's tests,
// the simulated device's store).
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
#endif

/// Where the tracker keeps what must survive the process: the recorded locations and the
/// user's switch.
public protocol LocationStore: AnyObject {
    /// Appends `locations` durably; false when the store cannot be opened yet (before the
    /// first unlock after a reboot), so the caller keeps them and tries again.
    func append(_ locations: [CLLocation]) -> Bool
    /// The user turned tracking off in the app.
    var trackingSwitchedOff: Bool { get set }
}

/// The tracker: one `CLLocationManager`, made again in every process.
public final class LocationTracker: NSObject, CLLocationManagerDelegate {
    /// The region left behind so that leaving it relaunches the app.
    public static let restartRegionIdentifier = "tracker.restart"
    /// Its radius in metres.
    public static let restartRegionRadius: CLLocationDistance = 150

    private let manager: CLLocationManager
    private let store: LocationStore
    /// Locations received while the store could not be opened.
    private var unsaved: [CLLocation] = []
    /// The last location this process received.
    public private(set) var lastLocation: CLLocation?
    /// Locations this process received, in all.
    public private(set) var receivedCount = 0
    /// The restart region must be placed again at the next location.
    private var regionNeedsMove = true
    /// False from a launch before the first unlock after a reboot until that unlock: the
    /// user's switch reads as unset then (`UserDefaults` is protected until the first unlock),
    /// so nothing is decided or written until it can be read.
    private var settingsReadable = true

    public init(store: LocationStore) {
        self.store = store
        manager = CLLocationManager()
        super.init()
        manager.delegate = self
        manager.activityType = .automotiveNavigation
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = kCLDistanceFilterNone
    }

    private var isAuthorized: Bool {
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse: true
        default: false
        }
    }

    /// At every launch and whenever the app comes back: track unless the user said no, and
    /// then leave nothing running that would relaunch the app.
    public func resume() {
        guard settingsReadable else { return }
        guard !store.trackingSwitchedOff else { return stopServices() }
        if isAuthorized {
            startServices()
        } else if manager.authorizationStatus == .notDetermined {
            manager.requestAlwaysAuthorization()
        }
    }

    /// The app's own switch.
    public func setTracking(_ on: Bool) {
        store.trackingSwitchedOff = !on
        if on { resume() } else { stopServices() }
    }

    /// A launch before the first unlock after a reboot: the user's switch cannot be read until
    /// the unlock, so the tracker decides nothing yet. It keeps location running (when it may)
    /// so that iOS keeps the app running until the unlock, and holds what it receives in
    /// memory.
    public func waitForFirstUnlock() {
        settingsReadable = false
        if isAuthorized { startServices() }
    }

    /// The first unlock: the switch can be read. What came in before it is written, or dropped
    /// if the user had turned tracking off.
    public func protectedDataDidBecomeAvailable() {
        if !settingsReadable {
            settingsReadable = true
            if store.trackingSwitchedOff { unsaved.removeAll() }
        }
        flush()
        resume()
    }

    private func stopServices() {
        manager.stopUpdatingLocation()
        manager.stopMonitoringSignificantLocationChanges()
        for region in manager.monitoredRegions
        where region.identifier == Self.restartRegionIdentifier {
            manager.stopMonitoring(for: region)
        }
    }

    private func startServices() {
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.showsBackgroundLocationIndicator = true
        manager.startUpdatingLocation()
        manager.startMonitoringSignificantLocationChanges()
    }

    /// Leaves the restart region at the last location, if this process has one. The region is
    /// at least as wide as that location is uncertain (a significant-change location is a cell
    /// tower's, ±1.4 km), so that the device is inside it: a region the device is already
    /// outside never reports an exit.
    public func armRestartRegion() {
        guard settingsReadable, !store.trackingSwitchedOff, isAuthorized, let lastLocation
        else { return }
        let region = CLCircularRegion(
            center: lastLocation.coordinate,
            radius: max(Self.restartRegionRadius, lastLocation.horizontalAccuracy),
            identifier: Self.restartRegionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        manager.startMonitoring(for: region)
        regionNeedsMove = false
    }

    /// Writes what could not be written before.
    public func flush() {
        guard settingsReadable, !unsaved.isEmpty, store.append(unsaved) else { return }
        unsaved.removeAll()
    }

    // MARK: - CLLocationManagerDelegate

    public func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
        let valid = locations.filter {
            $0.horizontalAccuracy >= 0 && CLLocationCoordinate2DIsValid($0.coordinate)
        }
        guard let newest = valid.last else { return }
        receivedCount += valid.count
        unsaved.append(contentsOf: valid)
        flush()
        if let previous = lastLocation, newest.timestamp < previous.timestamp { return }
        lastLocation = newest
        if regionNeedsMove { armRestartRegion() }
    }

    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
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
        resume()
    }

    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
        withError error: any Error
    ) {
        regionNeedsMove = true
    }

    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        manager.startUpdatingLocation()
    }
}

/// The app delegate: restarts the tracker at every launch, background ones included (a
/// significant change, a region exit), and leaves the region behind when the app leaves.
public final class TrackerAppDelegate: UIResponder, UIApplicationDelegate {
    public let tracker: LocationTracker
    /// The launch was for a location event (`UIApplication.LaunchOptionsKey.location`).
    public private(set) var launchedForLocation = false
    private var flushTask = UIBackgroundTaskIdentifier.invalid

    public init(store: LocationStore) {
        tracker = LocationTracker(store: store)
        super.init()
    }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        launchedForLocation = launchOptions?[.location] != nil
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
        flushTask = application.beginBackgroundTask(withName: "flush") { [weak self] in
            guard let self else { return }
            application.endBackgroundTask(self.flushTask)
            self.flushTask = .invalid
        }
        tracker.flush()
        tracker.armRestartRegion()
        application.endBackgroundTask(flushTask)
        flushTask = .invalid
    }

    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        tracker.protectedDataDidBecomeAvailable()
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        tracker.armRestartRegion()
    }
}
