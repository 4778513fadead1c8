// The run loop (layer 1): actors on a scheduler, driven one delivery at a time, within bounds.

/// A discrete-event simulation: actors, the scheduler that delivers their messages, the
/// ordering strategy for simultaneous deliveries, and an optional trace.
///
/// One simulation runs on one thread with no wall clock: the same actors, initial messages,
/// ordering strategy and seeds give the same deliveries in the same order, in any process.
/// Parallelism comes from running independent simulations side by side.
///
///     var simulation = Simulation<Ping>()
///     let ponger = simulation.add(Ponger())
///     simulation.scheduler.send(.ping, to: ponger, at: .start)
///     let outcome = simulation.run(eventCountMax: 1_000, horizon: .start + .minutes(5))
///     print(outcome.exitReason)   // idle, horizon, event-count-max or stop-requested
public struct Simulation<Message> {
    /// The clock and pending deliveries; send the first messages through it before `run`.
    public var scheduler = Scheduler<Message>()
    /// Where every delivery is recorded, if anywhere.
    public var trace: (any TraceSink<Message>)?
    /// How simultaneous deliveries are ordered.
    @inlinable public var ordering: OrderingStrategy { orderingStorage }

    @usableFromInline var orderingStorage: OrderingStrategy
    // invariant: actors[i] is the actor with ActorID(index: i)
    @usableFromInline var actors = ContiguousArray<any SimulationActor<Message>>()

    public init(ordering: OrderingStrategy = .fifo, trace: (any TraceSink<Message>)? = nil) {
        self.orderingStorage = ordering
        self.trace = trace
    }

    /// Adds an actor and returns its address (the next dense index).
    @discardableResult
    public mutating func add(_ actor: some SimulationActor<Message>) -> ActorID {
        // The last index is never given out: it is `ActorID.outside`.
        precondition(actors.count < Int(ActorID.outside.index), "at most 2^32 - 1 actors")
        let id = ActorID(index: UInt32(actors.count))
        actors.append(actor)
        scheduler.actorCount = actors.count
        return id
    }

    /// The actor at `id`, to read its state after a run.
    public func actor(_ id: ActorID) -> any SimulationActor<Message> { actors[Int(id.index)] }

    /// The number of actors added.
    public var actorCount: Int { actors.count }

    /// Delivers messages in order until nothing is pending, `eventCountMax` deliveries have
    /// been made in this call, the next delivery would fall after `horizon` (the clock then
    /// moves to `horizon`), or an actor asks to stop. Deliveries due exactly at `horizon` are
    /// made. Reaching a bound is an outcome, never a hang.
    @inlinable
    public mutating func run(eventCountMax: Int = .max, horizon: Instant? = nil) -> RunOutcome {
        precondition(eventCountMax >= 0, "an event bound is never negative")
        precondition(!scheduler.isDelivering, "run is not reentrant")
        if let horizon { precondition(horizon >= scheduler.now, "the horizon lies in the past") }
        let horizonNanoseconds = horizon?.nanosecondsSinceStart ?? .max
        let deliveredAtStart = scheduler.deliveredCount
        scheduler.stopRequested = false
        let exitReason: ExitReason
        let isFIFO = orderingStorage.kind == .fifo
        // Actors cannot be added during a run: a local copy lets each delivery borrow its
        // actor instead of retaining it.
        let actors = self.actors
        while true {
            if scheduler.deliveredCount - deliveredAtStart >= eventCountMax {
                exitReason = .eventCountMaxReached
                break
            }
            guard scheduler.queue.advance(notAfter: horizonNanoseconds) else {
                if scheduler.pendingCount == 0 {
                    exitReason = .idle
                } else {
                    exitReason = .horizonReached
                    scheduler.advanceClock(to: horizon!)
                }
                break
            }
            // The node is chosen first and its delivery taken here, once: returned from the
            // (not inlined) choice, the message was copied out and copied again.
            let node = isFIFO ? scheduler.queue.readyHead : contestedNode()
            let (instant, target, message) = scheduler.queue.take(node)
            scheduler.moveClock(to: instant)
            deliver(consume message, to: actors[Int(target.index)], id: target)
            if scheduler.stopRequested {
                exitReason = .stopRequested
                break
            }
        }
        return RunOutcome(
            exitReason: exitReason,
            deliveredCount: scheduler.deliveredCount - deliveredAtStart,
            now: scheduler.now
        )
    }

    // MARK: - Internals

    /// Hands `message` to its actor, then to the trace, which takes it: recorded before the
    /// actor handled it, every message was copied into the trace and destroyed after.
    @inlinable @inline(__always)
    mutating func deliver(
        _ message: consuming Message, to actor: any SimulationActor<Message>, id target: ActorID
    ) {
        scheduler.deliveredCountStorage += 1
        scheduler.currentActorStorage = target
        actor.receive(message, context: &scheduler)
        scheduler.currentActorStorage = .outside
        trace?.record(instant: scheduler.now, actor: target, message: consume message)
    }

    /// The queue node of the next delivery of the ready run as the ordering strategy picks it,
    /// among the first deliveries of each channel only (so every strategy keeps per-channel
    /// FIFO). A run with one channel draws no choice.
    @inlinable @inline(never)
    mutating func contestedNode() -> UInt32 {
        // Most instants have one delivery: no list of heads to build.
        if scheduler.queue.readyRunIsSingle { return scheduler.queue.readyHead }
        let heads = scheduler.queue.channelHeads()
        if heads.count == 1 { return scheduler.queue.readyHead }
        let pick = orderingStorage.pick(among: heads.map(\.channel))
        precondition(
            pick >= 0 && pick < heads.count, "an ordering pick is one of the channel heads")
        return scheduler.queue.readyNode(at: heads[pick].offset)
    }
}

/// Why a run stopped.
public enum ExitReason: String, Sendable, Equatable {
    /// Nothing was left to deliver.
    case idle
    /// The next delivery lay after the horizon.
    case horizonReached = "horizon"
    /// The run made as many deliveries as it was allowed.
    case eventCountMaxReached = "event-count-max"
    /// An actor asked the run to stop.
    case stopRequested = "stop-requested"
}

/// What a call to `run` did: why it stopped, how many deliveries it made, and when it stopped.
public struct RunOutcome: Sendable, Equatable {
    public var exitReason: ExitReason
    public var deliveredCount: Int
    public var now: Instant

    @inlinable
    public init(exitReason: ExitReason, deliveredCount: Int, now: Instant) {
        self.exitReason = exitReason
        self.deliveredCount = deliveredCount
        self.now = now
    }
}
