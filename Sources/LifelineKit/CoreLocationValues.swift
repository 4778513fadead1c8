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
/// `kCLLocationAccuracyReduced` (iOS 14): the accuracy of an app without full accuracy. Apple
/// does not document its value; 3,000 m here (an assumption: a team should compare against
/// the constant, never a number). Asking for it is recorded like any `desiredAccuracy`; the
/// world's reduced fixes follow the accuracy authorization (R-F10), not this setting.
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3_000
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
open class CLLocation: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    /// What Core Location reports of one location, as given or as read from the world's fix.
    private struct Values {
        var coordinate: CLLocationCoordinate2D
        var altitude: CLLocationDistance = 0
        var horizontalAccuracy: CLLocationAccuracy = 0
        var verticalAccuracy: CLLocationAccuracy = -1
        var course: CLLocationDirection = -1
        var courseAccuracy: CLLocationDirectionAccuracy = -1
        var speed: CLLocationSpeed = -1
        var speedAccuracy: CLLocationSpeedAccuracy = -1
        var timestamp: Date
        var sourceInformation: CLLocationSourceInformation? = nil
    }

    private let values: Values

    // The properties are `open`, as Apple's (Objective-C properties are overridable), so a
    // team's test double can override them (`class FakeLocation: CLLocation`).
    open var coordinate: CLLocationCoordinate2D { values.coordinate }
    open var altitude: CLLocationDistance { values.altitude }
    /// `ellipsoidalAltitude`: the same as `altitude` (the world has no geoid model).
    open var ellipsoidalAltitude: CLLocationDistance { values.altitude }
    open var horizontalAccuracy: CLLocationAccuracy { values.horizontalAccuracy }
    open var verticalAccuracy: CLLocationAccuracy { values.verticalAccuracy }
    open var course: CLLocationDirection { values.course }
    open var courseAccuracy: CLLocationDirectionAccuracy { values.courseAccuracy }
    open var speed: CLLocationSpeed { values.speed }
    open var speedAccuracy: CLLocationSpeedAccuracy { values.speedAccuracy }
    open var timestamp: Date { values.timestamp }
    /// `floor`: nil (see `CLFloor`).
    open var floor: CLFloor? { nil }
    /// `sourceInformation` (iOS 15): whether the location was simulated by software or
    /// produced by an accessory. Nil for the world's fixes, which come from the device's own
    /// receivers (as for most of Core Location's); what the initializer was given otherwise.
    open var sourceInformation: CLLocationSourceInformation? { values.sourceInformation }
    /// The world's fix this location was made from; nil for a location the app made itself.
    /// Lifeline's own (not Apple's): a team's store adapter keeps it so the invariants can read
    /// the stored rows back (`FixReader.fixRecorder`).
    public let lifelineFix: Fix?

    // Every public initializer is designated, as Objective-C's are, so a team's subclass that
    // declares none of its own inherits them all.

    /// `init()`: the coordinate (0, 0), as Core Location's `CLLocation()`, with the timestamp
    /// `init(latitude:longitude:)` gives.
    public override init() {
        values = Self.values(latitude: 0, longitude: 0)
        lifelineFix = nil
        super.init()
    }

    private static func values(latitude: CLLocationDegrees, longitude: CLLocationDegrees) -> Values
    {
        let now = ProcessScope.current?.services?.now ?? .start
        return Values(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            timestamp: VirtualClock.date(now))
    }

    /// `init(latitude:longitude:)`: accuracy 0, altitude invalid, the timestamp of the
    /// current callback (virtual time), or `VirtualClock.startDate` outside a process.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        values = Self.values(latitude: latitude, longitude: longitude)
        lifelineFix = nil
        super.init()
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        values = Values(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, timestamp: timestamp)
        lifelineFix = nil
        super.init()
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        speed: CLLocationSpeed, timestamp: Date
    ) {
        values = Values(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: course, speed: speed, timestamp: timestamp)
        lifelineFix = nil
        super.init()
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        courseAccuracy: CLLocationDirectionAccuracy, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        values = Values(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: course, courseAccuracy: courseAccuracy,
            speed: speed, speedAccuracy: speedAccuracy, timestamp: timestamp)
        lifelineFix = nil
        super.init()
    }

    /// `init(coordinate:altitude:horizontalAccuracy:verticalAccuracy:course:courseAccuracy:`
    /// `speed:speedAccuracy:timestamp:sourceInfo:)` (iOS 15).
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        courseAccuracy: CLLocationDirectionAccuracy, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date,
        sourceInfo: CLLocationSourceInformation
    ) {
        values = Values(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: course, courseAccuracy: courseAccuracy,
            speed: speed, speedAccuracy: speedAccuracy, timestamp: timestamp,
            sourceInformation: sourceInfo)
        lifelineFix = nil
        super.init()
    }

    /// A location from the world's fix.
    init(_ fix: Fix) {
        values = Values(
            coordinate: CLLocationCoordinate2D(fix.coordinate),
            horizontalAccuracy: fix.horizontalAccuracyMeters,
            speed: fix.speedMetersPerSecond, timestamp: VirtualClock.date(fix.instant))
        lifelineFix = fix
        super.init()
    }

    // MARK: - NSSecureCoding and NSCopying, as Apple's `CLLocation` adopts them

    public class var supportsSecureCoding: Bool { true }

    /// Archives every value, and the world's fix it was made from, so a location kept in
    /// `UserDefaults` or a file and read back in a later process is still that fix to the
    /// invariants (`lifelineFix`).
    open func encode(with coder: NSCoder) {
        coder.encode(values.coordinate.latitude, forKey: CodingKey.latitude)
        coder.encode(values.coordinate.longitude, forKey: CodingKey.longitude)
        coder.encode(values.altitude, forKey: CodingKey.altitude)
        coder.encode(values.horizontalAccuracy, forKey: CodingKey.horizontalAccuracy)
        coder.encode(values.verticalAccuracy, forKey: CodingKey.verticalAccuracy)
        coder.encode(values.course, forKey: CodingKey.course)
        coder.encode(values.courseAccuracy, forKey: CodingKey.courseAccuracy)
        coder.encode(values.speed, forKey: CodingKey.speed)
        coder.encode(values.speedAccuracy, forKey: CodingKey.speedAccuracy)
        coder.encode(
            values.timestamp.timeIntervalSinceReferenceDate, forKey: CodingKey.timestamp)
        if let source = values.sourceInformation {
            coder.encode(source.isSimulatedBySoftware, forKey: CodingKey.simulatedBySoftware)
            coder.encode(source.isProducedByAccessory, forKey: CodingKey.producedByAccessory)
        }
        if let fix = lifelineFix {
            coder.encode(fix.instant.nanosecondsSinceStart, forKey: CodingKey.fixInstant)
            coder.encode(fix.source.rawValue, forKey: CodingKey.fixSource)
        }
    }

    public required init?(coder: NSCoder) {
        guard coder.containsValue(forKey: CodingKey.latitude) else { return nil }
        let source =
            coder.containsValue(forKey: CodingKey.simulatedBySoftware)
            ? CLLocationSourceInformation(
                softwareSimulationState: coder.decodeBool(forKey: CodingKey.simulatedBySoftware),
                andExternalAccessoryState: coder.decodeBool(forKey: CodingKey.producedByAccessory))
            : nil
        let decoded = Values(
            coordinate: CLLocationCoordinate2D(
                latitude: coder.decodeDouble(forKey: CodingKey.latitude),
                longitude: coder.decodeDouble(forKey: CodingKey.longitude)),
            altitude: coder.decodeDouble(forKey: CodingKey.altitude),
            horizontalAccuracy: coder.decodeDouble(forKey: CodingKey.horizontalAccuracy),
            verticalAccuracy: coder.decodeDouble(forKey: CodingKey.verticalAccuracy),
            course: coder.decodeDouble(forKey: CodingKey.course),
            courseAccuracy: coder.decodeDouble(forKey: CodingKey.courseAccuracy),
            speed: coder.decodeDouble(forKey: CodingKey.speed),
            speedAccuracy: coder.decodeDouble(forKey: CodingKey.speedAccuracy),
            timestamp: Date(
                timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: CodingKey.timestamp)),
            sourceInformation: source)
        values = decoded
        if coder.containsValue(forKey: CodingKey.fixInstant),
            let raw = coder.decodeObject(of: NSString.self, forKey: CodingKey.fixSource),
            let fixSource = FixSource(rawValue: raw as String)
        {
            lifelineFix = Fix(
                instant: Instant(
                    nanosecondsSinceStart: coder.decodeInt64(forKey: CodingKey.fixInstant)),
                coordinate: decoded.coordinate.world,
                horizontalAccuracyMeters: decoded.horizontalAccuracy, source: fixSource,
                speedMetersPerSecond: decoded.speed)
        } else {
            lifelineFix = nil
        }
        super.init()
    }

    /// The archive's keys.
    private enum CodingKey {
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let altitude = "altitude"
        static let horizontalAccuracy = "horizontalAccuracy"
        static let verticalAccuracy = "verticalAccuracy"
        static let course = "course"
        static let courseAccuracy = "courseAccuracy"
        static let speed = "speed"
        static let speedAccuracy = "speedAccuracy"
        static let timestamp = "timestamp"
        static let simulatedBySoftware = "isSimulatedBySoftware"
        static let producedByAccessory = "isProducedByAccessory"
        static let fixInstant = "lifeline.fix.instant"
        static let fixSource = "lifeline.fix.source"
    }

    /// `copy()`: the location itself, which is immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `distance(from:)`: the great-circle distance in metres.
    open func distance(from location: CLLocation) -> CLLocationDistance {
        coordinate.world.distance(to: location.coordinate.world)
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m "
            + "speed \(speed) mps @ \(timestamp.timeIntervalSince1970)"
    }
}

/// `CLLocationSourceInformation` (iOS 15): where a location came from.
open class CLLocationSourceInformation: NSObject, @unchecked Sendable {
    /// `isSimulatedBySoftware`: the location was generated by software (a simulator or a
    /// debugging tool), not measured.
    open var isSimulatedBySoftware: Bool { simulated }
    /// `isProducedByAccessory`: the location came from an external accessory.
    open var isProducedByAccessory: Bool { accessory }
    private let simulated: Bool
    private let accessory: Bool

    /// `init(softwareSimulationState:andExternalAccessoryState:)`.
    public init(
        softwareSimulationState isSoftware: Bool, andExternalAccessoryState isAccessory: Bool
    ) {
        simulated = isSoftware
        accessory = isAccessory
        super.init()
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

    /// What the error carries besides its code (`NSError`'s user info). Two errors are equal,
    /// and hash alike, by their codes.
    nonisolated(unsafe) public let userInfo: [String: Any]

    /// `CLError(_:userInfo:)`: an error of `code`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static var errorDomain: String { kCLErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }

    public static func == (left: CLError, right: CLError) -> Bool { left.code == right.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    // Every code as a static member, as Apple's generated error struct has them, so that
    // `catch CLError.regionMonitoringDenied` and `CLError.network.rawValue` compile.
    public static var locationUnknown: Code { .locationUnknown }
    public static var denied: Code { .denied }
    public static var network: Code { .network }
    public static var headingFailure: Code { .headingFailure }
    public static var regionMonitoringDenied: Code { .regionMonitoringDenied }
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    public static var regionMonitoringSetupDelayed: Code { .regionMonitoringSetupDelayed }
    public static var regionMonitoringResponseDelayed: Code { .regionMonitoringResponseDelayed }
    public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
    public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
    public static var geocodeCanceled: Code { .geocodeCanceled }
    public static var deferredFailed: Code { .deferredFailed }
    public static var deferredNotUpdatingLocation: Code { .deferredNotUpdatingLocation }
    public static var deferredAccuracyTooLow: Code { .deferredAccuracyTooLow }
    public static var deferredDistanceFiltered: Code { .deferredDistanceFiltered }
    public static var deferredCanceled: Code { .deferredCanceled }
    public static var rangingUnavailable: Code { .rangingUnavailable }
    public static var rangingFailure: Code { .rangingFailure }
    public static var promptDeclined: Code { .promptDeclined }
    public static var historicalLocationError: Code { .historicalLocationError }

    init(world error: LocationError) {
        switch error {
        case .denied: self.init(.denied)
        case .regionMonitoringFailure: self.init(.regionMonitoringFailure)
        case .locationUnknown: self.init(.locationUnknown)
        case .promptDeclined: self.init(.promptDeclined)
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
    /// `identifier`: `open`, as Apple's, so a team's test double can override it.
    open var identifier: String { name }
    private let name: String
    /// `notifyOnEntry` (true by default): the delegate is told of entries. Honoured where the
    /// delegate is called; the world's daemon does not know the flag and still wakes or
    /// relaunches the app for an entry (not modelled).
    open var notifyOnEntry = true
    /// `notifyOnExit` (true by default): the delegate is told of exits (honoured as
    /// `notifyOnEntry` is).
    open var notifyOnExit = true

    init(identifier: String) { name = identifier }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? CLRegion)?.identifier == identifier
    }

    open override var hash: Int { identifier.hashValue }
}

/// `CLCircularRegion`: a circle to monitor (R-B6, R-F8): its exit (and entry) wakes or
/// relaunches the app. `contains(_:)` uses the world's great-circle distance.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    /// `center` and `radius`: `open`, as Apple's, for a team's test doubles.
    open var center: CLLocationCoordinate2D { circleCenter }
    open var radius: CLLocationDistance { circleRadius }
    private let circleCenter: CLLocationCoordinate2D
    private let circleRadius: CLLocationDistance

    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        circleCenter = center
        circleRadius = radius
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
///
/// Its properties are `open` and `init()` is public, as Apple's, so a team's test double
/// (`class FakeVisit: CLVisit { override var arrivalDate: Date { … } }`) compiles.
open class CLVisit: NSObject, @unchecked Sendable {
    open var arrivalDate: Date { arrival }
    open var departureDate: Date { departure }
    open var coordinate: CLLocationCoordinate2D { place }
    open var horizontalAccuracy: CLLocationAccuracy { -1 }
    private let arrival: Date
    private let departure: Date
    private let place: CLLocationCoordinate2D

    /// `init()`: a visit that says nothing: arrival `Date.distantPast`, departure
    /// `Date.distantFuture`, the invalid coordinate (`kCLLocationCoordinate2DInvalid`).
    public override init() {
        arrival = .distantPast
        departure = .distantFuture
        place = kCLLocationCoordinate2DInvalid
        super.init()
    }

    init(_ visit: Visit, at instant: Instant) {
        place = CLLocationCoordinate2D(visit.coordinate)
        switch visit.kind {
        case .arrival:
            arrival = VirtualClock.date(instant)
            departure = .distantFuture
        case .departure:
            arrival = .distantPast
            departure = VirtualClock.date(instant)
        }
        super.init()
    }
}
