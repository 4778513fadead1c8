// Actors in the actor-model sense (layer 1): each owns its state and reacts only to messages
// that the scheduler delivers at a virtual instant.

/// A participant in a simulation: it owns its state, is addressed by an `ActorID`, and reacts
/// only to the messages the scheduler delivers to it.
///
/// An actor changes nothing but its own state, and reaches the rest of the world only through
/// the `context` it is handed: it sends messages (now or later), sets and cancels timers, and
/// reads the clock. Actors hold no references to each other and share no mutable state. They
/// are plain classes driven by one loop, not Swift `actor`s: Swift's runtime would pick the
/// order of their work, and a run could no longer be replayed.
///
///     final class Echo: SimulationActor {
///         func receive(_ message: String, context: inout Scheduler<String>) {
///             context.setTimer(after: .seconds(1), "echo of \(message)")
///         }
///     }
public protocol SimulationActor<Message>: AnyObject {
    /// Everything that can be delivered in the simulation this actor belongs to.
    associatedtype Message

    /// Handles one delivered message at `context.now`.
    func receive(_ message: Message, context: inout Scheduler<Message>)
}

/// The address of an actor: a dense index, in the order actors were added to the simulation.
/// Dense indices (never a `Dictionary` or `Set` of actors) keep every run's order the same in
/// every process.
public struct ActorID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position of the actor in the order it was added.
    public var index: UInt32

    @inlinable public init(index: UInt32) { self.index = index }

    /// The sender of a message sent from outside a run (before `run`, by a test or by world
    /// setup). Never an actor's address: a simulation holds at most 2^32 − 1 actors, so the
    /// largest index is never given out. Together with the receiver, it names the channel of
    /// every such message, so that outside messages to one actor keep their order too.
    @inlinable public static var outside: ActorID { ActorID(index: UInt32.max) }

    public static func < (lhs: ActorID, rhs: ActorID) -> Bool { lhs.index < rhs.index }

    public var description: String { String(index) }
}

/// Names one scheduled delivery (a message or a timer) so that it can be cancelled.
/// A handle stays valid after its delivery or cancellation: cancelling it again does nothing.
public struct EventHandle: Hashable, Sendable {
    @usableFromInline let slot: UInt32
    @usableFromInline let generation: UInt32

    @inlinable
    init(slot: UInt32, generation: UInt32) {
        self.slot = slot
        self.generation = generation
    }
}
