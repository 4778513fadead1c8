// A Bluetooth beacon of a scenario (layer 5): its identity and where along the route it
// stands, written `UUID MAJOR MINOR at DURATION` under `beacons`.
import Simulation
import World

/// A beacon placed on the route (R-L45): at the device's position `at` after the start, with
/// its UUID, major and minor. `lifeline run` hears it through LifelineKit's beacon shapes.
public struct ScenarioBeacon: Sendable, Equatable, CustomStringConvertible {
    /// The proximity UUID, upper-case (`8-4-4-4-12` hexadecimal digits).
    public var uuid: String
    public var major: UInt16
    public var minor: UInt16
    /// Where along the route: the device's position this long after the start.
    public var at: VirtualDuration

    public init(uuid: String, major: UInt16, minor: UInt16, at: VirtualDuration) {
        precondition(Self.isUUID(uuid), "a UUID of 8-4-4-4-12 hexadecimal digits")
        self.uuid = uuid.uppercased()
        self.major = major
        self.minor = minor
        self.at = at
    }

    /// The beacon's line under `beacons`.
    public var description: String { "\(uuid) \(major) \(minor) at \(at)" }

    /// The world's beacon on `route`.
    func beacon(on route: Route) -> Beacon {
        Beacon(uuid: uuid, major: major, minor: minor, coordinate: route.position(at: .start + at))
    }

    /// True for `8-4-4-4-12` hexadecimal digits, as `UUID(uuidString:)` reads them.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
