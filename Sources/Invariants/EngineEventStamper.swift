// Instants for engine events (layer 5): a trace sink that digests the trace (and keeps it when
// asked) and stamps each event an engine tells with the instant of the delivery whose callback
// told it.
import Engines
import Simulation
import World

/// Events one engine told during one delivery: `events[start..<start + count]` of process
/// `generation`'s engine, stamped with the delivery's instant and trace index. A run keeps
/// these, not a copy of every event, which the engines hold already; `RunRecord.engineEvents`
/// reads the events through them.
struct EventStampRun {
    var instant: Instant
    var traceIndex: Int
    var generation: Int32
    var start: Int32
    var count: Int32
}

/// One event an engine told, with when and by which process.
///
/// `TrackingEvent`s carry no time; the engine tells them inside the callbacks the app process
/// runs for one delivery. The stamp is that delivery's instant, and `traceIndex` its index in
/// `RunRecord.trace.records`, so events compare exactly with the trace (same-instant order
/// included) and, by instant, with the log.
public struct StampedEngineEvent: Sendable {
    public var instant: Instant
    /// The index in the trace of the delivery during which the event was told.
    public var traceIndex: Int
    /// The process whose engine told it (`RunRecord.engines[generation - 1]`).
    public var generation: Int
    public var event: TrackingEvent
}

/// The engines a run made, in launch order, shared between the world's engine factory and the
/// stamper (the world owns the trace sink, the factory closure owns nothing else).
final class EngineLedger {
    var engines: [any TrackingEngine] = []
}

/// A trace sink that folds every delivery into a `TraceDigest`, keeps every delivery when asked
/// (handed over as a `MemoryTrace`, `memory`) and,
/// when recording delivery k, stamps the events the engines told since delivery k − 1 with
/// delivery k's instant (the kernel records a delivery once the actor has handled it, so
/// everything told in a callback is told just before its delivery's record). `finish()`
/// stamps anything told after the last delivery, with it.
///
/// Its arrays are appended to moved out of the stamper and back (`swap`): appending to an
/// array stored in a class runs a call inside the access, which made Swift check every access
/// to it at run time, at every delivery. Kept here rather than in a `MemoryTrace`, whose
/// storage other modules reach, the deliveries are checked statically too.
final class EngineEventStamper: TraceSink {
    private var records: [MemoryTrace<WorldMessage>.Record] = []
    /// Whether every delivery is kept (`memory`); the digest is folded either way.
    private let keepsTrace: Bool
    // Unchecked: only `record` writes it, once per delivery, and nothing reads it during a
    // run (a checked access cost a runtime call at every delivery).
    @exclusivity(unchecked) private(set) var digest = TraceDigest()
    private let ledger: EngineLedger
    /// The stamps of the events told so far, one per delivery whose callbacks told any.
    private(set) var stamps: [EventStampRun] = []
    /// Engines looked at so far (a prefix of `ledger.engines`); all but the last are done.
    private var seenEngineCount = 0
    /// Events of the last engine looked at already stamped.
    private var lastEngineStampedCount = 0
    /// The last engine looked at (`ledger.engines[seenEngineCount - 1]`).
    private var current: (any TrackingEngine)?
    /// Whether `current` pushes its events to this stamper (`PushesEngineEvents`): it is then
    /// read only after it told one (`toldSinceRead`), not after every delivery to the app.
    private var currentPushes = false
    // Unchecked: only `engineDidTell` and `stampNewEvents` write it and `stampNewEvents` reads
    // it, none calling out while it accesses it (a checked access cost a runtime call at every
    // delivery to the app).
    /// Whether an engine that pushes its events told one since the last read.
    @exclusivity(unchecked) private var toldSinceRead = false
    private var lastInstant = Instant.start
    private var recordCount = 0
    /// The app process's actor, once the world is made: engines run only in its deliveries, so
    /// after a delivery to another actor there is nothing to stamp. Nil: look after every one.
    var app: ActorID?

    /// A stamper with room for `capacity` deliveries and events before its arrays grow, that
    /// keeps every delivery when `keepsTrace` is set.
    init(ledger: EngineLedger, capacity: RunCapacity, keepsTrace: Bool) {
        self.ledger = ledger
        self.keepsTrace = keepsTrace
        // Reserved before they are stored, for the reason above.
        var records: [MemoryTrace<WorldMessage>.Record] = []
        if keepsTrace { records.reserveCapacity(capacity.deliveries) }
        self.records = records
        var stamps: [EventStampRun] = []
        stamps.reserveCapacity(capacity.engineEvents)
        self.stamps = stamps
    }

    /// Every delivery so far, as a trace (sharing the records' storage, not copying it); nil
    /// unless the stamper keeps the trace.
    var memory: MemoryTrace<WorldMessage>? { keepsTrace ? MemoryTrace(records: records) : nil }

    /// What this run recorded, as a capacity for the next.
    var recorded: RunCapacity {
        RunCapacity(deliveries: recordCount, engineEvents: stamps.count)
    }

    /// Keeps delivery `message` (moved in: the kernel has handed it over) and stamps what its
    /// callbacks told.
    func record(instant: Instant, actor: ActorID, message: consuming WorldMessage) {
        lastInstant = instant
        recordCount += 1
        digest.add(instant: instant, actor: actor, message: message)
        if keepsTrace {
            var moved: [MemoryTrace<WorldMessage>.Record] = []
            swap(&moved, &records)
            moved.append(.init(instant: instant, actor: actor, message: consume message))
            swap(&moved, &records)
        }
        if app.map({ $0 == actor }) ?? true { stampNewEvents() }
    }

    /// Stamps anything told since the last delivery was recorded (with that delivery).
    func finish() { stampNewEvents() }

    /// Engines only tell events during app deliveries, and only the current process's engine
    /// can: an earlier one is checked a last time once a later one is made (its process may
    /// have told events in the delivery that ended it), then never again.
    ///
    /// The current engine is kept (`current`), so that a delivery that made no engine reads
    /// only its events: reading the ledger's array and taking the engine out of it retained
    /// and released both at every app delivery.
    ///
    /// The engine is moved out of `current` and back (`take()`), not copied: an engine that is
    /// a manager's delegate is referenced weakly, so it has a side table, and each retain and
    /// release of it took the runtime's slow path.
    private func stampNewEvents() {
        guard ledger.engines.count == seenEngineCount else { return stampAcrossNewEngines() }
        guard current != nil, toldSinceRead || !currentPushes else { return }
        toldSinceRead = false
        let engine = current.take()!
        let events = engine.events
        current = consume engine
        guard events.count > lastEngineStampedCount else { return }
        stamp(events, from: lastEngineStampedCount, generation: seenEngineCount)
        lastEngineStampedCount = events.count
    }

    /// Stamps `events[start...]`, told by process `generation`, with the last delivery.
    private func stamp(_ events: [TrackingEvent], from start: Int, generation: Int) {
        var moved: [EventStampRun] = []
        swap(&moved, &stamps)
        moved.appendGrowingGently(
            EventStampRun(
                instant: lastInstant, traceIndex: recordCount - 1,
                generation: Int32(clamping: generation), start: Int32(clamping: start),
                count: Int32(clamping: events.count - start)))
        swap(&moved, &stamps)
    }

    /// `stampNewEvents` once the ledger holds engines not seen yet: the last one seen is read
    /// a last time, then every new one.
    private func stampAcrossNewEngines() {
        let engines = ledger.engines
        let firstLive = max(seenEngineCount - 1, 0)
        for index in firstLive..<engines.count {
            let alreadyStamped = index == seenEngineCount - 1 ? lastEngineStampedCount : 0
            let events = engines[index].events
            lastEngineStampedCount = max(events.count, alreadyStamped)
            guard events.count > alreadyStamped else { continue }
            stamp(events, from: alreadyStamped, generation: index + 1)
        }
        seenEngineCount = max(seenEngineCount, engines.count)
        current = engines.last
        toldSinceRead = false
        currentPushes = (current as? any PushesEngineEvents)?.eventListener === self
    }

}

extension EngineEventStamper: EngineEventListener {
    /// An engine that pushes its events (`PushesEngineEvents`, which `RunRecord.run` points at
    /// this stamper) told one: the next delivery's record reads it.
    func engineDidTell() { toldSinceRead = true }
}
