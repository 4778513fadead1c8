// What LocationRuntime restores at launch (layer 4, R-A14): the location features the app had
// running, their saved-record encoding, and source A's pure `restorations(for:authorizedAlways:)`.
import Simulation
import World

/// A place the app watches: one circular `CLMonitor` condition of the "Places" monitor (R-F8).
/// The radius is the host app's choice (no rule sets it); the system's exit cushion and
/// latency are the world's (`IOSPolicy`).
public struct WatchedPlace: Sendable, Equatable, CustomStringConvertible {
    /// The condition's identifier in the monitor.
    public var identifier: String
    public var center: Coordinate
    public var radiusMeters: Double

    public init(identifier: String, center: Coordinate, radiusMeters: Double) {
        self.identifier = identifier
        self.center = center
        self.radiusMeters = radiusMeters
    }

    public var description: String {
        "\(identifier) at \(center) radius \(PlainText.fixed(radiusMeters, digits: 1))m"
    }
}

/// What the app had running when it was last alive (source A's `LocationFeatures`), saved in
/// the saved record whenever a feature starts or stops, so that a relaunch can restore exactly
/// those (R-A14). Source A keeps condition identifiers only; a watched place here also keeps
/// its circle, so that a place saved but never registered (R-A13: saved while the
/// authorization was undetermined) can still be added later.
public struct LocationFeatures: Sendable, Equatable, CustomStringConvertible {
    /// A workout is being recorded: continuous live updates in the background, kept running
    /// by a background activity session (R-C5, R-A6).
    public var recordingWorkout: Bool
    /// The watched places, in the order watched (conditions of the "Places" monitor).
    public var watchedPlaces: [WatchedPlace]
    /// Commute detection: significant location changes (R-F7).
    public var commuteDetection: Bool

    /// The name of the monitor that holds the watched places (source A). A relaunch must open
    /// it again with the same name to get the events that woke it (R-A12).
    public static let placesMonitorName = "Places"

    public init(
        recordingWorkout: Bool = false, watchedPlaces: [WatchedPlace] = [],
        commuteDetection: Bool = false
    ) {
        self.recordingWorkout = recordingWorkout
        self.watchedPlaces = watchedPlaces
        self.commuteDetection = commuteDetection
    }

    /// Nothing runs.
    public var isEmpty: Bool { !recordingWorkout && watchedPlaces.isEmpty && !commuteDetection }

    /// A feature that starts while the app is not in use needs Always (R-A3, R-F5): watched
    /// places and commute detection relaunch the app (R-A10).
    public var needsAlways: Bool { !watchedPlaces.isEmpty || commuteDetection }

    public var description: String {
        let places = watchedPlaces.map(\.identifier).joined(separator: ",")
        return "workout \(recordingWorkout), places [\(places)], commute \(commuteDetection)"
    }
}

/// One object to recreate at launch (source A's `Restoration`), in R-A14's order.
public enum Restoration: Sendable, Equatable, CustomStringConvertible {
    /// Keep live updates flowing in the background (R-C5, R-B10).
    case backgroundActivitySession
    /// Declare the authorization the features need (R-B9): Always when `always`.
    case serviceSession(always: Bool)
    /// Recreate the `CLMonitor` by name and keep reading its events (R-A12).
    case monitor(name: String)
    /// Significant location changes, started again by every process (F, R-F7).
    case significantChanges

    public var description: String {
        switch self {
        case .backgroundActivitySession: "background activity session"
        case .serviceSession(let always): "service session (\(always ? "always" : "when-in-use"))"
        case .monitor(let name): "monitor \(name)"
        case .significantChanges: "significant changes"
        }
    }
}

/// What to recreate during launch, before the first event can be lost (source A, verbatim in
/// substance). Order matters: sessions first (R-A14). Pure: it reads nothing else.
public func restorations(for features: LocationFeatures, authorizedAlways: Bool) -> [Restoration] {
    var steps: [Restoration] = []
    let needsAlways = features.needsAlways
    if features.recordingWorkout || needsAlways {
        steps.append(.serviceSession(always: needsAlways && authorizedAlways))
    }
    if features.recordingWorkout { steps.append(.backgroundActivitySession) }
    if !features.watchedPlaces.isEmpty {
        steps.append(.monitor(name: LocationFeatures.placesMonitorName))
    }
    if features.commuteDetection { steps.append(.significantChanges) }
    return steps
}
