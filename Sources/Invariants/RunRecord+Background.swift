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
            // Matched in place: binding each delivery copied its message. The case alone is
            // tested first, which reads it in place; the match below binds (copies) only the
            // deliveries it may keep.
            let actor = deliveries[index].actor
            switch deliveries[index].message {
            case .requests where actor == daemon, .upload where actor == network,
                .deliver where actor == app:
                break
            default:
                continue
            }
            let instant = deliveries[index].instant
            switch deliveries[index].message {
            case .requests(let batch, let generation) where actor == daemon:
                if generation != heldGeneration {
                    held = HeldServices()
                    heldGeneration = generation
                }
                for request in batch { held.apply(request) }
                changes.append(
                    BackgroundChange(
                        instant: instant,
                        kind: .services(generation: generation, held: held.held)))
            case .upload where actor == network:
                uploadsInFlight += 1
                changes.append(
                    BackgroundChange(
                        instant: instant, kind: .uploads(inFlight: uploadsInFlight)))
            case .deliver(.uploadCompleted, _, _, _) where actor == app:
                uploadsInFlight = max(0, uploadsInFlight - 1)
                changes.append(
                    BackgroundChange(
                        instant: instant, kind: .uploads(inFlight: uploadsInFlight)))
            default:
                continue
            }
        }
        return changes
    }
}
