// The one delivery path to the app (layer 3): what the process's state and listeners make of
// each item the system has for the app: deliver it now, hold it, or drop it with a reason.
import Simulation

/// Everything the system has for the app's code passes through here, wherever it comes from
/// (the location daemon's fixes, errors and events; the operating system's callbacks).
///
/// - A running process gets an item at once, unless it is a monitoring event that no service
///   of this process listens for: then it is held until the process recreates the service
///   (R-A12), for at most `backgroundWakeRuntime` while the process runs.
/// - A suspended process runs no code: its items are held, in order, and delivered when it
///   runs again (R-A2); at most `queuedUpdateCountMax`, the oldest dropped beyond.
/// - An item for a process that has ended is dropped (R-A1); a monitoring event is held for the
///   next process, which the location daemon asks the operating system to launch (R-A10).
/// - A reboot drops held events; the registrations that produce them survive (R-B7).
///
/// Which process listens for what it learns from the requests the engine makes: significant
/// change must be started again by each process (F), a monitor opened again with the same
/// name (R-A12), while legacy regions and visits reach any process that has created a
/// location manager (F: "no need to call start again").
struct AppMailbox {
    /// What to do with an item now.
    enum Route: Equatable { case deliver, hold, drop(DropReason) }

    /// The current (or last) process and its state.
    private(set) var generation = 0
    private(set) var state = ProcessState.notRunning
    /// How each ended process ended, by generation − 1.
    private var endings: [TerminationCause] = []
    /// The current process's listeners.
    private var listeners = Listeners()
    // invariant: every held item is for the current process, in arrival order
    private var held: [AppItem] = []
    // invariant: events in arrival order; none has a listener while the process runs
    private var heldEvents: [MonitoringEvent] = []
    private let heldCountMax: Int

    init(heldCountMax: Int) { self.heldCountMax = heldCountMax }

    /// Where `item`, meant for process `generation` (nil: whichever listens), goes now.
    func route(_ item: AppItem, for generation: Int?) -> Route {
        guard let generation else {
            guard case .event(let event) = item else { return .hold }
            return state.isRunning && listeners.listens(to: event) ? .deliver : .hold
        }
        if generation != self.generation || !state.exists {
            let ending = generation - 1 < endings.count ? endings[generation - 1] : .exit
            return .drop(.processEnded(ending))
        }
        return state == .suspended ? .hold : .deliver
    }

    /// Holds `item`; returns what the bound pushes out, oldest first.
    mutating func hold(_ item: AppItem) -> [AppItem] {
        if case .event(let event) = item, !state.isRunning || !listeners.listens(to: event) {
            heldEvents.append(event)
            return Self.trim(&heldEvents, to: heldCountMax).map(AppItem.event)
        }
        held.append(item)
        return Self.trim(&held, to: heldCountMax)
    }

    /// True when events wait for a listener that has not come back.
    var hasHeldEvents: Bool { !heldEvents.isEmpty }

    // MARK: - The process's life

    /// A new process launched into `state`: it listens for nothing yet.
    mutating func launched(generation: Int, into state: ProcessState) {
        self.generation = generation
        self.state = state
        listeners = Listeners()
    }

    /// The process moved to `newState` (not an ending). Returns what it may now run: the
    /// items held while it was suspended, in order, when it runs again.
    mutating func moved(to newState: ProcessState) -> [AppItem] {
        state = newState
        guard newState.isRunning else { return [] }
        defer { held.removeAll() }
        return held
    }

    /// The process ended: returns its held items, which die with it.
    mutating func ended(_ cause: TerminationCause) -> [AppItem] {
        endings.append(contentsOf: repeatElement(.exit, count: max(0, generation - endings.count)))
        if generation > 0 { endings[generation - 1] = cause }
        state = .terminated
        listeners = Listeners()
        defer { held.removeAll() }
        return held
    }

    /// The engine asked for `requests`: note which services now listen.
    mutating func noteRequests(_ requests: [AppRequest]) {
        for request in requests { listeners.note(request) }
    }

    /// Takes the first held event that the running process now listens for.
    mutating func takeListenedEvent() -> MonitoringEvent? {
        guard state.isRunning, let index = heldEvents.firstIndex(where: listeners.listens(to:))
        else { return nil }
        return heldEvents.remove(at: index)
    }

    /// Takes every held event (expired, or lost to a reboot).
    mutating func takeHeldEvents() -> [MonitoringEvent] {
        defer { heldEvents.removeAll() }
        return heldEvents
    }

    /// Drops the oldest elements of `items` beyond `countMax`, returning them.
    private static func trim<Element>(_ items: inout [Element], to countMax: Int) -> [Element] {
        guard items.count > countMax else { return [] }
        let overflow = Array(items.prefix(items.count - countMax))
        items.removeFirst(overflow.count)
        return overflow
    }
}

/// Which monitoring events the current process listens for.
struct Listeners {
    var significantChanges = false
    var visits = false
    var hasManager = false
    // invariant: no duplicates, in the order opened
    var monitors: [String] = []

    func listens(to event: MonitoringEvent) -> Bool {
        switch event {
        case .significantChange: significantChanges
        case .conditionExit(let monitor, _): monitors.contains(monitor)
        case .regionExit: hasManager
        case .visitArrival, .visitDeparture: hasManager || visits
        }
    }

    mutating func note(_ request: AppRequest) {
        switch request {
        case .createManager: hasManager = true
        case .startSignificantChanges: significantChanges = true
        case .stopSignificantChanges: significantChanges = false
        case .startVisits: visits = true
        case .stopVisits: visits = false
        case .openMonitor(let name) where !monitors.contains(name): monitors.append(name)
        default: break
        }
    }
}
