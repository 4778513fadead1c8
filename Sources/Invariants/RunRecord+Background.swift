// What goes on behind the app's log (layer 5): the services each process holds in the daemon
// and the uploads in flight on the network, as changes over time, for the fuzzer's abstract
// lifecycle states.
import Simulation
import World

/// A change in what runs behind the app's log, at the instant the trace shows it.
public struct BackgroundChange: Sendable, Equatable {
    public var instant: Instant
    public var kind: Kind

    public enum Kind: Sendable, Equatable {
        /// The services process `generation` holds in the daemon after one of its requests
        /// (replayed from its requests in order, as `restore-exactly-what-was-running` does),
        /// in `LocationService`'s order.
        case services(generation: Int, held: [LocationService])
        /// Upload requests the network has received and not yet answered (a cancelled one is
        /// answered too: the network completes it as failed).
        case uploads(inFlight: Int)
    }
}

extension RunRecord {
    /// Every change of the services held and the uploads in flight, in trace order (one pass
    /// over the trace). A request that changes nothing held still gives a `services` change,
    /// so the first one of a process says it holds nothing yet.
    public var backgroundChanges: [BackgroundChange] {
        derived.value(\.backgroundChanges) { readBackgroundChanges() }
    }

    private func readBackgroundChanges() -> [BackgroundChange] {
        var changes: [BackgroundChange] = []
        let daemon = ActorID(index: WorldActors.daemonIndex)
        let app = ActorID(index: WorldActors.appIndex)
        let network = ActorID(index: WorldActors.networkIndex)
        var held = HeldServices()
        var heldGeneration = 0
        var uploadsInFlight = 0
        let deliveries = trace.records
        for index in deliveries.indices {
            // Matched in place, by actor first and then by the case alone: binding a delivery
            // copied it, so only the deliveries kept are bound (copied).
            let actor = deliveries[index].actor
            let instant = deliveries[index].instant
            if actor == daemon {
                guard case .requests = deliveries[index].message,
                    case .requests(let batch, let generation) = deliveries[index].message
                else { continue }
                if generation != heldGeneration {
                    held = HeldServices()
                    heldGeneration = generation
                }
                for request in batch { held.apply(request) }
                changes.append(
                    BackgroundChange(
                        instant: instant,
                        kind: .services(generation: generation, held: held.held)))
            } else if actor == network {
                guard case .upload = deliveries[index].message else { continue }
                uploadsInFlight += 1
                changes.append(
                    BackgroundChange(instant: instant, kind: .uploads(inFlight: uploadsInFlight)))
            } else if actor == app {
                // A switch, not `guard case`: this nested match copies the payload alone.
                switch deliveries[index].message {
                case .deliver(.uploadCompleted, _, _, _): break
                default: continue
                }
                uploadsInFlight = max(0, uploadsInFlight - 1)
                changes.append(
                    BackgroundChange(instant: instant, kind: .uploads(inFlight: uploadsInFlight)))
            }
        }
        return changes
    }
}
