// The engine API's manager objects (layer 3): `LocationManager` and its delegate, shaped like
// `CLLocationManager` and `CLLocationManagerDelegate`, built on the first form's requests.
import Simulation

/// `CLLocationManagerDelegate`: what one `LocationManager` tells its delegate. Every method has
/// an empty default, as Core Location's are optional.
///
/// Which manager's delegate is told what (the app process routes each item it hands):
/// - locations of `startUpdatingLocation` go to the manager that asked, in batches: the fixes
///   held for a suspended app that belong to one manager, in a row, arrive in one call (R-A2);
/// - `didFailWithError`, `monitoringDidFailFor`, `didPause…` and `didResume…` go to the
///   manager they name;
/// - a significant change goes, as `didUpdateLocations` with one fix, to every manager of this
///   process that started significant change (each process must start it again, F);
/// - legacy region entries and exits and visits go to every manager of the process, in creation
///   order: ios-facts.md ("Region persistence") has `monitoredRegions` shared by all managers,
///   and a relaunched app receives them through a new manager without starting anything (F,
///   R-A12, R-B6, R-F9);
/// - authorization and accuracy changes go to every manager, in creation order;
/// - `CLMonitor` conditions and live updates have no manager: they reach the engine's
///   first-form callbacks (`AppEngine.didReceive`), and a condition added through a `Monitor`
///   object also that monitor's delegate (`MonitorDelegate`).
///
/// The engine's first-form callbacks are still called for every item, one location at a time,
/// before the delegate's.
public protocol LocationManagerDelegate: AnyObject {
    /// `locationManager(_:didUpdateLocations:)`: one or more fixes, oldest first.
    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix])
    /// `locationManager(_:didFailWithError:)` (R-A4: access lost).
    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError)
    /// `locationManagerDidPauseLocationUpdates(_:)`: the automatic pause (R-F4); updates stay
    /// off until the app starts them again.
    func locationManagerDidPauseLocationUpdates(_ manager: LocationManager)
    /// `locationManagerDidResumeLocationUpdates(_:)`: the app started the paused updates again.
    func locationManagerDidResumeLocationUpdates(_ manager: LocationManager)
    /// `locationManagerDidChangeAuthorization(_:)`: read `authorizationStatus` and
    /// `accuracyAuthorization`.
    func locationManagerDidChangeAuthorization(_ manager: LocationManager)
    /// `locationManager(_:monitoringDidFailFor:withError:)`, by the region's identifier (R-F8,
    /// R-F10).
    func locationManager(
        _ manager: LocationManager, monitoringDidFailFor regionIdentifier: String,
        withError error: LocationError)
    /// `locationManager(_:didEnterRegion:)`, by the region's identifier (R-F8).
    func locationManager(_ manager: LocationManager, didEnterRegion regionIdentifier: String)
    /// `locationManager(_:didExitRegion:)`, by the region's identifier (R-B6, R-F8).
    func locationManager(_ manager: LocationManager, didExitRegion regionIdentifier: String)
    /// `locationManager(_:didVisit:)` (R-F9).
    func locationManager(_ manager: LocationManager, didVisit visit: Visit)
    /// `locationManager(_:didStartMonitoringFor:)`, by the region's identifier: the daemon
    /// monitors the region (R-G4). Sent only to a manager that asks for it
    /// (`reportsMonitoringStarts`).
    func locationManager(_ manager: LocationManager, didStartMonitoringFor regionIdentifier: String)
    /// `locationManager(_:didDetermineState:for:)`, the answer to `requestState(for:)` (R-G3):
    /// `satisfied` inside, `unsatisfied` outside, `unknown` when not known.
    func locationManager(
        _ manager: LocationManager, didDetermineState state: ConditionState,
        forRegion regionIdentifier: String)
}

extension LocationManagerDelegate {
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {}
    public func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
    }
    public func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {}
    public func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) {}
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {}
    public func locationManager(
        _ manager: LocationManager, monitoringDidFailFor regionIdentifier: String,
        withError error: LocationError
    ) {}
    public func locationManager(_ manager: LocationManager, didEnterRegion regionIdentifier: String)
    {}
    public func locationManager(_ manager: LocationManager, didExitRegion regionIdentifier: String)
    {}
    public func locationManager(_ manager: LocationManager, didVisit visit: Visit) {}
    public func locationManager(
        _ manager: LocationManager, didStartMonitoringFor regionIdentifier: String
    ) {}
    public func locationManager(
        _ manager: LocationManager, didDetermineState state: ConditionState,
        forRegion regionIdentifier: String
    ) {}
}

/// `CLVisit`: an arrival at a place, or a departure from it (R-F9).
public struct Visit: Sendable, Equatable, CustomStringConvertible {
    /// Arrival (the departure is not known yet) or departure.
    public enum Kind: String, Sendable { case arrival, departure }
    public var kind: Kind
    public var coordinate: Coordinate

    package init(kind: Kind, coordinate: Coordinate) {
        self.kind = kind
        self.coordinate = coordinate
    }

    public var description: String { "visit \(kind.rawValue) \(coordinate)" }
}

/// `kCLLocationAccuracy…`: values for `LocationManager.desiredAccuracy`, in metres.
public enum LocationAccuracy {
    /// `kCLLocationAccuracyBest` (the default).
    public static let best = -1.0
    /// `kCLLocationAccuracyNearestTenMeters`.
    public static let nearestTenMeters = 10.0
    /// `kCLLocationAccuracyHundredMeters`.
    public static let hundredMeters = 100.0
    /// `kCLLocationAccuracyKilometer`.
    public static let kilometer = 1_000.0
    /// `kCLLocationAccuracyThreeKilometers`.
    public static let threeKilometers = 3_000.0
}

/// `CLLocationManager`: one manager object with its own settings and delegate. It records the
/// same requests as the first form's handle calls (`LocationServices.makeManager()` and the
/// calls that take its `id`), so both forms behave alike; what it adds is the delegate.
///
/// Made with `LocationManager(services:)` (or `services.makeLocationManager()`) inside a
/// callback, it belongs to that process: the services keep it until the process ends, and a
/// relaunched app makes new ones. The `delegate` is held weakly, as Core Location holds it:
/// keep the delegate alive (an engine that is its own delegate is kept by the app process).
/// Properties start at Core Location's defaults (ios-facts.md "CLLocationManager defaults",
/// R-A8, R-F4); setting one records the request when the callback returns. Setting
/// `allowsBackgroundLocationUpdates` to true without the location background mode ends the
/// process at once (R-A9).
public final class LocationManager {
    /// The manager's handle, the one the first form's calls and `LocationUpdate` use.
    package let id: ObjectID
    private weak var services: LocationServices?
    private var delegateAnnounced = false
    /// True once this manager started significant change (its delegate gets those locations).
    public private(set) var monitorsSignificantLocationChanges = false
    /// `location`: the system's most recent fix for the app, valid in a freshly launched
    /// process before any fix of its own (R-G2); nil before the first and while the app is not
    /// authorized (`LocationServices.cachedLocation`).
    public var location: Fix? { services?.cachedLocation }
    /// `monitoredRegions`: the legacy regions the system monitors for the app, shared by every
    /// manager and kept across launches (R-G5; `LocationServices.monitoredRegions`).
    public var monitoredRegions: [CircularRegion] { services?.monitoredRegions ?? [] }
    /// Whether the delegate is told `didStartMonitoringFor` (R-G4). Core Location always tells
    /// it; LifelineKit's `CLLocationManager` sets this. The built-in engines' managers leave it
    /// off, so their runs (and pinned trace hashes) stay as they were before it existed.
    package var reportsMonitoringStarts = false

    /// `CLLocationManager()` within the process that `services` serves.
    public init(services: LocationServices) {
        self.services = services
        id = services.makeManager()
        services.register(self)
    }

    /// The delegate, held weakly. The first time one is set, the system learns that this
    /// manager has a delegate: it then sends pause and resume (R-F4) and accuracy changes, and
    /// an accuracy change the app missed while it had none.
    public weak var delegate: (any LocationManagerDelegate)? {
        didSet {
            guard delegate != nil, !delegateAnnounced else { return }
            delegateAnnounced = true
            services?.record(.setDelegate(id))
        }
    }

    /// `allowsBackgroundLocationUpdates` (false by default, R-A8); true without the location
    /// background mode fails an assertion and ends the process (R-A9).
    public var allowsBackgroundLocationUpdates = false {
        didSet { services?.setAllowsBackgroundLocationUpdates(id, allowsBackgroundLocationUpdates) }
    }
    /// `pausesLocationUpdatesAutomatically` (true by default, R-F4).
    public var pausesLocationUpdatesAutomatically = true {
        didSet {
            services?.setPausesLocationUpdatesAutomatically(id, pausesLocationUpdatesAutomatically)
        }
    }
    /// `desiredAccuracy` in metres (`LocationAccuracy.best` by default); it chooses the
    /// source of the fixes (R-F10).
    public var desiredAccuracy = LocationAccuracy.best {
        didSet { services?.setDesiredAccuracy(id, meters: desiredAccuracy) }
    }
    /// `distanceFilter` in metres (`LocationManager.distanceFilterNone` by default).
    public var distanceFilter = LocationManager.distanceFilterNone {
        didSet { services?.setDistanceFilter(id, meters: distanceFilter) }
    }
    /// `kCLDistanceFilterNone`.
    public static let distanceFilterNone = -1.0
    /// `activityType` (`.other` by default).
    public var activityType = ActivityType.other {
        didSet { services?.setActivityType(id, activityType) }
    }
    /// `showsBackgroundLocationIndicator` (false by default, R-A8): for an Always app, the blue
    /// indicator shows while this manager delivers in the background only if true (R-B8).
    public var showsBackgroundLocationIndicator = false {
        didSet {
            services?.setShowsBackgroundLocationIndicator(id, showsBackgroundLocationIndicator)
        }
    }

    /// `requestWhenInUseAuthorization()` (`LocationServices.requestWhenInUseAuthorization`).
    public func requestWhenInUseAuthorization() { services?.requestWhenInUseAuthorization() }
    /// `requestAlwaysAuthorization()` (`LocationServices.requestAlwaysAuthorization`).
    public func requestAlwaysAuthorization() { services?.requestAlwaysAuthorization() }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:)`
    /// (`LocationServices.requestTemporaryFullAccuracy(purposeKey:)`).
    public func requestTemporaryFullAccuracyAuthorization(withPurposeKey purposeKey: String) {
        services?.requestTemporaryFullAccuracy(purposeKey: purposeKey)
    }

    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)`
    /// (`LocationServices.requestTemporaryFullAccuracy(purposeKey:completion:)`): `completion`
    /// runs with nil once the user answered, or with `.promptDeclined` when no prompt could show.
    public func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String, completion: @escaping (LocationError?) -> Void
    ) {
        services?.requestTemporaryFullAccuracy(purposeKey: purposeKey, completion: completion)
    }

    /// `authorizationStatus` as the app knows it now.
    public var authorizationStatus: Authorization {
        services?.authorizationStatus ?? .notDetermined
    }
    /// `accuracyAuthorization` as the app knows it now.
    public var accuracyAuthorization: AccuracyAuthorization {
        services?.accuracyAuthorization ?? .full
    }

    public func startUpdatingLocation() { services?.startUpdatingLocation(id) }
    public func stopUpdatingLocation() { services?.stopUpdatingLocation(id) }

    /// Significant change is one registration per app (it outlives the process, R-A10); the
    /// delegate of each manager that started it in this process gets its locations.
    public func startMonitoringSignificantLocationChanges() {
        monitorsSignificantLocationChanges = true
        services?.startMonitoringSignificantLocationChanges()
    }
    public func stopMonitoringSignificantLocationChanges() {
        monitorsSignificantLocationChanges = false
        services?.stopMonitoringSignificantLocationChanges()
    }

    /// `startMonitoring(for:)` (R-B6, R-F8): the region persists across launches.
    public func startMonitoring(for region: CircularRegion) {
        services?.startMonitoring(id, for: region)
        if reportsMonitoringStarts {
            services?.record(.confirmMonitoringStart(id, identifier: region.identifier))
        }
    }

    /// `requestState(for:)` (R-G3): the delegate's `didDetermineState` answers, by the region's
    /// identifier, whether the device is inside a region the system monitors.
    public func requestState(for region: CircularRegion) {
        requestState(forRegionIdentifier: region.identifier)
    }

    /// `requestState(for:)` by the region's identifier.
    package func requestState(forRegionIdentifier identifier: String) {
        services?.record(.requestRegionState(id, identifier: identifier))
    }

    /// `requestLocation()` (R-G1): one fix reaches the delegate's `didUpdateLocations`, then
    /// the request ends; with none within `requestLocationTimeout`, `didFailWithError` with
    /// `locationUnknown`. It works alongside `startUpdatingLocation()`.
    public func requestLocation() { services?.record(.requestLocation(id)) }
    /// `stopMonitoring(for:)`.
    public func stopMonitoring(for region: CircularRegion) {
        services?.stopMonitoring(id, regionIdentifier: region.identifier)
    }

    /// `startMonitoringVisits()` (R-F9).
    public func startMonitoringVisits() { services?.startMonitoringVisits() }
    public func stopMonitoringVisits() { services?.stopMonitoringVisits() }
}

/// The delegate side of the app process's hand-over: which `LocationManager` objects of the
/// process are told what (see `LocationManagerDelegate`), in creation order.
struct Delegates {
    let services: LocationServices

    /// A manager's fixes, in one batch.
    func deliver(_ fixes: [Fix], to id: ObjectID) {
        guard let manager = services.locationManager(id), !fixes.isEmpty else { return }
        manager.delegate?.locationManager(manager, didUpdateLocations: fixes)
    }

    func fail(_ error: LocationError, manager id: ObjectID) {
        guard let manager = services.locationManager(id) else { return }
        manager.delegate?.locationManager(manager, didFailWithError: error)
    }

    func monitoringFailed(_ region: String, _ error: LocationError, manager id: ObjectID) {
        guard let manager = services.locationManager(id) else { return }
        manager.delegate?.locationManager(
            manager, monitoringDidFailFor: region, withError: error)
    }

    func monitoringStarted(_ region: String, manager id: ObjectID) {
        guard let manager = services.locationManager(id) else { return }
        manager.delegate?.locationManager(manager, didStartMonitoringFor: region)
    }

    func determined(_ state: ConditionState, _ region: String, manager id: ObjectID) {
        guard let manager = services.locationManager(id) else { return }
        manager.delegate?.locationManager(manager, didDetermineState: state, forRegion: region)
    }

    func pausedChanged(manager id: ObjectID, paused: Bool) {
        guard let manager = services.locationManager(id) else { return }
        if paused {
            manager.delegate?.locationManagerDidPauseLocationUpdates(manager)
        } else {
            manager.delegate?.locationManagerDidResumeLocationUpdates(manager)
        }
    }

    func authorizationChanged() {
        for manager in services.locationManagers {
            manager.delegate?.locationManagerDidChangeAuthorization(manager)
        }
    }

    /// A monitoring event: significant change to the managers that started it; legacy regions
    /// and visits to every manager; `CLMonitor` conditions to none.
    func deliver(_ event: MonitoringEvent) {
        for manager in services.locationManagers {
            switch event {
            case .significantChange(let fix) where manager.monitorsSignificantLocationChanges:
                manager.delegate?.locationManager(manager, didUpdateLocations: [fix])
            case .regionExit(let identifier):
                manager.delegate?.locationManager(manager, didExitRegion: identifier)
            case .regionEntry(let identifier):
                manager.delegate?.locationManager(manager, didEnterRegion: identifier)
            case .visitArrival(let coordinate):
                manager.delegate?.locationManager(
                    manager, didVisit: Visit(kind: .arrival, coordinate: coordinate))
            case .visitDeparture(let coordinate):
                manager.delegate?.locationManager(
                    manager, didVisit: Visit(kind: .departure, coordinate: coordinate))
            default: break
            }
        }
    }
}
