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
        var held = HeldServices()
        var heldGeneration = 0
        // `held.held` as of `heldChangeCount`: most request batches (a wake region moved)
        // change no service held, and share the array made for the one before.
        var heldNow: [LocationService] = []
        var heldChangeCount = 0
        var uploadsInFlight = 0
        // The daemon's requests and the uploads, merged in trace order.
        let daemon = digest.daemonRecords
        let uploads = digest.uploads
        var (daemonIndex, uploadIndex) = (0, 0)
        while daemonIndex < daemon.count || uploadIndex < uploads.count {
            let takesUpload =
                daemonIndex == daemon.count
                || (uploadIndex < uploads.count
                    && uploads[uploadIndex].traceIndex < daemon[daemonIndex].traceIndex)
            if takesUpload {
                let upload = uploads[uploadIndex]
                uploadIndex += 1
                uploadsInFlight =
                    upload.completed ? max(0, uploadsInFlight - 1) : uploadsInFlight + 1
                changes.append(
                    BackgroundChange(
                        instant: upload.instant, kind: .uploads(inFlight: uploadsInFlight)))
                continue
            }
            let index = daemonIndex
            daemonIndex += 1
            // The case alone first, in place: binding the record copied its message.
            guard case .requests(let start, let count, let narrowGeneration) = daemon[index].message
            else { continue }
            let generation = Int(narrowGeneration)
            let instant = daemon[index].instant
            if generation != heldGeneration {
                held = HeldServices()
                heldGeneration = generation
                (heldNow, heldChangeCount) = ([], 0)
            }
            for request in digest.requests(start: start, count: count) {
                held.apply(request.request)
            }
            if held.changeCount != heldChangeCount {
                (heldNow, heldChangeCount) = (held.held, held.changeCount)
            }
            changes.append(
                BackgroundChange(
                    instant: instant, kind: .services(generation: generation, held: heldNow)))
        }
        return changes
    }
}
