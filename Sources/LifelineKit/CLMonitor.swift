// `CLMonitor` with Apple's shapes (layer 4): an actor made with `await CLMonitor(name)`, its
// conditions, records and `events` as an asynchronous sequence, over the world's `Monitor`.
import Foundation
import Simulation
import World

/// The world's circular condition, named apart from `CLMonitor.CircularGeographicCondition`.
typealias WorldCircularCondition = CircularGeographicCondition

/// `CLCondition`: a condition a `CLMonitor` watches. The world models circular geographic
/// conditions only (`CLMonitor.CircularGeographicCondition`, R-F8); adding any other kind
/// (a beacon's) stops the run with a message. Codable, as Apple's is, so a team can persist
/// the conditions it added.
public protocol CLCondition: Decodable, Encodable, Sendable {}

/// `CLMonitor` (iOS 17): a named set of conditions the system monitors for the app, over the
/// world's `Monitor` (`services.monitor(named:)`).
///
/// The conditions and their records are the system's and outlive the process (R-A10, R-B7):
/// a relaunched app that makes the monitor again with the same name gets the event that woke
/// it (R-A12), and `record(for:)` reads the system's record. Events arrive on `events`, an
/// asynchronous sequence iterated on the virtual executors (docs/concurrency.md).
///
/// Made outside a simulated process, a monitor is detached: it monitors nothing and its
/// `events` end at once. What the world does not model: conditions other than circles, and
/// the diagnostic flags of an event (all false; a condition over `regionCountMax`, or added
/// under reduced accuracy, is ignored silently, see `Monitor`).
public actor CLMonitor {
    /// `name`.
    public let name: String
    /// `events`: every event of this monitor's conditions, in the order the system sent them.
    public let events: Events
    private let monitor: Monitor?
    private let bridge: MonitorBridge?

    /// `init(_:)`: opens the monitor `name` in the calling process (one per name, R-A12).
    public init(_ name: String) async {
        self.name = name
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        events = Events { stream }
        if let services = ProcessScope.current?.services {
            let monitor = services.monitor(named: name)
            let bridge = MonitorBridge(continuation: continuation, openedAt: services.now)
            monitor.delegate = bridge
            self.monitor = monitor
            self.bridge = bridge
        } else {
            continuation.finish()
            monitor = nil
            bridge = nil
        }
    }

    /// `add(_:identifier:)`: monitors `condition`, its state unknown.
    public func add(_ condition: any CLCondition, identifier: String) {
        add(condition, identifier: identifier, assuming: .unknown)
    }

    /// `add(_:identifier:assuming:)`: monitors `condition` under `identifier`, replacing a
    /// condition with the same identifier. A condition added with a state other than the
    /// device's gets its first event at once (R-F8). Assuming `.unmonitored` is taken as
    /// `.unknown`.
    public func add(
        _ condition: any CLCondition, identifier: String, assuming state: Event.State
    ) {
        guard let circle = condition as? CircularGeographicCondition else {
            preconditionFailure(
                "CLMonitor.add: only CLMonitor.CircularGeographicCondition is modelled, not "
                    + "\(type(of: condition))")
        }
        guard let monitor else { return }
        bridge?.added(identifier, at: monitor)
        monitor.add(circle.world, identifier: identifier, assuming: state.world)
    }

    /// `remove(_:)`: stops monitoring the condition `identifier`.
    public func remove(_ identifier: String) { monitor?.remove(identifier) }

    /// `identifiers`: the monitored conditions' identifiers, in the order added.
    public var identifiers: [String] { monitor?.identifiers ?? [] }

    /// `record(for:)`: the condition `identifier` and its last event, if it is monitored.
    public func record(for identifier: String) -> Record? {
        guard let monitor, let record = monitor.record(for: identifier) else { return nil }
        return Record(
            condition: CircularGeographicCondition(record.condition),
            lastEvent: Event(record.lastEvent, assumedAt: bridge?.addedDate(identifier)))
    }

    /// `CLMonitor.CircularGeographicCondition`: a circle the device enters (satisfied) and
    /// leaves (unsatisfied).
    public struct CircularGeographicCondition: CLCondition, Equatable {
        /// `center`.
        public let center: CLLocationCoordinate2D
        /// `radius`, in metres.
        public let radius: CLLocationDistance

        /// `init(center:radius:)`.
        public init(center: CLLocationCoordinate2D, radius: CLLocationDistance) {
            self.center = center
            self.radius = radius
        }

        init(_ condition: WorldCircularCondition) {
            self.init(
                center: CLLocationCoordinate2D(condition.center), radius: condition.radiusMeters)
        }

        var world: WorldCircularCondition {
            WorldCircularCondition(
                center: Coordinate(latitude: center.latitude, longitude: center.longitude),
                radius: radius)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.center.latitude == rhs.center.latitude
                && lhs.center.longitude == rhs.center.longitude && lhs.radius == rhs.radius
        }

        private enum CodingKeys: String, CodingKey {
            case latitude, longitude, radius
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                center: CLLocationCoordinate2D(
                    latitude: try container.decode(Double.self, forKey: .latitude),
                    longitude: try container.decode(Double.self, forKey: .longitude)),
                radius: try container.decode(Double.self, forKey: .radius))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(center.latitude, forKey: .latitude)
            try container.encode(center.longitude, forKey: .longitude)
            try container.encode(radius, forKey: .radius)
        }
    }

    /// `CLMonitor.Record`: a monitored condition and its last event.
    public struct Record: Sendable {
        /// `condition`.
        public let condition: any CLCondition
        /// `lastEvent`.
        public let lastEvent: Event
    }

    /// `CLMonitor.Event`: a condition's state and when the system determined it.
    ///
    /// `date` is the instant the world determined the state, on the virtual clock. For the
    /// state the app assumed when it added the condition (no determination yet), it is when
    /// this process added it, or when it opened the monitor for a condition added by an
    /// earlier process. The diagnostic flags are all false (not modelled).
    public struct Event: Sendable {
        /// `CLMonitor.Event.State` (`CLMonitoringState`).
        public enum State: UInt, Sendable, Hashable {
            case unknown = 0
            case satisfied = 1
            case unsatisfied = 2
            case unmonitored = 3

            init(_ state: ConditionState) {
                switch state {
                case .unknown: self = .unknown
                case .satisfied: self = .satisfied
                case .unsatisfied: self = .unsatisfied
                }
            }

            var world: ConditionState {
                switch self {
                case .unknown, .unmonitored: .unknown
                case .satisfied: .satisfied
                case .unsatisfied: .unsatisfied
                }
            }
        }

        /// `identifier`.
        public let identifier: String
        /// `state`.
        public let state: State
        /// `date`.
        public let date: Date
        /// `refinement`: none for a circular condition.
        public var refinement: (any CLCondition)? { nil }
        /// `accuracyLimited`. Not modelled: false.
        public var accuracyLimited: Bool { false }
        /// `authorizationDenied`. Not modelled: false.
        public var authorizationDenied: Bool { false }
        /// `authorizationDeniedGlobally`. Not modelled: false.
        public var authorizationDeniedGlobally: Bool { false }
        /// `authorizationRequestInProgress`. Not modelled: false.
        public var authorizationRequestInProgress: Bool { false }
        /// `authorizationRestricted`. Not modelled: false.
        public var authorizationRestricted: Bool { false }
        /// `conditionLimitExceeded`. Not modelled: false (the world ignores such a condition).
        public var conditionLimitExceeded: Bool { false }
        /// `conditionUnsupported`. Not modelled: false.
        public var conditionUnsupported: Bool { false }
        /// `insufficientlyInUse`. Not modelled: false.
        public var insufficientlyInUse: Bool { false }
        /// `persistenceUnavailable`. Not modelled: false.
        public var persistenceUnavailable: Bool { false }
        /// `serviceSessionRequired`. Not modelled: false.
        public var serviceSessionRequired: Bool { false }

        init(_ event: MonitorEvent, assumedAt: Instant?) {
            identifier = event.identifier
            state = State(event.state)
            date = VirtualClock.date(event.date ?? assumedAt ?? .start)
        }
    }

    /// `CLMonitor.Events`: the asynchronous sequence of a monitor's events.
    public typealias Events = CLEventSequence<Event>
}

/// The world's delegate of one `CLMonitor`: each event goes into its `events`. It also keeps
/// when each condition was added, for the date of an assumed state.
final class MonitorBridge: MonitorDelegate, @unchecked Sendable {
    private let continuation: AsyncStream<CLMonitor.Event>.Continuation
    private let openedAt: Instant
    private var added: [(identifier: String, at: Instant)] = []

    init(continuation: AsyncStream<CLMonitor.Event>.Continuation, openedAt: Instant) {
        self.continuation = continuation
        self.openedAt = openedAt
    }

    func added(_ identifier: String, at monitor: Monitor) {
        let now = ProcessScope.current?.services?.now ?? openedAt
        added.removeAll { $0.identifier == identifier }
        added.append((identifier, now))
    }

    func addedDate(_ identifier: String) -> Instant {
        added.first { $0.identifier == identifier }?.at ?? openedAt
    }

    func monitor(_ monitor: Monitor, didReceive event: MonitorEvent) {
        continuation.yield(CLMonitor.Event(event, assumedAt: addedDate(event.identifier)))
    }
}
