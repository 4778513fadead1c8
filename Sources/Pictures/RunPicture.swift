// What a picture of one run shows (Pictures, layer 5): the app's process states over time, the
// services its processes held, fixes by fate, launches, terminations, actions and violations,
// derived once from a `RunRecord` for the Chrome trace and the SVG timeline.
import Invariants
import Simulation
import World

/// One finished run as the pictures draw it: stretches of virtual time (the app's process
/// state, the services held) and instants (fixes, launches, relaunches, terminations, external
/// actions, violations), each list in time order.
///
/// Everything is read from the record, never from a clock, and kept in arrays in the order the
/// record gives it (ties keep that order), so the same record draws the same picture:
///
///     let violations = Invariant.builtIn.flatMap { $0.check(record) }
///     let picture = RunPicture(record, violations: violations)
///     let json = ChromeTrace(picture).json
///     let svg = TimelineSVG(picture, title: "force-quit.scenario").text
public struct RunPicture {
    /// The app's state as a picture shows it: the process's state while one runs, and not
    /// running before the first launch, between processes and after the last one ended.
    public enum AppState: String, Sendable, CaseIterable {
        case foreground
        case background
        case suspended
        case notRunning = "not running"
    }

    /// A stretch `[start, end)` in one app state.
    public struct StateSlice: Sendable, Equatable {
        public var state: AppState
        /// The process in that state; nil when not running.
        public var generation: Int?
        public var start: Instant
        public var end: Instant
    }

    /// Why a marker is drawn at an instant.
    public enum MarkerKind: String, Sendable, CaseIterable {
        /// A launch into the foreground (the user opened the app).
        case launch
        /// A launch into the background: iOS relaunched the app for an event.
        case relaunch
        /// A process ended (killed, force-quit, crashed, exited).
        case termination
    }

    /// A launch, relaunch or termination of process `generation`.
    public struct Marker: Sendable, Equatable {
        public var kind: MarkerKind
        public var instant: Instant
        public var generation: Int
        /// In words: `relaunch for significant-change (process 2)`, `killed (force-quit,
        /// process 1)`.
        public var text: String
        /// A short label: `launch 1`, `relaunch 2: significant-change`, `killed 1: force-quit`.
        public var label: String
    }

    /// Who did an external action (`UserAction.Source`, from the action's words' row).
    public typealias ActionSource = UserAction.Source

    /// An external action of the scenario, at its instant.
    public struct Action: Sendable, Equatable {
        public var instant: Instant
        public var source: ActionSource
        public var text: String
    }

    /// The run drawn; the Chrome trace reads its trace for the device's tracks.
    public let record: RunRecord
    /// The picture's time runs from the start to here (the run's horizon).
    public let horizon: Instant
    /// The app's states, back to back from the start to the horizon.
    // invariant: sorted; each end == the next start; first start == .start; last end == horizon
    public let states: [StateSlice]
    /// The services held, by lane, each stretch within its process (`RunPicture+Services`).
    public let services: [ServiceSlice]
    /// Fixes delivered, stored and lost (`RunPicture+Fixes`), in time order within each fate.
    public let fixes: [FixMark]
    /// Launches, relaunches and terminations, in time order.
    public let markers: [Marker]
    /// The scenario's external actions, in time order.
    public let actions: [Action]
    /// The violations given, in time order.
    public let violations: [Violation]

    /// The picture of `record`, with `violations` (usually the built-in invariants' findings).
    /// `record` should keep its trace (`RunRecord.run(keepsTrace: true)`,
    /// `Scenario.record(keepsTrace: true)`): without it the relaunches' causes, which only the
    /// trace holds, are left out.
    public init(_ record: RunRecord, violations: [Violation] = []) {
        self.record = record
        horizon = record.horizon
        let processes = record.processes
        states = Self.stateSlices(processes, horizon: record.horizon)
        services = Self.serviceSlices(record, processes: processes)
        fixes = Self.fixMarks(record)
        markers = Self.markers(record)
        actions = record.actions.map { scheduled in
            Action(
                instant: scheduled.instant, source: scheduled.action.source,
                text: scheduled.action.description)
        }
        self.violations = violations.enumerated().sorted {
            ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
        }.map(\.element)
        assert(zip(states, states.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    // MARK: - States

    /// The processes' states laid back to back: not running where no process runs; each
    /// process from its launch to its end (or the horizon), changing state where the operating
    /// system told the daemon it did.
    static func stateSlices(_ processes: [ProcessSpan], horizon: Instant) -> [StateSlice] {
        var slices: [StateSlice] = []
        var cursor = Instant.start
        func add(_ state: AppState, _ generation: Int?, until end: Instant) {
            let end = min(end, horizon)
            guard end > cursor else { return }
            if let last = slices.last, last.state == state, last.generation == generation {
                slices[slices.count - 1].end = end
            } else {
                slices.append(
                    StateSlice(state: state, generation: generation, start: cursor, end: end))
            }
            cursor = end
        }
        for process in processes {
            add(.notRunning, nil, until: process.launchedAt)
            let ended = process.endedAt ?? horizon
            var current = AppState.background
            for change in process.states {
                add(current, process.generation, until: min(change.instant, ended))
                guard let state = appState(change.state) else { break }
                current = state
            }
            add(current, process.generation, until: ended)
        }
        add(.notRunning, nil, until: horizon)
        return slices
    }

    /// The picture's state for a process state; nil for the end of the process.
    private static func appState(_ state: ProcessState) -> AppState? {
        switch state {
        case .foreground: .foreground
        case .background: .background
        case .suspended: .suspended
        case .notRunning, .terminated: nil
        }
    }

    // MARK: - Markers and actions

    /// Launches from the log (a background launch is a relaunch, named after the mechanism the
    /// operating system's relaunch timer carried just before it), and terminations.
    static func markers(_ record: RunRecord) -> [Marker] {
        var mechanisms: [Int: String] = [:]  // read by key only, never iterated
        var pending: RelaunchMechanism?
        for delivery in record.trace?.records ?? [] {
            switch delivery.message {
            case .osTimer(.relaunch(let mechanism)): pending = mechanism
            case .launch(_, let generation):
                if let pending { mechanisms[generation] = pending.rawValue }
                pending = nil
            default: break
            }
        }
        return record.log.compactMap { entry in
            let generation = entry.generation
            switch entry.kind {
            case .launch(let context) where context.state == .foreground:
                return Marker(
                    kind: .launch, instant: entry.instant, generation: generation,
                    text: "launch (process \(generation))", label: "launch \(generation)")
            case .launch:
                let cause = mechanisms[generation].map { " for \($0)" } ?? ""
                return Marker(
                    kind: .relaunch, instant: entry.instant, generation: generation,
                    text: "relaunch\(cause) (process \(generation))",
                    label: "relaunch \(generation)"
                        + (mechanisms[generation].map { ": \($0)" } ?? ""))
            case .killed(let cause):
                return Marker(
                    kind: .termination, instant: entry.instant, generation: generation,
                    text: "killed (\(cause.rawValue), process \(generation))",
                    label: "killed \(generation): \(cause.rawValue)")
            case .crashed(let reason):
                return Marker(
                    kind: .termination, instant: entry.instant, generation: generation,
                    text: "crashed (process \(generation)): \(reason)",
                    label: "crashed \(generation)")
            default:
                return nil
            }
        }
    }

}
