// Core Location's value types with Apple's names (layer 4): coordinates, locations, regions,
// visits, the authorization enums and `CLError`, built from the world's fixes and events.
import Foundation
import Simulation
import World

/// `CLLocationDegrees`: a latitude or longitude in degrees (WGS 84).
public typealias CLLocationDegrees = Double
/// `CLLocationDistance`: a distance in metres.
public typealias CLLocationDistance = Double
/// `CLLocationAccuracy`: an accuracy in metres; negative means invalid.
public typealias CLLocationAccuracy = Double
/// `CLLocationSpeed`: metres per second; negative means invalid.
public typealias CLLocationSpeed = Double
/// `CLLocationSpeedAccuracy`: metres per second; negative means invalid.
public typealias CLLocationSpeedAccuracy = Double
/// `CLLocationDirection`: degrees from true north; negative means invalid.
public typealias CLLocationDirection = Double
/// `CLLocationDirectionAccuracy`: degrees; negative means invalid.
public typealias CLLocationDirectionAccuracy = Double

/// `kCLLocationAccuracyBestForNavigation` (Apple's value, −2).
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// `kCLLocationAccuracyBest` (Apple's value, −1; the default `desiredAccuracy`).
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// `kCLLocationAccuracyNearestTenMeters` (10 m).
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// `kCLLocationAccuracyHundredMeters` (100 m).
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// `kCLLocationAccuracyKilometer` (1,000 m).
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1_000
/// `kCLLocationAccuracyThreeKilometers` (3,000 m).
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3_000
/// `kCLDistanceFilterNone` (Apple's value, −1; the default `distanceFilter`).
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// `CLLocationDistanceMax`: the largest distance.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude
/// `kCLErrorDomain`: the domain of `CLError` as an `NSError`.
public let kCLErrorDomain = "kCLErrorDomain"

/// `CLLocationCoordinate2D`: a latitude and a longitude in degrees. Like Apple's, it is not
/// `Equatable` (a team's own conformance would clash with one declared here).
public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    /// `CLLocationCoordinate2D()`: (0, 0).
    public init() {
        latitude = 0
        longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// The world's coordinate.
    var world: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// `kCLLocationCoordinate2DInvalid`: the coordinate Core Location uses for "no coordinate"
/// (Apple's value, −180, −180).
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(
    latitude: -180, longitude: -180)

/// `CLLocationCoordinate2DIsValid(_:)`: latitude within ±90° and longitude within ±180°.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    coord.latitude >= -90 && coord.latitude <= 90 && coord.longitude >= -180
        && coord.longitude <= 180
}

/// `CLLocationCoordinate2DMake(_:_:)`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// `CLFloor`: the floor of a building. The world models no buildings, so Core Location's
/// `CLLocation.floor` is always nil here, as it is outdoors.
open class CLFloor: NSObject, @unchecked Sendable {
    /// The floor's level (0 is the ground floor).
    open var level: Int { 0 }
}

/// `CLLocation`: one location, immutable.
///
/// The world's fixes (`Fix`) become `CLLocation`s with the fix's coordinate, horizontal
/// accuracy and speed, and a `timestamp` computed from the fix's virtual instant
/// (`VirtualClock`). What the world does not model is reported as Core Location reports an
/// unknown value: `altitude` 0 with `verticalAccuracy` −1 (invalid), `course` and
/// `courseAccuracy` −1, `speedAccuracy` −1, `floor` nil. `distance(from:)` is the world's
/// great-circle distance (haversine on the mean sphere, `Coordinate.distance(to:)`), within
/// 0.5 % of Apple's ellipsoidal figure.
open class CLLocation: NSObject, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    /// `ellipsoidalAltitude`: the same as `altitude` (the world has no geoid model).
    public let ellipsoidalAltitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let course: CLLocationDirection
    public let courseAccuracy: CLLocationDirectionAccuracy
    public let speed: CLLocationSpeed
    public let speedAccuracy: CLLocationSpeedAccuracy
    public let timestamp: Date
    /// `floor`: nil (see `CLFloor`).
    public let floor: CLFloor? = nil
    /// The world's fix this location was made from; nil for a location the app made itself.
    /// Lifeline's own (not Apple's): a team's store adapter keeps it so the invariants can read
    /// the stored rows back (`FixReader.fixRecorder`).
    public let lifelineFix: Fix?

    /// `init(latitude:longitude:)`: accuracy 0, altitude invalid, the timestamp of the
    /// current callback (virtual time), or `VirtualClock.startDate` outside a process.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        let now = ProcessScope.current?.services?.now ?? .start
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
        ellipsoidalAltitude = 0
        horizontalAccuracy = 0
        verticalAccuracy = -1
        course = -1
        courseAccuracy = -1
        speed = -1
        speedAccuracy = -1
        timestamp = VirtualClock.date(now)
        lifelineFix = nil
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        ellipsoidalAltitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        course = -1
        courseAccuracy = -1
        speed = -1
        speedAccuracy = -1
        self.timestamp = timestamp
        lifelineFix = nil
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        speed: CLLocationSpeed, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        ellipsoidalAltitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        self.course = course
        courseAccuracy = -1
        self.speed = speed
        speedAccuracy = -1
        self.timestamp = timestamp
        lifelineFix = nil
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        courseAccuracy: CLLocationDirectionAccuracy, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        ellipsoidalAltitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
        lifelineFix = nil
    }

    /// A location from the world's fix.
    init(_ fix: Fix) {
        coordinate = CLLocationCoordinate2D(fix.coordinate)
        altitude = 0
        ellipsoidalAltitude = 0
        horizontalAccuracy = fix.horizontalAccuracyMeters
        verticalAccuracy = -1
        course = -1
        courseAccuracy = -1
        speed = fix.speedMetersPerSecond
        speedAccuracy = -1
        timestamp = VirtualClock.date(fix.instant)
        lifelineFix = fix
    }

    /// `distance(from:)`: the great-circle distance in metres.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        coordinate.world.distance(to: location.coordinate.world)
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m "
            + "speed \(speed) mps @ \(timestamp.timeIntervalSince1970)"
    }
}

/// `CLAuthorizationStatus`, with Apple's raw values. The world's `Authorization` has no
/// `restricted` (parental controls are not modelled), so the app never sees it.
public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4

    /// `authorized`: the old name of `authorizedAlways` (deprecated in iOS 8).
    @available(iOS, introduced: 2.0, deprecated: 8.0, renamed: "authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }

    init(_ authorization: Authorization) {
        switch authorization {
        case .notDetermined: self = .notDetermined
        case .whenInUse: self = .authorizedWhenInUse
        case .always: self = .authorizedAlways
        case .denied: self = .denied
        }
    }
}

/// `CLAccuracyAuthorization`, with Apple's raw values (R-F10: reduced accuracy).
public enum CLAccuracyAuthorization: Int, Sendable {
    case fullAccuracy = 0
    case reducedAccuracy = 1

    init(_ accuracy: AccuracyAuthorization) {
        self = accuracy == .full ? .fullAccuracy : .reducedAccuracy
    }
}

/// `CLActivityType`, with Apple's raw values. The world records it; it does not change
/// delivery (`ActivityType`).
public enum CLActivityType: Int, Sendable {
    case other = 1
    case automotiveNavigation = 2
    case fitness = 3
    case otherNavigation = 4
    case airborne = 5

    var world: ActivityType {
        switch self {
        case .other: .other
        case .automotiveNavigation: .automotiveNavigation
        case .fitness: .fitness
        case .otherNavigation: .otherNavigation
        case .airborne: .airborne
        }
    }
}

/// `CLRegionState`, with Apple's raw values.
public enum CLRegionState: Int, Sendable {
    case unknown = 0
    case inside = 1
    case outside = 2
}

/// `CLError`: Core Location's error, thrown and passed as `any Error` and castable back
/// (`error as? CLError`, `(error as NSError).code`). The world reports `.denied` (R-A4: access
/// lost), `.regionMonitoringFailure` (R-F8 over the limit, R-F10 reduced accuracy) and
/// `.locationUnknown` (R-G1: `requestLocation()` got no fix in time); the other codes exist so
/// a team's `switch` compiles.
public struct CLError: Error, Hashable, Sendable, CustomNSError {
    /// `CLError.Code`, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable {
        case locationUnknown = 0
        case denied = 1
        case network = 2
        case headingFailure = 3
        case regionMonitoringDenied = 4
        case regionMonitoringFailure = 5
        case regionMonitoringSetupDelayed = 6
        case regionMonitoringResponseDelayed = 7
        case geocodeFoundNoResult = 8
        case geocodeFoundPartialResult = 9
        case geocodeCanceled = 10
        case deferredFailed = 11
        case deferredNotUpdatingLocation = 12
        case deferredAccuracyTooLow = 13
        case deferredDistanceFiltered = 14
        case deferredCanceled = 15
        case rangingUnavailable = 16
        case rangingFailure = 17
        case promptDeclined = 18
        case historicalLocationError = 19
    }

    public let code: Code

    public init(_ code: Code) { self.code = code }

    public static var errorDomain: String { kCLErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [:] }

    public static var locationUnknown: Code { .locationUnknown }
    public static var denied: Code { .denied }
    public static var network: Code { .network }
    public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    public static var promptDeclined: Code { .promptDeclined }

    init(world error: LocationError) {
        switch error {
        case .denied: code = .denied
        case .regionMonitoringFailure: code = .regionMonitoringFailure
        case .locationUnknown: code = .locationUnknown
        }
    }
}

/// `case CLError.denied:` in a `catch` or a `switch` over an `Error`.
public func ~= (code: CLError.Code, error: any Error) -> Bool {
    (error as? CLError)?.code == code
}

/// `CLRegion`: a monitored area, equal to and hashed by its `identifier` (as Core Location's
/// are). Apple deprecated making a bare `CLRegion`; the app makes a `CLCircularRegion`. A
/// region the system reports that this process did not register is a bare `CLRegion` with its
/// identifier (see `CLLocationManager.monitoredRegions`).
open class CLRegion: NSObject, @unchecked Sendable {
    public let identifier: String
    /// `notifyOnEntry` (true by default): the delegate is told of entries. Honoured where the
    /// delegate is called; the world's daemon does not know the flag and still wakes or
    /// relaunches the app for an entry (issue 23).
    open var notifyOnEntry = true
    /// `notifyOnExit` (true by default): the delegate is told of exits (honoured as
    /// `notifyOnEntry` is).
    open var notifyOnExit = true

    init(identifier: String) { self.identifier = identifier }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CLRegion)?.identifier == identifier
    }

    open override var hash: Int { identifier.hashValue }
}

/// `CLCircularRegion`: a circle to monitor (R-B6, R-F8): its exit (and entry) wakes or
/// relaunches the app. `contains(_:)` uses the world's great-circle distance.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    public let center: CLLocationCoordinate2D
    public let radius: CLLocationDistance

    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }

    /// `contains(_:)`: the coordinate lies within `radius` of `center`.
    open func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        center.world.distance(to: coordinate.world) <= radius
    }

    var world: CircularRegion {
        CircularRegion(identifier: identifier, center: center.world, radiusMeters: radius)
    }
}

/// `CLVisit`: an arrival at a place or a departure from it (R-F9). The world tells a visit's
/// kind and place, not its times: the date of the callback that delivers it stands for the
/// arrival (or departure) date, and the unknown end is `Date.distantPast` (arrival of a
/// departure) or `Date.distantFuture` (departure of an arrival), as Apple documents. The
/// world gives no accuracy: `horizontalAccuracy` is −1 (invalid).
open class CLVisit: NSObject, @unchecked Sendable {
    public let arrivalDate: Date
    public let departureDate: Date
    public let coordinate: CLLocationCoordinate2D
    public let horizontalAccuracy: CLLocationAccuracy

    init(_ visit: Visit, at instant: Instant) {
        coordinate = CLLocationCoordinate2D(visit.coordinate)
        horizontalAccuracy = -1
        switch visit.kind {
        case .arrival:
            arrivalDate = VirtualClock.date(instant)
            departureDate = .distantFuture
        case .departure:
            arrivalDate = .distantPast
            departureDate = VirtualClock.date(instant)
        }
    }
}
