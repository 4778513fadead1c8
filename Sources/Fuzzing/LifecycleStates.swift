// The distinct lifecycle states a fuzzing run has reached (layer 5): how much of the world the
// cases have explored.
import Invariants
import Simulation
import World

/// The distinct abstract lifecycle states seen across runs. A state is what the app's log says
/// at each entry: the process state, the kind of entry (a launch, a fix, a drop and its rule,
/// a termination and its cause), the authorization and whether the app's data was readable.
/// Only the count is reported; the set is membership only (never iterated).
public struct LifecycleStates: Sendable {
    private var seen: Set<UInt64> = []

    public init() {}

    /// How many distinct states have been seen.
    public var count: Int { seen.count }

    /// Adds the states of one run.
    public mutating func add(_ record: RunRecord) {
        add(Self.states(of: record))
    }

    /// Adds states found by `states(of:)`, on whichever thread ran the run: the count after
    /// adding the same runs is the same in any order.
    public mutating func add(_ states: [UInt64]) {
        for state in states { seen.insert(state) }
    }

    /// The states one run reached, each once, in the order first reached.
    public static func states(of record: RunRecord) -> [UInt64] {
        var states: [UInt64] = []
        var reached: Set<UInt64> = []  // membership only; `states` keeps the order
        var authorization = record.configuration.authorization
        var readable = true
        for entry in record.log {
            switch entry.kind {
            case .authorization(let value): authorization = value
            case .launch(let launch): readable = launch.protectedDataAvailable
            case .protectedDataAvailable: readable = true
            default: break
            }
            var hash = TraceHash()
            hash.fold(line: entry.processState.rawValue)
            hash.fold(line: Self.kind(of: entry.kind))
            hash.fold(line: authorization.rawValue)
            hash.fold(line: readable ? "readable" : "locked")
            if reached.insert(hash.value).inserted { states.append(hash.value) }
        }
        return states
    }

    /// The entry's kind without its particulars (which fix, which instant), in words.
    static func kind(of kind: AppLogEntry.Kind) -> String {
        switch kind {
        case .launch(let launch): "launch \(launch.state.rawValue)"
        case .lifecycle(let state): "lifecycle \(state.rawValue)"
        case .location(let update): update.fix == nil ? "update without location" : "fix"
        case .failure(let error, _): "failure \(error.rawValue)"
        case .monitoringFailure: "monitoring failure"
        case .event(let event): "event \(event.mechanism.rawValue)"
        case .authorization(let value): "authorization \(value.rawValue)"
        case .accuracyAuthorization(let value): "accuracy \(value.rawValue)"
        case .locationUpdatesPaused: "paused"
        case .locationUpdatesResumed: "resumed"
        case .backgroundTaskExpiring: "background task expiring"
        case .dropped(_, let reason): "dropped \(reason.rule)"
        case .unavailableAPI: "unavailable API"
        case .crashed: "crashed"
        case .killed(let cause): "killed \(cause.rawValue)"
        case .protectedDataAvailable: "protected data available"
        case .didCommit: "did commit"
        case .commitDurable: "commit durable"
        case .commitLost(_, _, let reason): "commit lost \(reason.rule)"
        case .savedRecordWritten: "saved record written"
        case .savedRecordChangeLost(_, let reason): "saved record change lost \(reason.rule)"
        case .storeUnavailable: "store unavailable"
        case .uploadCompleted: "upload completed"
        case .sessionDiagnostic(_, let diagnostic): "session \(diagnostic.isActive ? "active" : "inactive")"
        case .monitorRecords: "monitor records"
        case .timerFired: "timer fired"
        case .timerEnded: "timer ended"
        case .willTerminate: "will terminate"
        }
    }
}
