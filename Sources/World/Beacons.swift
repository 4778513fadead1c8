// Bluetooth beacons placed along the route (layer 3): which the device hears at an instant,
// and how far away, for Core Location's beacon ranging and beacon-region monitoring.
import Simulation

/// An iBeacon at a fixed place: its identity (a UUID, a major and a minor) and its position
/// (R-L45).
public struct Beacon: Sendable, Equatable {
    /// The proximity UUID, upper-case, as `UUID.uuidString` writes it.
    package var uuid: String
    package var major: UInt16
    package var minor: UInt16
    package var coordinate: Coordinate

    public init(uuid: String, major: UInt16, minor: UInt16, coordinate: Coordinate) {
        self.uuid = uuid.uppercased()
        self.major = major
        self.minor = minor
        self.coordinate = coordinate
    }
}

/// How close a ranged beacon is (Core Location's `CLProximity`, R-L46).
package enum BeaconProximity: Int, Sendable, Equatable {
    case unknown, immediate, near, far
}

/// The numbers of the beacon model, each an assumption (R-L45, R-L46).
package struct BeaconModel: Sendable, Equatable {
    /// How far a beacon is heard (R-L45, an assumption: Bluetooth LE beacons are commonly
    /// quoted as heard up to about 50–70 m in the open; the low end).
    package var rangeMeters = 50.0
    /// Up to this distance a beacon is immediate (R-L46, an assumption: Apple's iBeacon guide
    /// describes immediate as very close, a few centimetres to half a metre).
    package var immediateMeters = 0.5
    /// Up to this distance near; beyond it far (R-L46, an assumption: "one to three metres").
    package var nearMeters = 3.0

    package init() {}

    /// The model every world uses.
    package static let standard = BeaconModel()

    /// The proximity of a beacon `meters` away (in range).
    package func proximity(meters: Double) -> BeaconProximity {
        if meters <= immediateMeters { return .immediate }
        if meters <= nearMeters { return .near }
        return .far
    }
}

/// The beacons of a run and the route that carries the device past them (R-L45–R-L47).
package final class BeaconField: @unchecked Sendable {
    package let beacons: [Beacon]
    package let model: BeaconModel
    private let route: Route

    package init(beacons: [Beacon], route: Route, model: BeaconModel = .standard) {
        self.beacons = beacons
        self.route = route
        self.model = model
    }

    /// The beacons heard at `instant`, nearest first (ties in the order placed), with their
    /// distance in metres.
    package func heard(at instant: Instant) -> [(beacon: Beacon, meters: Double)] {
        let position = route.position(at: instant)
        let inRange = beacons.enumerated().compactMap {
            index, beacon -> (index: Int, beacon: Beacon, meters: Double)? in
            let meters = position.distance(to: beacon.coordinate)
            return meters <= model.rangeMeters ? (index, beacon, meters) : nil
        }
        return inRange.sorted { ($0.meters, $0.index) < ($1.meters, $1.index) }
            .map { ($0.beacon, $0.meters) }
    }
}
