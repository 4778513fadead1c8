// A location reporter written as an iOS team writes one (in the style of Home Assistant's
// companion app): every location is kept on the device, and a repeating `Timer` on the main
// run loop sends what is waiting in batches through `URLSession`, each upload inside a
// `beginBackgroundTask` window so that it finishes when the app leaves the foreground. The app
// delegate starts the reporter, and its timer, at every launch. This file builds for iOS with
// CoreLocation and UIKit, and here with LifelineKit: only the imports differ. Its persistence
// is behind `ReportStore`, the one seam the app's code has.
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
    import class LifelineKit.Timer
    import class LifelineKit.RunLoop
    import class LifelineKit.URLSession
    import class LifelineKit.URLSessionTask
    import class LifelineKit.URLSessionUploadTask
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
#endif

/// Where the reporter keeps what must survive the process: the recorded locations, what the
/// server has accepted, and the user's switch.
public protocol ReportStore: AnyObject {
    /// Appends `locations` durably; false when the store cannot be opened yet (before the
    /// first unlock after a reboot).
    func append(_ locations: [CLLocation]) -> Bool
    /// The body of the next batch to send and its number, or nil when nothing waits. A batch
    /// sent and never confirmed is returned again, unchanged, until `markSent` confirms it.
    func nextBatch() -> (body: Data, number: Int)?
    /// The server accepted batch `number`.
    func markSent(_ number: Int)
    /// The user turned reporting off in the app.
    var reportingSwitchedOff: Bool { get set }
}

/// The reporter: one `CLLocationManager` and one upload timer, made again in every process.
public final class LocationReporter: NSObject, CLLocationManagerDelegate {
    /// How often the waiting locations are sent.
    public static let batchInterval: TimeInterval = 60
    /// The region left behind so that leaving it relaunches the app.
    public static let restartRegionIdentifier = "reporter.restart"

    private let manager = CLLocationManager()
    private let store: ReportStore
    private let application: UIApplication
    private var unsaved: [CLLocation] = []
    private var lastLocation: CLLocation?
    /// The batch on its way, and the background task that keeps the app running for it.
    private var uploading: (number: Int, task: UIBackgroundTaskIdentifier)?
    /// False from a launch before the first unlock after a reboot until that unlock: the
    /// user's switch reads as unset then (`UserDefaults` is protected until the first unlock),
    /// so nothing is decided, written or sent until it can be read.
    private var settingsReadable = true

    public init(store: ReportStore, application: UIApplication) {
        self.store = store
        self.application = application
        super.init()
        manager.delegate = self
        manager.desiredAccuracy = kCLLocationAccuracyBest
        manager.distanceFilter = kCLDistanceFilterNone
    }

    /// At every launch and whenever the app comes back: report unless the user said no.
    public func resume() {
        guard settingsReadable, !store.reportingSwitchedOff else { return }
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
    /// the unlock, so the reporter decides nothing yet. It keeps location running (when it
    /// may) so that iOS keeps the app running until the unlock, and holds what it receives in
    /// memory.
    public func waitForFirstUnlock() {
        settingsReadable = false
        switch manager.authorizationStatus {
        case .authorizedAlways, .authorizedWhenInUse: startServices()
        default: break
        }
    }

    /// The first unlock: the switch can be read. What came in before it is written and sent,
    /// or dropped with the services if the user had turned reporting off.
    public func protectedDataDidBecomeAvailable() {
        guard !settingsReadable else { return flush() }
        settingsReadable = true
        guard !store.reportingSwitchedOff else {
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

    /// The app's own switch.
    public func setReporting(_ on: Bool) {
        store.reportingSwitchedOff = !on
        if on { return resume() }
        stopServices()
    }

    private func stopServices() {
        manager.stopUpdatingLocation()
        manager.stopMonitoringSignificantLocationChanges()
        for region in manager.monitoredRegions
        where region.identifier == Self.restartRegionIdentifier {
            manager.stopMonitoring(for: region)
        }
    }

    /// Leaves the restart region at the last location.
    public func armRestartRegion() {
        guard settingsReadable, !store.reportingSwitchedOff, let lastLocation else { return }
        let region = CLCircularRegion(
            center: lastLocation.coordinate, radius: 150,
            identifier: Self.restartRegionIdentifier)
        region.notifyOnEntry = false
        region.notifyOnExit = true
        manager.startMonitoring(for: region)
    }

    /// Writes what could not be written before, and sends the next batch.
    public func flush() {
        guard settingsReadable else { return }
        if !unsaved.isEmpty, store.append(unsaved) { unsaved.removeAll() }
        sendNextBatch()
    }

    /// Sends the next batch inside a background task, unless one is on its way.
    private func sendNextBatch() {
        guard uploading == nil, let batch = store.nextBatch() else { return }
        var task = UIBackgroundTaskIdentifier.invalid
        task = application.beginBackgroundTask(withName: "upload") { [weak self] in
            self?.finishUpload(confirmed: false)
        }
        uploading = (batch.number, task)
        var request = URLRequest(url: URL(string: "https://example.com/api/locations")!)
        request.httpMethod = "POST"
        request.setValue(String(batch.number), forHTTPHeaderField: "Idempotency-Key")
        let upload = URLSession.shared.uploadTask(with: request, from: batch.body) {
            [weak self] _, response, error in
            let accepted = error == nil && (response as? HTTPURLResponse)?.statusCode == 200
            self?.finishUpload(confirmed: accepted)
        }
        upload.resume()
    }

    private func finishUpload(confirmed: Bool) {
        guard let (number, task) = uploading else { return }
        uploading = nil
        if confirmed { store.markSent(number) }
        application.endBackgroundTask(task)
    }

    // MARK: - CLLocationManagerDelegate

    public func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {
        let valid = locations.filter { $0.horizontalAccuracy >= 0 }
        guard let last = valid.last else { return }
        lastLocation = last
        unsaved += valid
        guard settingsReadable else { return }
        if store.append(unsaved) { unsaved.removeAll() }
    }

    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        resume()
    }

    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        resume()
    }
}

/// The app delegate: the reporter and its batch timer, started at every launch, background
/// relaunches included.
public final class ReporterAppDelegate: UIResponder, UIApplicationDelegate {
    public let store: ReportStore
    public private(set) var reporter: LocationReporter?
    private var batchTimer: Timer?

    public init(store: ReportStore) { self.store = store }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let reporter = LocationReporter(store: store, application: application)
        self.reporter = reporter
        reporter.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        startBatchTimer()
        return true
    }

    public func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        reporter?.protectedDataDidBecomeAvailable()
    }

    /// A repeating timer on the main run loop: the waiting locations go out every minute.
    public func startBatchTimer() {
        batchTimer?.invalidate()
        // A main run-loop timer runs its block on the main thread.
        let timer = Timer(timeInterval: LocationReporter.batchInterval, repeats: true) {
            [weak self] _ in MainActor.assumeIsolated { self?.reporter?.flush() }
        }
        timer.tolerance = 10
        RunLoop.main.add(timer, forMode: .common)
        batchTimer = timer
    }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        reporter?.resume()
        reporter?.flush()
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        reporter?.armRestartRegion()
        reporter?.flush()
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        reporter?.armRestartRegion()
    }
}
