// A location recorder written as an iOS team writes one (in the style of LocoKit): every
// location is recorded at once, and the user's switch is debounced with
// `DispatchQueue.main.asyncAfter` and a `DispatchWorkItem`: turning recording off keeps the
// location services running for a grace period (a quick off-and-on does not tear them down and
// build them again; nothing is recorded meanwhile), and turning it back on cancels the pending
// stop. This file builds for iOS with CoreLocation and UIKit, and here with LifelineKit: only
// the imports differ. Its persistence is behind `RecordStore`, the one seam the app's code has.
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
    import class LifelineKit.DispatchQueue
    import class LifelineKit.DispatchWorkItem
#endif

/// Where the recorder keeps what must survive the process: the locations and the switch.
public protocol RecordStore: AnyObject {
    /// Appends `locations` durably; false when the store cannot be opened yet.
    func append(_ locations: [CLLocation]) -> Bool
    /// The user turned recording off in the app.
    var recordingSwitchedOff: Bool { get set }
}

/// The recorder: one `CLLocationManager`, made again in every process.
public final class LocationRecorder: NSObject, CLLocationManagerDelegate {
    /// How long the services keep running after the user turns recording off.
    public static let stopGrace: TimeInterval = 300
    public static let restartRegionIdentifier = "recorder.restart"

    private let manager = CLLocationManager()
    private let store: RecordStore
    private var unsaved: [CLLocation] = []
    private var lastLocation: CLLocation?
    /// The debounced stop, while the grace period runs.
    private var pendingStop: DispatchWorkItem?
    /// False from a launch before the first unlock after a reboot until that unlock: the
    /// user's switch reads as unset then (`UserDefaults` is protected until the first unlock),
    /// so nothing is decided or written until it can be read.
    private var settingsReadable = true

    public init(store: RecordStore) {
        self.store = store
        super.init()
        manager.delegate = self
        manager.activityType = .fitness
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = kCLDistanceFilterNone
    }

    /// At every launch and whenever the app comes back: record unless the user said no.
    public func resume() {
        guard settingsReadable, !store.recordingSwitchedOff else { return }
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse:
            startServices()
        case .notDetermined:
            manager.requestAlwaysAuthorization()
        default:
            break
        }
    }

    /// At a launch: resume, or wait for the first unlock when the launch came before it
    /// (`UIApplication.isProtectedDataAvailable` false).
    public func launch(protectedDataAvailable: Bool) {
        if protectedDataAvailable { resume() } else { waitForFirstUnlock() }
    }

    /// A launch before the first unlock after a reboot: the user's switch cannot be read until
    /// the unlock, so the recorder decides nothing yet. It keeps location running (when it
    /// may) so that iOS keeps the app running until the unlock, and holds what it receives in
    /// memory.
    public func waitForFirstUnlock() {
        settingsReadable = false
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse: startServices()
        default: break
        }
    }

    /// The first unlock: the switch can be read. What came in before it is written, or dropped
    /// with the services if the user had turned recording off.
    public func protectedDataDidBecomeAvailable() {
        guard !settingsReadable else { return flush() }
        settingsReadable = true
        guard !store.recordingSwitchedOff else {
            unsaved.removeAll()
            return stopServices()
        }
        flush()
        resume()
    }

    private func startServices() {
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.startUpdatingLocation()
        manager.startMonitoringSignificantLocationChanges()
    }

    /// The app's own switch: off stops the services after `stopGrace`, on cancels that.
    public func setRecording(_ on: Bool) {
        store.recordingSwitchedOff = !on
        pendingStop?.cancel()
        pendingStop = nil
        guard !on else { return resume() }
        let stop = DispatchWorkItem { [weak self] in self?.stopServices() }
        pendingStop = stop
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.stopGrace, execute: stop)
    }

    /// Stops every location service.
    public func stopServices() {
        pendingStop = nil
        manager.stopUpdatingLocation()
        manager.stopMonitoringSignificantLocationChanges()
        for region in manager.monitoredRegions
        where region.identifier == Self.restartRegionIdentifier {
            manager.stopMonitoring(for: region)
        }
    }

    /// Leaves the restart region at the last location.
    public func armRestartRegion() {
        guard settingsReadable, !store.recordingSwitchedOff, let lastLocation else { return }
        let region = CLCircularRegion(
            center: lastLocation.coordinate, radius: 150,
            identifier: Self.restartRegionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        manager.startMonitoring(for: region)
    }

    /// Writes what could not be written before.
    public func flush() {
        guard settingsReadable else { return }
        if !unsaved.isEmpty, store.append(unsaved) { unsaved.removeAll() }
    }

    // MARK: - CLLocationManagerDelegate

    public func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
        // Switched off, nothing is recorded, though the services run on for the grace period.
        guard !store.recordingSwitchedOff else { return }
        let valid = locations.filter { $0.horizontalAccuracy >= 0 }
        guard let last = valid.last else { return }
        lastLocation = last
        unsaved += valid
        flush()
    }

    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        resume()
    }

    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        resume()
    }
}

/// The app delegate: the recorder, started at every launch.
public final class RecorderAppDelegate: UIResponder, UIApplicationDelegate {
    public let recorder: LocationRecorder

    public init(store: RecordStore) { recorder = LocationRecorder(store: store) }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        recorder.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        return true
    }

    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        recorder.protectedDataDidBecomeAvailable()
    }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        recorder.resume()
        recorder.flush()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        recorder.armRestartRegion()
        recorder.flush()
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        recorder.armRestartRegion()
    }
}
