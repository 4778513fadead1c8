// The engine API's monitor objects (layer 3): `Monitor`, shaped like `CLMonitor`, with circular
// conditions, their events and `record(for:)`.
import Simulation

/// `CLMonitor.Event.State` for a circular condition: inside it is satisfied (R-F8).
public enum ConditionState: String, Sendable, CaseIterable {
    /// Not known yet: the state a condition added `assuming: .unknown` starts in.
    case unknown
    /// The device is inside the condition (an entry).
    case satisfied
    /// The device is outside the condition (an exit).
    case unsatisfied
}

/// `CLMonitor.CircularGeographicCondition`: a circle the device enters and leaves (R-F8).
public struct CircularGeographicCondition: Sendable, Equatable, CustomStringConvertible {
    public var center: Coordinate
    public var radiusMeters: Double

    /// `CircularGeographicCondition(center:radius:)`, the radius in metres.
    public init(center: Coordinate, radius: Double) {
        self.center = center
        radiusMeters = radius
    }

    public var description: String {
        "circle at \(center) radius \(PlainText.fixed(radiusMeters, digits: 1))m"
    }
}

/// `CLMonitor.Event`: a condition's state and the instant the system determined it. An
/// exit is `unsatisfied`, an entry `satisfied` (R-F8); `date` is nil for the state the app
/// assumed when it added the condition.
public struct MonitorEvent: Sendable, Equatable, CustomStringConvertible {
    public var identifier: String
    public var state: ConditionState
    public var date: Instant?

    package init(identifier: String, state: ConditionState, date: Instant?) {
        self.identifier = identifier
        self.state = state
        self.date = date
    }

    public var description: String {
        "\(identifier) \(state.rawValue)" + (date.map { " at \($0)" } ?? " (assumed)")
    }
}

/// `CLMonitor.Record`: a monitored condition and its last event.
public struct MonitorRecord: Sendable, Equatable, CustomStringConvertible {
    public var condition: CircularGeographicCondition
    public var lastEvent: MonitorEvent

    package init(condition: CircularGeographicCondition, lastEvent: MonitorEvent) {
        self.condition = condition
        self.lastEvent = lastEvent
    }

    public var description: String { "\(lastEvent) (\(condition))" }
}

/// What a `Monitor` tells its delegate: the events of `for try await event in monitor.events`.
public protocol MonitorDelegate: AnyObject {
    /// A condition's state changed (R-F8), or an event held for this process while it did not
    /// listen arrived now that it opened the monitor again (R-A12). `monitor.record(for:)`
    /// already reflects it.
    func monitor(_ monitor: Monitor, didReceive event: MonitorEvent)
}

/// `CLMonitor`: a named set of circular conditions, monitored continuously by the system.
///
/// Opened by name with `services.monitor(named:)` (one object per name per process). The
/// conditions and their records are the location daemon's and outlive the process (R-A10,
/// R-B7): a relaunched app that opens the monitor again with the same name gets the events that
/// woke it (R-A12), and, at every open, the daemon sends the process the monitor's records
/// (a `monitorRecords` item, through the mailbox), so `record(for:)` is the daemon's record
/// after a relaunch too. Each event updates the record before the delegate is told.
///
/// An app holds at most `regionCountMax` conditions; one added over the limit, or under reduced
/// accuracy, is ignored silently (the diagnostics of `CLMonitor` for it are not modelled). A
/// condition added with a state other than the device's (`unknown`, or a wrong guess) gets its
/// first determination at once, as an event with the true state; a right guess gets none.
public final class Monitor {
    /// The monitor's name.
    public let name: String
    private weak var services: LocationServices?
    // invariant: one entry per identifier, in the order added
    private var records: [(identifier: String, record: MonitorRecord)] = []
    /// Told of every event, held weakly.
    public weak var delegate: (any MonitorDelegate)?

    init(name: String, services: LocationServices) {
        self.name = name
        self.services = services
        services.openMonitor(name)
        services.recordIfAvailable(.requestMonitorRecords(name), .monitor)
    }

    /// The identifiers of the conditions this process knows of, in the order added.
    public var identifiers: [String] { records.map(\.identifier) }

    /// `add(_:identifier:assuming:)`: monitors `condition` under `identifier`, replacing a
    /// condition with the same identifier; it persists across launches (R-A10). On a version
    /// without `CLMonitor` it does nothing (the app's log has the error) and no record exists.
    public func add(
        _ condition: CircularGeographicCondition, identifier: String,
        assuming state: ConditionState = .unknown
    ) {
        guard let services else { return }
        services.record(
            .addMonitorCondition(
                monitor: name, condition: identifier, center: condition.center,
                radiusMeters: condition.radiusMeters, assuming: state),
            using: .monitor)
        guard services.isAvailable(.monitor), services.crashReason == nil else { return }
        set(
            MonitorRecord(
                condition: condition,
                lastEvent: MonitorEvent(identifier: identifier, state: state, date: nil)),
            for: identifier)
    }

    /// `remove(_:)`: stops monitoring the condition `identifier`.
    public func remove(_ identifier: String) {
        services?.removeCondition(monitor: name, condition: identifier)
        records.removeAll { $0.identifier == identifier }
    }

    /// `record(for:)`: the condition and its last event, if it is monitored.
    public func record(for identifier: String) -> MonitorRecord? {
        records.first { $0.identifier == identifier }?.record
    }

    /// An event of one of this monitor's conditions, with the condition: its record follows it
    /// (an event older than the record is ignored), then the delegate is told.
    func receive(_ record: MonitorRecord) {
        let event = record.lastEvent
        if let known = self.record(for: event.identifier), isOlder(event, than: known.lastEvent) {
            return
        }
        set(record, for: event.identifier)
        delegate?.monitor(self, didReceive: event)
    }

    /// The daemon's records, sent when the monitor was opened: each replaces what this process
    /// knew of its condition unless an event handed since is newer. Conditions this process
    /// added after it opened the monitor (the daemon had not seen them yet) are kept.
    func receive(records daemonRecords: [MonitorRecord]) {
        for record in daemonRecords {
            let identifier = record.lastEvent.identifier
            if let known = self.record(for: identifier),
                isOlder(record.lastEvent, than: known.lastEvent)
            {
                continue
            }
            set(record, for: identifier)
        }
    }

    private func isOlder(_ event: MonitorEvent, than known: MonitorEvent) -> Bool {
        guard let date = event.date else { return known.date != nil }
        return known.date.map { date < $0 } ?? false
    }

    private func set(_ record: MonitorRecord, for identifier: String) {
        if let index = records.firstIndex(where: { $0.identifier == identifier }) {
            records[index].record = record
        } else {
            records.append((identifier, record))
        }
    }
}
