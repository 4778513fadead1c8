// Core Location's beacon shapes (layer 4): `CLBeaconIdentityConstraint`, `CLBeaconRegion`,
// `CLBeacon`, ranging by a run-loop timer over the world's beacons, and beacon regions
// monitored as circles around the beacons they match.
import Foundation
import Simulation
import VirtualConcurrency
import World

/// `CLBeaconMajorValue` and `CLBeaconMinorValue`.
public typealias CLBeaconMajorValue = UInt16
public typealias CLBeaconMinorValue = UInt16

/// How close a ranged beacon is (`CLProximity`, R-L46).
public enum CLProximity: Int, Sendable {
    case unknown, immediate, near, far
}

/// `CLBeaconIdentityConstraint`: the beacons a region or a ranging matches, by UUID and
/// optionally major and minor.
open class CLBeaconIdentityConstraint: NSObject, @unchecked Sendable {
    public let uuid: UUID
    public let major: CLBeaconMajorValue?
    public let minor: CLBeaconMinorValue?

    public init(uuid: UUID) { (self.uuid, major, minor) = (uuid, nil, nil) }
    public init(uuid: UUID, major: CLBeaconMajorValue) {
        (self.uuid, self.major, minor) = (uuid, major, nil)
    }
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        (self.uuid, self.major, self.minor) = (uuid, major, minor)
    }

    /// True when `beacon` is one this constraint matches.
    func matches(_ beacon: Beacon) -> Bool {
        beacon.uuid == uuid.uuidString && (major.map { $0 == beacon.major } ?? true)
            && (minor.map { $0 == beacon.minor } ?? true)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLBeaconIdentityConstraint else { return false }
        return (other.uuid, other.major, other.minor) == (uuid, major, minor)
    }

    open override var hash: Int { uuid.hashValue ^ Int(major ?? 0) << 16 ^ Int(minor ?? 0) }

    /// The constraint as words, kept with the system's circles so a relaunched process can
    /// rebuild its region (`CLBeaconRegion.decoded`).
    var words: String {
        [uuid.uuidString, major.map(String.init) ?? "-", minor.map(String.init) ?? "-"]
            .joined(separator: " ")
    }
}

/// `CLBeaconRegion` (R-L47): monitored with `startMonitoring(for:)`, its entries and exits
/// wake or relaunch the app as a circular region's do, and it counts toward the app's 20
/// regions. The world monitors it as one circle of `BeaconModel.rangeMeters` around each beacon
/// it matches (R-L47: a beacon heard is a circle entered), so two matching beacons report
/// separately, and an exit comes once the device is a cushion beyond the circle (R-F8), where
/// iOS reports it when no matching beacon has been heard for a while.
open class CLBeaconRegion: CLRegion, @unchecked Sendable {
    public let beaconIdentityConstraint: CLBeaconIdentityConstraint
    /// `notifyEntryStateOnDisplay`: kept, not modelled (the world has no display).
    open var notifyEntryStateOnDisplay = false

    open var uuid: UUID { beaconIdentityConstraint.uuid }
    open var major: NSNumber? { beaconIdentityConstraint.major.map { NSNumber(value: $0) } }
    open var minor: NSNumber? { beaconIdentityConstraint.minor.map { NSNumber(value: $0) } }

    public init(beaconIdentityConstraint: CLBeaconIdentityConstraint, identifier: String) {
        self.beaconIdentityConstraint = beaconIdentityConstraint
        super.init(identifier: identifier)
    }
    public convenience init(uuid: UUID, identifier: String) {
        self.init(beaconIdentityConstraint: .init(uuid: uuid), identifier: identifier)
    }
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(
            beaconIdentityConstraint: .init(uuid: uuid, major: major), identifier: identifier)
    }
    public convenience init(
        uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String
    ) {
        self.init(
            beaconIdentityConstraint: .init(uuid: uuid, major: major, minor: minor),
            identifier: identifier)
    }

    /// What separates the parts of a circle's identifier in the system's record.
    static let separator: Character = "\u{1F}"

    /// The system's circles for this region over `field`: one around each matching beacon, its
    /// identifier this region's, its constraint and the beacon's index.
    func circles(over field: BeaconField) -> [CircularRegion] {
        field.beacons.enumerated().compactMap { index, beacon in
            guard beaconIdentityConstraint.matches(beacon) else { return nil }
            let name = [identifier, beaconIdentityConstraint.words, String(index)]
                .joined(separator: String(Self.separator))
            return CircularRegion(
                identifier: name, center: beacon.coordinate,
                radiusMeters: field.model.rangeMeters)
        }
    }

    /// The beacon region a system circle's identifier names, or nil for a plain circle.
    static func decoded(_ circleIdentifier: String) -> CLBeaconRegion? {
        let parts = circleIdentifier.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let words = parts[1].split(separator: " ").map(String.init)
        guard words.count == 3, let uuid = UUID(uuidString: words[0]) else { return nil }
        let constraint =
            switch (CLBeaconMajorValue(words[1]), CLBeaconMinorValue(words[2])) {
            case (let major?, let minor?):
                CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor)
            case (let major?, nil): CLBeaconIdentityConstraint(uuid: uuid, major: major)
            default: CLBeaconIdentityConstraint(uuid: uuid)
            }
        return CLBeaconRegion(beaconIdentityConstraint: constraint, identifier: String(parts[0]))
    }
}

/// `CLBeacon`: one beacon heard by a ranging (R-L46). `accuracy` is the distance in metres
/// (the world's exact one; iOS's estimate is noisier), `rssi` a stand-in that falls a decibel
/// a metre from −59 dBm at one metre (an assumption: a beacon's calibrated power is commonly
/// −59 dBm at 1 m), and `timestamp` the virtual clock's.
open class CLBeacon: NSObject, @unchecked Sendable {
    open private(set) var uuid = UUID()
    open private(set) var major: NSNumber = 0
    open private(set) var minor: NSNumber = 0
    open private(set) var proximity = CLProximity.unknown
    open private(set) var accuracy: CLLocationAccuracy = -1
    open private(set) var rssi = 0
    open private(set) var timestamp = VirtualClock.startDate

    override public init() { super.init() }

    init(_ beacon: Beacon, meters: Double, model: BeaconModel, at instant: Instant) {
        super.init()
        uuid = UUID(uuidString: beacon.uuid) ?? UUID()
        major = NSNumber(value: beacon.major)
        minor = NSNumber(value: beacon.minor)
        proximity = CLProximity(rawValue: model.proximity(meters: meters).rawValue) ?? .unknown
        accuracy = meters
        rssi = -59 - Int(max(meters - 1, 0).rounded())
        timestamp = VirtualClock.date(instant)
    }
}

/// The rangings of one process: each manager's constraints and its one-second timer (R-L48).
final class BeaconRangings: @unchecked Sendable {
    static let ofProcess = ProcessLocal<BeaconRangings> { BeaconRangings() }
    /// How often a ranging reports (R-L48, an assumption: about once a second, as observed).
    static let interval: TimeInterval = 1

    struct Ranging {
        weak var manager: CLLocationManager?
        var constraints: [CLBeaconIdentityConstraint]
        var timer: Timer
    }
    var rangings: [Ranging] = []
}

extension CLLocationManager {
    /// `isRangingAvailable()`: every modelled iPhone has Bluetooth LE.
    public class func isRangingAvailable() -> Bool { true }

    /// `rangedBeaconConstraints`: the constraints this manager ranges.
    public var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> {
        let rangings = BeaconRangings.ofProcess.value.rangings
        return Set(rangings.first { $0.manager === self }?.constraints ?? [])
    }

    /// `startRangingBeacons(satisfying:)` (R-L48): once a second while the process runs, the
    /// delegate's `didRange` with the matching beacons heard, nearest first. It needs
    /// location authorization; without it the delegate gets `didFailRangingFor` with
    /// `CLError.Code.denied`. It ends with the process.
    public func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        guard let services = ProcessScope.current?.services, services.beacons != nil else {
            return
        }
        switch services.authorizationStatus {
        case .always, .whenInUse: break
        case .notDetermined, .denied:
            delegate?.locationManager(
                self, didFailRangingFor: constraint, error: CLError(CLError.Code.denied))
            return
        }
        let table = BeaconRangings.ofProcess.value
        if let index = table.rangings.firstIndex(where: { $0.manager === self }) {
            if !table.rangings[index].constraints.contains(constraint) {
                table.rangings[index].constraints.append(constraint)
            }
            return
        }
        let report = UncheckedBlock { [weak self] in self?.reportRanging() }
        let timer = Timer(timeInterval: BeaconRangings.interval, repeats: true) { _ in
            report.run()
        }
        RunLoop.main.add(timer, forMode: .common)
        table.rangings.append(.init(manager: self, constraints: [constraint], timer: timer))
    }

    /// `stopRangingBeacons(satisfying:)`.
    public func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        let table = BeaconRangings.ofProcess.value
        guard let index = table.rangings.firstIndex(where: { $0.manager === self }) else { return }
        table.rangings[index].constraints.removeAll { $0 == constraint }
        guard table.rangings[index].constraints.isEmpty else { return }
        table.rangings[index].timer.invalidate()
        table.rangings.remove(at: index)
    }

    /// One second's report of every constraint this manager ranges.
    private func reportRanging() {
        guard let services = ProcessScope.current?.services, let field = services.beacons,
            let ranging = BeaconRangings.ofProcess.value.rangings.first(where: {
                $0.manager === self
            })
        else { return }
        let heard = field.heard(at: services.now)
        for constraint in ranging.constraints {
            let beacons = heard.filter { constraint.matches($0.beacon) }.map {
                CLBeacon($0.beacon, meters: $0.meters, model: field.model, at: services.now)
            }
            delegate?.locationManager(self, didRange: beacons, satisfying: constraint)
        }
    }
}
