// A location sharer written as an iOS team writes one (a Find-My-Family-like app): a
// `CLLocationManager` delegate that saves every location it gets through its `SharerStore`,
// keeps significant-change monitoring on and leaves a region behind so iOS relaunches it, and
// an app delegate that restarts it at every launch. Builds for iOS with CoreLocation and
// UIKit, and here with LifelineKit: only the imports differ.
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
#endif

/// The sharer: one `CLLocationManager`, made again in every process.
public final class LocationSharer: NSObject, CLLocationManagerDelegate {
    /// The region left behind so that leaving it relaunches the app.
    public static let restartRegionIdentifier = "sharer.restart"
    /// Its radius in metres.
    public static let restartRegionRadius: CLLocationDistance = 150
    /// The distance between the locations it keeps, in metres.
    public static let distanceFilter: CLLocationDistance = 50

    private let manager: CLLocationManager
    public let store: SharerStore
    /// Locations received and not saved yet (the files were protected).
    private var unsaved: [SharedLocation] = []
    /// The last location this process received.
    public private(set) var lastLocation: CLLocation?
    private var regionNeedsMove = true
    /// False from a launch before the first unlock after a reboot until that unlock: the
    /// settings read as their defaults then (`UserDefaults` is protected until the first
    /// unlock), so nothing is decided or saved until they can be read.
    private var settingsReadable = true

    public init(store: SharerStore) {
        self.store = store
        manager = CLLocationManager()
        super.init()
        manager.delegate = self
        manager.activityType = .otherNavigation
        manager.desiredAccuracy = kCLLocationAccuracyBest
        // A location every 50 m is enough to share (and a file write per location).
        manager.distanceFilter = Self.distanceFilter
    }

    private var isAuthorized: Bool {
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse: true
        default: false
        }
    }

    /// At every launch and whenever the app comes back: share unless the user said no.
    public func resume() {
        guard settingsReadable, store.settings.isSharing else { return }
        if isAuthorized {
            startServices()
        } else if manager.authorizationStatus == .notDetermined {
            manager.requestAlwaysAuthorization()
        }
    }

    /// At a launch: resume, or wait for the first unlock when the launch came before it
    /// (`UIApplication.isProtectedDataAvailable` false).
    public func launch(protectedDataAvailable: Bool) {
        if protectedDataAvailable { return resume() }
        // Nothing is decided yet; location keeps running (when it may) so that iOS keeps the
        // app running until the unlock, and what comes in waits in memory.
        settingsReadable = false
        if isAuthorized { startServices() }
    }

    /// The first unlock: the settings can be read. What came in before it is saved, or
    /// dropped with the services if the user had turned sharing off.
    public func protectedDataDidBecomeAvailable() {
        if !settingsReadable {
            settingsReadable = true
            guard store.settings.isSharing else {
                unsaved.removeAll()
                return stopServices()
            }
        }
        flush()
        resume()
    }

    private func startServices() {
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.showsBackgroundLocationIndicator = true
        manager.startUpdatingLocation()
        manager.startMonitoringSignificantLocationChanges()
    }

    /// The app's own switch, kept in the settings.
    public func setSharing(_ on: Bool) {
        var settings = store.settings
        settings.isSharing = on
        store.settings = settings
        if on {
            resume()
        } else {
            stopServices()
        }
    }

    private func stopServices() {
        manager.stopUpdatingLocation()
        manager.stopMonitoringSignificantLocationChanges()
        for region in manager.monitoredRegions
        where region.identifier == Self.restartRegionIdentifier {
            manager.stopMonitoring(for: region)
        }
    }

    /// Leaves the restart region at the last location, if this process has one. The region is
    /// at least as wide as that location is uncertain (a significant-change location is a cell
    /// tower's, ±1.4 km), so that the device is inside it: a region the device is already
    /// outside never reports an exit.
    public func armRestartRegion() {
        guard settingsReadable, store.settings.isSharing, isAuthorized, let lastLocation
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

    /// Saves what could not be saved before.
    public func flush() {
        guard settingsReadable, !unsaved.isEmpty, store.save(unsaved) else { return }
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
        unsaved.append(contentsOf: valid.map(SharedLocation.init))
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

/// The app delegate: restarts the sharer at every launch, background ones included, saves
/// what waited once the files can be written, and leaves the region behind when the app
/// leaves.
public final class SharerAppDelegate: UIResponder, UIApplicationDelegate {
    public let sharer: LocationSharer

    public init(store: SharerStore) {
        sharer = LocationSharer(store: store)
        super.init()
    }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        sharer.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        return true
    }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        sharer.flush()
        sharer.resume()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        sharer.flush()
        sharer.armRestartRegion()
    }

    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        sharer.protectedDataDidBecomeAvailable()
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        sharer.armRestartRegion()
    }
}
