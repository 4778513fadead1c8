// `CLLocationManager` and `CLLocationManagerDelegate` with Apple's names (layer 4): a layer
// over the world's `LocationManager`, whose delegate callbacks it turns into Core Location's.
import Foundation
import Simulation
import World

/// `CLLocationManagerDelegate`: every method optional, as Apple's are (defaults in an
/// extension). Methods are nonisolated, as Apple's: a `@MainActor` class implements them as
/// `nonisolated`. Lifeline calls them on the simulation's thread, which stands for the main
/// thread the manager was made on (see `UIApplication` for what that does not yet cover).
///
/// What reaches whom follows the world's `LocationManagerDelegate`: a manager's locations,
/// failures, pause and resume go to that manager; significant change to the managers that
/// started it in this process; region entries and exits, visits and authorization changes to
/// every manager of the process, in creation order (a relaunched app's new manager receives
/// the region exit that woke it, R-A12, R-B6).
///
/// Deprecations are Apple's (`@available(iOS, deprecated: 14.0)`), so they warn in an iOS
/// build and not here.
///
/// `locationManagerDidChangeAuthorization(_:)` also comes once for each new manager with the
/// app's authorization then, after the code that made it returns (see
/// `ProcessScope.announce`), as Core Location guarantees.
///
/// `didStartMonitoringFor` comes once the system monitors a region registered with
/// `startMonitoring(for:)` (R-G4); `didDetermineState` answers `requestState(for:)` (R-G3).
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The authorization callback before iOS 14. Its default is empty; the default of
    /// `locationManagerDidChangeAuthorization(_:)` calls it, so it runs only for a delegate that
    /// does not implement the new one, as on iOS.
    @available(iOS, introduced: 4.2, deprecated: 14.0)
    func locationManager(
        _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState,
        for region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
        withError error: any Error)
    func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit)
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
    /// The beacons a ranging heard this second (R-L48).
    func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint)
    /// A ranging could not start (R-L48).
    func locationManager(
        _ manager: CLLocationManager,
        didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint,
        error: any Error)
}

extension CLLocationManagerDelegate {
    public func locationManager(
        _ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]
    ) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
    @available(iOS, introduced: 4.2, deprecated: 14.0)
    public func locationManager(
        _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
    ) {}
    /// By default, the legacy `locationManager(_:didChangeAuthorization:)`.
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        legacyAuthorizationChanged(manager)
    }
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
    public func locationManager(
        _ manager: CLLocationManager, didDetermineState state: CLRegionState,
        for region: CLRegion
    ) {}
    public func locationManager(
        _ manager: CLLocationManager, didStartMonitoringFor region: CLRegion
    ) {}
    public func locationManager(
        _ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?,
        withError error: any Error
    ) {}
    public func locationManager(_ manager: CLLocationManager, didVisit visit: CLVisit) {}
    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {}
    public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {}
    public func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    ) {}
    public func locationManager(
        _ manager: CLLocationManager,
        didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint,
        error: any Error
    ) {}
}

extension CLLocationManagerDelegate {
    fileprivate func legacyAuthorizationChanged(_ manager: CLLocationManager) {
        locationManager(manager, didChangeAuthorization: manager.authorizationStatus)
    }
}

/// `CLLocationManager`: an `open` class with `open` members, as teams subclass it in their
/// tests. Made inside a simulated process (any callback of an `ApplicationEngine` app), it is
/// the world's `LocationManager` of that process with Apple's names: settings start at Core
/// Location's defaults (R-A8, R-F4), calls are recorded and take effect when the callback
/// returns, and setting `allowsBackgroundLocationUpdates` to true without the location
/// background mode ends the process at once (R-A9).
///
/// Made outside a simulated process (a unit test that builds a mock), it is detached: it
/// reaches no system, reads `.notDetermined` and full accuracy, and its calls have no effect,
/// which is what an override in a subclass is for.
///
/// Beacon ranging and beacon regions are in `CLBeacon.swift` (R-L45–R-L48). Not here: heading,
/// deferred updates.
open class CLLocationManager: NSObject {
    /// The world's manager; nil for a detached manager.
    let backing: LocationManager?
    /// Turns the world's delegate callbacks into this manager's (held here: the world holds
    /// its delegate weakly).
    private let bridge: DelegateBridge?
    /// The process this manager belongs to.
    private weak var scope: ProcessScope?

    public override init() {
        let scope = ProcessScope.current
        self.scope = scope
        if let services = scope?.services {
            let manager = LocationManager(services: services)
            manager.reportsMonitoringStarts = true  // R-G4
            let bridge = DelegateBridge()
            backing = manager
            self.bridge = bridge
            super.init()
            bridge.owner = self
            scope?.announce(self)
        } else {
            backing = nil
            bridge = nil
            super.init()
        }
    }

    /// `delegate`, held weakly as Core Location holds it. Setting one tells the system this
    /// manager has a delegate (pause, resume and accuracy changes are then sent). Read at
    /// every delegate callback, so without the run-time exclusivity check (about 75
    /// instructions a read): only the simulation's thread touches a manager.
    @exclusivity(unchecked) open weak var delegate: (any CLLocationManagerDelegate)? {
        didSet { backing?.delegate = delegate == nil ? nil : bridge }
    }

    // MARK: - Settings

    /// `allowsBackgroundLocationUpdates` (false by default, R-A8); true without the location
    /// background mode fails an assertion and ends the process (R-A9).
    open var allowsBackgroundLocationUpdates: Bool {
        get { backing?.allowsBackgroundLocationUpdates ?? storedAllowsBackground }
        set {
            storedAllowsBackground = newValue
            backing?.allowsBackgroundLocationUpdates = newValue
        }
    }
    private var storedAllowsBackground = false

    /// `pausesLocationUpdatesAutomatically` (true by default, R-F4).
    open var pausesLocationUpdatesAutomatically: Bool {
        get { backing?.pausesLocationUpdatesAutomatically ?? storedPauses }
        set {
            storedPauses = newValue
            backing?.pausesLocationUpdatesAutomatically = newValue
        }
    }
    private var storedPauses = true

    /// `activityType` (`.other` by default); recorded, no modelled effect.
    open var activityType: CLActivityType = .other {
        didSet { backing?.activityType = activityType.world }
    }

    /// `distanceFilter` in metres (`kCLDistanceFilterNone` by default).
    open var distanceFilter: CLLocationDistance {
        get { backing?.distanceFilter ?? storedDistanceFilter }
        set {
            storedDistanceFilter = newValue
            backing?.distanceFilter = newValue
        }
    }
    private var storedDistanceFilter = kCLDistanceFilterNone

    /// `desiredAccuracy` in metres (`kCLLocationAccuracyBest` by default); it chooses the
    /// source of the fixes (R-F10). `kCLLocationAccuracyBestForNavigation` is taken as best.
    open var desiredAccuracy: CLLocationAccuracy {
        get { storedDesiredAccuracy }
        set {
            storedDesiredAccuracy = newValue
            backing?.desiredAccuracy = max(newValue, kCLLocationAccuracyBest)
        }
    }
    private var storedDesiredAccuracy = kCLLocationAccuracyBest

    /// `showsBackgroundLocationIndicator` (false by default, R-A8, R-B8).
    open var showsBackgroundLocationIndicator: Bool {
        get { backing?.showsBackgroundLocationIndicator ?? storedShowsIndicator }
        set {
            storedShowsIndicator = newValue
            backing?.showsBackgroundLocationIndicator = newValue
        }
    }
    private var storedShowsIndicator = false

    /// `maximumRegionMonitoringDistance`: the largest radius Core Location accepts. The world
    /// sets no limit on a region's radius, so none is claimed: `CLLocationDistanceMax`.
    open var maximumRegionMonitoringDistance: CLLocationDistance { CLLocationDistanceMax }

    // MARK: - Authorization

    /// `authorizationStatus`: as this process knows it (at launch, then each change).
    open var authorizationStatus: CLAuthorizationStatus {
        CLAuthorizationStatus(backing?.authorizationStatus ?? .notDetermined)
    }

    /// `accuracyAuthorization`: as this process knows it.
    open var accuracyAuthorization: CLAccuracyAuthorization {
        CLAccuracyAuthorization(backing?.accuracyAuthorization ?? .full)
    }

    /// `authorizationStatus()`, the class method before iOS 14: the calling process's
    /// authorization.
    @available(iOS, introduced: 4.2, deprecated: 14.0)
    open class func authorizationStatus() -> CLAuthorizationStatus {
        CLAuthorizationStatus(ProcessScope.current?.services?.authorizationStatus ?? .notDetermined)
    }

    /// `locationServicesEnabled()`: whether the user has Location Services on for the whole
    /// phone (R-L40; the scenario's `location-services on|off`, on at the start). While off,
    /// the app's authorization reads `denied` and its delegate is told so (R-L41). Outside a
    /// simulated process, true.
    open class func locationServicesEnabled() -> Bool {
        ProcessScope.current?.services?.locationServicesEnabled ?? true
    }

    /// `significantLocationChangeMonitoringAvailable()`: true (every modelled device has it).
    open class func significantLocationChangeMonitoringAvailable() -> Bool { true }

    /// `isMonitoringAvailable(for:)`: true for `CLCircularRegion` and `CLBeaconRegion`, the
    /// region kinds modelled.
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        regionClass == CLCircularRegion.self || regionClass == CLBeaconRegion.self
    }

    /// `requestWhenInUseAuthorization()`: the prompt shows only in the foreground; the user's
    /// answer (`AuthorizationAnswers`) arrives as `locationManagerDidChangeAuthorization(_:)`.
    open func requestWhenInUseAuthorization() { backing?.requestWhenInUseAuthorization() }

    /// `requestAlwaysAuthorization()`: once per app, only in the foreground.
    open func requestAlwaysAuthorization() { backing?.requestAlwaysAuthorization() }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`, without a completion:
    /// with reduced accuracy and the app in the foreground, the user answers
    /// (`AuthorizationAnswers.temporaryFullAccuracy`); granted, accuracy is full until the
    /// process ends, and the delegate hears of it.
    open func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
        backing?.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey)
    }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`: `completion`
    /// runs on the main queue once the request completes: with nil after the user answered the
    /// prompt (read `accuracyAuthorization` for the answer; it is already current), or with a
    /// `CLError.promptDeclined` at once when no prompt could show
    /// (`TemporaryFullAccuracyOutcome.notShown` says when). It never runs if the process ends
    /// first. A manager made outside a simulated process calls it at once with the same error.
    open func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String, completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        guard let backing else {
            completion?(CLError(.promptDeclined))
            return
        }
        guard let completion else {
            return backing.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey)
        }
        backing.requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
            completion(error.map { CLError(world: $0) })
        }
    }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:) async throws`: returns once
    /// the user answered the prompt, and throws the completion form's error when no prompt
    /// could show. It runs on the caller's actor (`nonisolated(nonsending)`), so main-actor code
    /// awaits it on a manager it holds without sending the manager elsewhere. If the process
    /// ends first the task waits forever, as the process's other tasks do (an unsafe
    /// continuation, so no misuse warning is logged for it).
    nonisolated(nonsending) open func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String
    ) async throws {
        try await withUnsafeThrowingContinuation {
            (continuation: UnsafeContinuation<Void, any Error>) in
            requestTemporaryFullAccuracyAuthorization(withPurposeKey: purposeKey) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // MARK: - Updates

    /// `startUpdatingLocation()`: locations reach `didUpdateLocations` (held ones in one batch
    /// when a suspended app resumes, R-A2).
    open func startUpdatingLocation() { backing?.startUpdatingLocation() }
    open func stopUpdatingLocation() { backing?.stopUpdatingLocation() }

    /// `requestLocation()` (R-G1): one location reaches `didUpdateLocations`, then the request
    /// ends; when none reaches the app within the policy's `requestLocationTimeout`,
    /// `didFailWithError` gets `CLError.locationUnknown`.
    open func requestLocation() { backing?.requestLocation() }

    /// `location`: the system's most recent location, kept across launches, so a freshly
    /// launched process reads the last fix an earlier one was sent (R-G2). Nil before the
    /// first fix, while the app is not authorized, and for a detached manager.
    open var location: CLLocation? { backing?.location.map(CLLocation.init) }

    /// `startMonitoringSignificantLocationChanges()`: one registration per app that outlives
    /// the process and relaunches it (R-A10, R-B5); each process must start it again to get
    /// the locations (F).
    open func startMonitoringSignificantLocationChanges() {
        backing?.startMonitoringSignificantLocationChanges()
    }
    open func stopMonitoringSignificantLocationChanges() {
        backing?.stopMonitoringSignificantLocationChanges()
    }

    /// `startMonitoringVisits()` (R-F9): outlives the process.
    open func startMonitoringVisits() { backing?.startMonitoringVisits() }
    open func stopMonitoringVisits() { backing?.stopMonitoringVisits() }

    // MARK: - Regions

    /// `startMonitoring(for:)`: a `CLCircularRegion` persists across launches and relaunches
    /// the app on exit (R-B6); one with the same identifier replaces the old. Over the limit,
    /// or with reduced accuracy, the delegate gets `monitoringDidFailFor` (R-F8, R-F10). Any
    /// other kind of region fails with `regionMonitoringFailure` at once. A `CLBeaconRegion` is
    /// monitored as a circle around each beacon of the run it matches (R-L47); with none, the
    /// system monitors nothing for it.
    open func startMonitoring(for region: CLRegion) {
        guard let backing else { return }
        if let beaconRegion = region as? CLBeaconRegion {
            scope?.register(beaconRegion)
            guard let field = scope?.services?.beacons else { return }
            for circle in beaconRegion.circles(over: field) { backing.startMonitoring(for: circle) }
            return
        }
        guard let circle = region as? CLCircularRegion else {
            let error = CLError(CLError.Code.regionMonitoringFailure)
            delegate?.locationManager(self, monitoringDidFailFor: region, withError: error)
            return
        }
        scope?.register(circle)
        backing.startMonitoring(for: circle.world)
    }

    /// `stopMonitoring(for:)`, by the region's identifier.
    open func stopMonitoring(for region: CLRegion) {
        guard let backing, let scope else { return }
        scope.unregister(region.identifier)
        scope.services?.stopMonitoring(backing.id, regionIdentifier: region.identifier)
        for circle in backing.monitoredRegions
        where CLBeaconRegion.decoded(circle.identifier)?.identifier == region.identifier {
            scope.services?.stopMonitoring(backing.id, regionIdentifier: circle.identifier)
        }
    }

    /// `requestState(for:)` (R-G3): the delegate's `locationManager(_:didDetermineState:for:)`
    /// answers `.inside` or `.outside` for a region the system monitors, `.unknown` for
    /// another or before the first unlock after a boot.
    open func requestState(for region: CLRegion) {
        backing?.requestState(forRegionIdentifier: region.identifier)
    }

    /// `monitoredRegions`: the regions the system monitors for the app, shared by every
    /// manager and kept across launches (R-G5): a relaunched process reads those an earlier
    /// one registered. A region this process registered is the object it passed (its
    /// `notifyOnEntry` and `notifyOnExit` included); one from an earlier process is a new
    /// `CLCircularRegion` with its identifier, center and radius (both flags true, as the
    /// system does not keep them in the model).
    open var monitoredRegions: Set<CLRegion> {
        guard let backing else { return [] }
        return Set(backing.monitoredRegions.map { region($0.identifier) })
    }

    // MARK: - From the world

    /// The first authorization callback (`ProcessScope.announce`).
    func announceAuthorization() { bridge?.locationManagerDidChangeAuthorizationAtCreation() }

    /// The region the world names, as this process registered it, or as the system monitors
    /// it for the app, or a bare one.
    func region(_ identifier: String) -> CLRegion {
        if let beaconRegion = CLBeaconRegion.decoded(identifier) {
            return scope?.region(beaconRegion.identifier) ?? beaconRegion
        }
        if let registered = scope?.region(identifier) { return registered }
        if let monitored = backing?.monitoredRegions.first(where: { $0.identifier == identifier }) {
            return region(for: monitored)
        }
        return CLRegion(identifier: identifier)
    }

    /// `monitored` as this process registered it, or as a new `CLCircularRegion`.
    private func region(for monitored: CircularRegion) -> CLRegion {
        scope?.region(monitored.identifier)
            ?? CLCircularRegion(
                center: CLLocationCoordinate2D(
                    latitude: monitored.center.latitude, longitude: monitored.center.longitude),
                radius: monitored.radiusMeters, identifier: monitored.identifier)
    }
}

/// The world's delegate of one `CLLocationManager`: turns the world's callbacks into Core
/// Location's (called on the manager's process's thread, where it is `ProcessScope.current`).
final class DelegateBridge: LocationManagerDelegate {
    weak var owner: CLLocationManager?

    private func tell(_ body: (CLLocationManager, any CLLocationManagerDelegate) -> Void) {
        guard let owner, let delegate = owner.delegate else { return }
        body(owner, delegate)
    }

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        guard let owner, let delegate = owner.delegate else { return }
        // Nearly every callback carries one location: an array literal of it costs about 250
        // instructions less than `map`'s generic growth.
        let converted =
            locations.count == 1 ? [CLLocation(locations[0])] : locations.map(CLLocation.init)
        delegate.locationManager(owner, didUpdateLocations: converted)
    }

    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
        tell { $1.locationManager($0, didFailWithError: CLError(world: error)) }
    }

    func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {
        tell { $1.locationManagerDidPauseLocationUpdates($0) }
    }

    func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) {
        tell { $1.locationManagerDidResumeLocationUpdates($0) }
    }

    func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
        tell { $1.locationManagerDidChangeAuthorization($0) }
    }

    func locationManagerDidChangeAuthorizationAtCreation() {
        tell { $1.locationManagerDidChangeAuthorization($0) }
    }

    func locationManager(
        _ manager: LocationManager, monitoringDidFailFor regionIdentifier: String,
        withError error: LocationError
    ) {
        tell {
            $1.locationManager(
                $0, monitoringDidFailFor: $0.region(regionIdentifier),
                withError: CLError(world: error))
        }
    }

    func locationManager(_ manager: LocationManager, didEnterRegion regionIdentifier: String) {
        tell { owner, delegate in
            let region = owner.region(regionIdentifier)
            guard region.notifyOnEntry else { return }
            delegate.locationManager(owner, didEnterRegion: region)
        }
    }

    func locationManager(_ manager: LocationManager, didExitRegion regionIdentifier: String) {
        tell { owner, delegate in
            let region = owner.region(regionIdentifier)
            guard region.notifyOnExit else { return }
            delegate.locationManager(owner, didExitRegion: region)
        }
    }

    func locationManager(
        _ manager: LocationManager, didStartMonitoringFor regionIdentifier: String
    ) {
        tell { $1.locationManager($0, didStartMonitoringFor: $0.region(regionIdentifier)) }
    }

    func locationManager(
        _ manager: LocationManager, didDetermineState state: ConditionState,
        forRegion regionIdentifier: String
    ) {
        let regionState: CLRegionState =
            switch state {
            case .satisfied: .inside
            case .unsatisfied: .outside
            case .unknown: .unknown
            }
        tell {
            $1.locationManager($0, didDetermineState: regionState, for: $0.region(regionIdentifier))
        }
    }

    func locationManager(_ manager: LocationManager, didVisit visit: Visit) {
        let now = ProcessScope.current?.services?.now ?? .start
        tell { $1.locationManager($0, didVisit: CLVisit(visit, at: now)) }
    }
}
