// The scheduler (layer 1): what an actor sees of the world while it handles a message: the
// clock, and the means to send messages and to set and cancel timers.

/// Pending deliveries, the virtual clock, and the operations an actor may perform.
///
/// An actor receives the scheduler as its `context` in `receive(_:context:)`. Every delivery is
/// a message to one actor at one instant; a timer is a message an actor sends to itself later.
///
/// Every message travels on a channel, (sender, receiver): the sender is the actor whose
/// `receive` is running, or `ActorID.outside` for a message sent outside a run; a timer travels
/// on its actor's channel to itself. Deliveries due at the same instant go first-scheduled,
/// first-served unless the simulation's `OrderingStrategy` reorders them, and no strategy
/// reorders two deliveries of one channel: per-channel FIFO holds in every strategy, as it does
/// between two iOS processes or two actors of any actor system.
///
/// Cancellation is O(1): a handle names a queue node and its generation; cancelling unlinks
/// the node, and a handle whose delivery was made or cancelled no longer matches.
///
///     let timeout = context.setTimer(after: .seconds(30), .backgroundTaskExpired)
///     ...
///     context.cancel(timeout)
public struct Scheduler<Message> {
    /// The current virtual instant: the instant of the delivery being handled.
    @inlinable public var now: Instant { Instant(nanosecondsSinceStart: nowNanoseconds) }
    /// The actor whose `receive` is running; `ActorID.outside` between deliveries.
    @inlinable public var currentActor: ActorID { currentActorStorage }
    /// Messages and timers scheduled and not yet delivered or cancelled.
    @inlinable public var pendingCount: Int { queue.count }
    /// Deliveries made since the simulation started.
    @inlinable public var deliveredCount: Int { deliveredCountStorage }
    /// Deliveries cancelled before they were due.
    @inlinable public var cancelledCount: Int { cancelledCountStorage }
    /// Deliveries scheduled since the simulation started.
    @inlinable public var scheduledCount: Int { scheduledCountStorage }

    @usableFromInline var nowNanoseconds: Int64 = 0
    /// The actor whose `receive` is running, else `ActorID.outside`: the sender of every
    /// message sent now (one load on the send path, no branch).
    @usableFromInline var currentActorStorage = ActorID.outside
    @usableFromInline var deliveredCountStorage = 0
    @usableFromInline var cancelledCountStorage = 0
    @usableFromInline var scheduledCountStorage = 0
    /// Number of actors that can be addressed (set by `Simulation.add`).
    @usableFromInline var actorCount = 0
    /// True while an actor's `receive` runs.
    @inlinable var isDelivering: Bool { currentActorStorage != .outside }
    /// Set by `requestStop()`; the run loop stops after the current delivery.
    @usableFromInline var stopRequested = false
    @usableFromInline var queue = EventQueue<Message>()

    @usableFromInline init() {}

    /// Sends `message` to `target`, delivered at `instant` (not before `now`).
    ///
    /// The message is consumed (moved into the queue, not copied), as in every `send` and
    /// `setTimer`: a message is nearly always built for the call.
    /// - Complexity: O(1).
    @discardableResult @inlinable @inline(__always)
    public mutating func send(_ message: consuming Message, to target: ActorID, at instant: Instant)
        -> EventHandle
    {
        precondition(
            instant.nanosecondsSinceStart >= nowNanoseconds,
            "virtual time never runs backwards: \(instant) < \(now)")
        precondition(Int(target.index) < actorCount, "no actor \(target) in this simulation")
        scheduledCountStorage += 1
        return queue.insert(
            consume message, to: target, from: currentActorStorage,
            at: instant.nanosecondsSinceStart)
    }

    /// Sends `message` to `target` after `delay` (>= 0).
    @discardableResult @inlinable @inline(__always)
    public mutating func send(
        _ message: consuming Message, to target: ActorID, after delay: VirtualDuration
    ) -> EventHandle {
        precondition(delay.nanoseconds >= 0, "a delay is never negative")
        return send(consume message, to: target, at: now + delay)
    }

    /// Sends `message` to `target` now: after everything already due at this instant.
    @discardableResult @inlinable @inline(__always)
    public mutating func send(_ message: consuming Message, to target: ActorID) -> EventHandle {
        send(consume message, to: target, at: now)
    }

    /// Sets a timer: `message` comes back to the current actor after `delay`.
    @discardableResult @inlinable @inline(__always)
    public mutating func setTimer(after delay: VirtualDuration, _ message: consuming Message)
        -> EventHandle
    {
        precondition(isDelivering, "timers are set by an actor while it handles a message")
        return send(consume message, to: currentActorStorage, after: delay)
    }

    /// Cancels a pending delivery. Returns false, and changes nothing, when it was already
    /// delivered or cancelled.
    /// - Complexity: O(1).
    @discardableResult @inlinable @inline(__always)
    public mutating func cancel(_ handle: EventHandle) -> Bool {
        guard queue.remove(handle) else { return false }
        cancelledCountStorage += 1
        return true
    }

    /// True while `handle`'s delivery is scheduled and not yet delivered or cancelled.
    @inlinable @inline(__always)
    public func isPending(_ handle: EventHandle) -> Bool { queue.contains(handle) }

    /// Asks the run loop to stop once the current delivery has been handled.
    @inlinable
    public mutating func requestStop() { stopRequested = true }

    // MARK: - Internals used by the run loop

    /// Moves the clock to a delivery's instant.
    @inlinable @inline(__always)
    mutating func moveClock(to instant: Int64) {
        assert(instant >= nowNanoseconds, "the queue gave a delivery from the past")
        nowNanoseconds = instant
    }

    /// Moves the clock forward to `instant` with nothing delivered (the run reached its horizon).
    @usableFromInline
    mutating func advanceClock(to instant: Instant) {
        precondition(instant >= now, "virtual time never runs backwards")
        nowNanoseconds = instant.nanosecondsSinceStart
    }
}
