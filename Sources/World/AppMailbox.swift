// The one delivery path to the app (layer 3): what the process's state and listeners make of
// each item the system has for the app: deliver it now, hold it, or drop it with a reason.
import Simulation

/// Everything the system has for the app's code passes through here, wherever it comes from
/// (the location daemon's fixes, errors and events; the operating system's callbacks).
///
/// - A running process gets an item at once, unless it is a monitoring event that no service
///   of this process listens for: then it is held until the process recreates the service
///   (R-A12), for at most `relaunchRecreateWindow` while the process runs.
/// - A suspended process runs no code: its items are held and delivered, in arrival order,
///   when it runs again (R-A2).
/// - An item for a process whose launch message has not arrived yet is held for it.
/// - An item for a process that has ended is dropped (R-A1); a monitoring event is held for the
///   next process, and the operating system is asked to wake or relaunch the app for it
///   (R-A10, R-F2). If the operating system refuses (R-F5, R-B4–R-B6), the event is dropped.
/// - A reboot drops held events; the registrations that produce them survive (R-B7).
/// - At most `queuedUpdateCountMax` locations are held (R-A2 bounds queued location
///   updates); beyond it the oldest location is dropped. Errors, events, callbacks and the
///   completion of the app's own store commits are held outside that bound (never dropped for
///   it, only lost with their process).
///
/// Which process listens for what it learns from the requests the engine makes: significant
/// change must be started again by each process (F), a monitor opened again with the same
/// name (R-A12), while legacy regions and visits reach any process that has created a
/// location manager (F: "no need to call start again").
struct AppMailbox {
    /// What to do with an item now.
    enum Route: Equatable {
        case deliver, hold
        case drop(DropReason)
    }

    /// The current (or last) process and its state.
    private(set) var generation = 0
    private(set) var state = ProcessState.notRunning
    /// How each ended process ended, by generation − 1.
    private var endings: [TerminationCause] = []
    /// The current process's listeners.
    private var listeners = Listeners()
    // invariant: held[heldStart...] are the items held, in arrival order; process-bound items
    // are for the current process, or for a later one whose launch is on its way (`early`)
    private var held: [Held] = []
    /// Items before it were taken from the front and are dead (`removeHeld(at:)`): a queue
    /// drained, or pushed out at the bound, from the front one item at a time moved every
    /// item after it each time. `compact()` drops them.
    private var heldStart = 0
    /// How many held items count against the bound (`AppItem.isBoundByQueue`), kept as items
    /// come and go: once the bound is reached every hold checks it, and counting the queue
    /// each time cost a pass over it (and a copy of each item).
    // invariant: boundCount == held.count(where: \.item.isBoundByQueue)
    private var boundCount = 0
    private let heldCountMax: Int

    /// A held item and the process it is for (nil: whichever listens).
    private struct Held {
        var item: AppItem
        var generation: Int?
    }

    init(heldCountMax: Int) { self.heldCountMax = heldCountMax }

    /// Where `item`, meant for process `generation` (nil: whichever listens), goes now.
    func route(_ item: AppItem, for generation: Int?) -> Route {
        guard let generation else {
            guard case .event(let event) = item else { return .hold }
            return state.isRunning && listeners.listens(to: event) ? .deliver : .hold
        }
        if generation > self.generation { return .hold }  // its launch is on its way
        if generation < self.generation || !state.exists {
            return .drop(.processEnded(ending(of: generation)))
        }
        return state == .suspended ? .hold : .deliver
    }

    /// Holds `item` for process `generation`; returns what the bound pushes out, oldest first.
    /// The bound counts the items the system queues (`AppItem.isBoundByQueue`), not the
    /// completions of the app's own commits, which are never pushed out.
    mutating func hold(_ item: AppItem, for generation: Int?) -> [AppItem] {
        compactIfWorthIt()
        held.append(Held(item: item, generation: generation))
        if item.isBoundByQueue { boundCount += 1 }
        var excess = boundCount - heldCountMax
        guard excess > 0 else { return [] }
        // The oldest bound items go, the rest keep their order. Once the bound is reached,
        // every hold pushes out one item: removed in place, not by rebuilding the queue.
        var overflow: [AppItem] = []
        var index = heldStart
        while excess > 0 {
            if held[index].item.isBoundByQueue {
                overflow.append(removeHeld(at: index).item)
                index = heldStart  // the items before it were renumbered, none of them bound
                boundCount -= 1
                excess -= 1
            } else {
                index += 1
            }
        }
        return overflow
    }

    /// True when events wait for a listener.
    var hasHeldEvents: Bool { held[heldStart...].contains { $0.generation == nil } }

    /// The mechanisms of the held events, in the order held (with repeats).
    var heldEventMechanisms: [RelaunchMechanism] {
        held[heldStart...].compactMap { held in
            guard held.generation == nil, case .event(let event) = held.item else { return nil }
            return event.mechanism
        }
    }

    /// The number of items held (for checks of the mailbox's bookkeeping).
    var heldCount: Int { held.count - heldStart }

    // MARK: - The process's life

    /// A new process launched into `state`: it listens for nothing yet.
    mutating func launched(generation: Int, into state: ProcessState) {
        self.generation = generation
        self.state = state
        listeners = Listeners()
    }

    /// The process moved to `newState` (not an ending).
    mutating func moved(to newState: ProcessState) { state = newState }

    /// The process ended: returns the items held for it, which die with it. Events stay held
    /// for the next process.
    mutating func ended(_ cause: TerminationCause) -> [AppItem] {
        if generation > endings.count {
            endings.append(contentsOf: repeatElement(.exit, count: generation - endings.count))
        }
        if generation > 0 { endings[generation - 1] = cause }
        state = .terminated
        listeners = Listeners()
        compact()
        let dying = held.filter { $0.generation == generation }.map(\.item)
        held.removeAll { $0.generation == generation }
        boundCount = held.count { $0.item.isBoundByQueue }
        return dying
    }

    /// The engine asked for `requests`: note which services now listen.
    mutating func noteRequests(_ requests: [AppRequest]) {
        for request in requests { listeners.note(request) }
    }

    /// Takes the first held item that the running process may have now, in arrival order:
    /// any item for this process, and events it listens for.
    mutating func takeDeliverable() -> AppItem? {
        compactIfWorthIt()
        guard let index = firstDeliverableIndex else { return nil }
        let item = removeHeld(at: index).item
        if item.isBoundByQueue { boundCount -= 1 }
        return item
    }

    /// True when `takeDeliverable()` would take an item; reading it changes nothing.
    var hasDeliverable: Bool { firstDeliverableIndex != nil }

    /// The index of the first held item that the running process may have now.
    private var firstDeliverableIndex: Int? {
        guard state.isRunning else { return nil }
        return held[heldStart...].firstIndex { held in
            if let generation = held.generation { return generation == self.generation }
            guard case .event(let event) = held.item else { return false }
            return listeners.listens(to: event)
        }
    }

    /// Takes the first held item that the running process may have now if it is a location of
    /// manager `id` (the next of a batch, R-A2); otherwise takes nothing.
    mutating func takeDeliverableLocation(of id: ObjectID) -> LocationUpdate? {
        compactIfWorthIt()
        guard let index = firstDeliverableIndex, case .location(let update) = held[index].item,
            update.channel == .manager(id)
        else { return nil }
        _ = removeHeld(at: index)
        boundCount -= 1  // a location
        return update
    }

    /// Takes every held event (expired, lost to a reboot, or to an idle ending), or only those
    /// that `mechanism` would have relaunched the app for.
    mutating func takeHeldEvents(for mechanism: RelaunchMechanism? = nil) -> [MonitoringEvent] {
        var taken: [MonitoringEvent] = []
        compact()
        held.removeAll { held in
            guard held.generation == nil, case .event(let event) = held.item,
                mechanism == nil || event.mechanism == mechanism
            else { return false }
            taken.append(event)
            return true
        }
        return taken
    }

    /// Removes the held item at `index` (at or after `heldStart`) and returns it, moving the
    /// fewer items: those after it down by one (`remove(at:)`), or those before it up by one
    /// and `heldStart` on, the front slot emptied. Either way the items keep their order.
    private mutating func removeHeld(at index: Int) -> Held {
        guard index - heldStart <= held.count - 1 - index else { return held.remove(at: index) }
        var position = index
        while position > heldStart {
            held.swapAt(position, position - 1)
            position -= 1
        }
        let removed = held[heldStart]
        held[heldStart] = Held(item: .protectedDataAvailable, generation: nil)  // holds nothing
        heldStart += 1
        return removed
    }

    /// Drops the dead slots before `heldStart`.
    private mutating func compact() {
        guard heldStart > 0 else { return }
        held.removeFirst(heldStart)
        heldStart = 0
    }

    /// Drops the dead slots once there is nothing after them, or once they are at least half
    /// the array (so that each item is moved a bounded number of times).
    private mutating func compactIfWorthIt() {
        if heldStart == held.count || (heldStart >= 32 && heldStart * 2 >= held.count) {
            compact()
        }
    }

    /// How process `generation` ended.
    private func ending(of generation: Int) -> TerminationCause {
        // Every process before the current one was killed, and its kill recorded, before the
        // next launch (one channel from the operating system).
        generation - 1 < endings.count ? endings[generation - 1] : .exit
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
        case .conditionExit(let monitor, _), .conditionEntry(let monitor, _),
            .conditionChanged(let monitor, _):
            monitors.contains(monitor)
        case .regionExit, .regionEntry: hasManager
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
