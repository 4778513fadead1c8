// What the invariants read of the trace (layer 5), gathered as the run goes: the daemon's
// process changes and location requests, the deliveries out of time order, the last upload
// begun and two counts. A run keeps this instead of every delivery unless asked to keep the
// trace, so its memory no longer grows with every fix delivered.
import Simulation
import World

/// The part of a run's trace that the invariants and metrics read, folded delivery by delivery
/// (`add`) while the run goes, so that a run need not keep its whole trace
/// (`RunRecord.run(keepsTrace:)`).
public struct TraceDigest: Sendable {
    /// A delivery the daemon received that says what a process is or asks for: a
    /// `processChanged` (the operating system telling the daemon) or a `requests` batch.
    public struct DaemonRecord: Sendable {
        /// The delivery's index in the trace.
        public var traceIndex: Int
        public var instant: Instant
        package var message: DaemonMessage
    }

    /// What a `DaemonRecord` delivered: the two `WorldMessage` cases it keeps, held in 24
    /// bytes rather than a whole message's 120 (a week's drive moves its wake region about
    /// 150,000 times, each a `requests` delivery).
    package enum DaemonMessage: Sendable {
        /// `WorldMessage.requests`: its requests are `locationRequests[start..<start + count]`
        /// (kept there once, rather than as an array a delivery and again as the invariants'
        /// view).
        case requests(start: Int, count: Int32, generation: Int32)
        /// `WorldMessage.processChanged`.
        case processChanged(ProcessState, generation: Int, cause: TerminationCause?)
    }

    /// A delivery at an instant before the delivery that preceded it (the kernel rules it out;
    /// `causality` reports one).
    public struct OutOfOrder: Sendable {
        public var traceIndex: Int
        public var instant: Instant
        public var previous: Instant
        /// The message in words.
        public var message: String
    }

    /// An upload reaching the network (`upload`) or its completion reaching the app's actor.
    public struct UploadRecord: Sendable {
        public var traceIndex: Int
        public var instant: Instant
        /// False for the request sent, true for its completion.
        public var completed: Bool
    }

    /// An upload request the network received: which process sent which batch, and when.
    public struct UploadSent: Sendable {
        public var instant: Instant
        public var generation: Int
        public var task: UploadTaskID
        public var key: UploadBatchKey
    }

    /// Deliveries in the trace.
    public private(set) var deliveryCount = 0
    /// Every location request the processes sent the daemon, in the order it received them
    /// (`RunRecord.locationRequests`).
    package private(set) var locationRequests: [LocationRequest] = []
    /// The daemon's `processChanged` and `requests` deliveries, in trace order.
    public private(set) var daemonRecords: [DaemonRecord] = []
    /// Uploads sent and completed, in trace order.
    public private(set) var uploads: [UploadRecord] = []
    /// Every upload request the network received (not the system's background transfers), in
    /// trace order: what `uploaded-once` reads to learn which batch a completion answered.
    public private(set) var uploadsSent: [UploadSent] = []
    /// Deliveries out of time order, in trace order.
    public private(set) var outOfOrder: [OutOfOrder] = []
    /// When the last upload request began (the network's `begin` timer), if any did.
    public private(set) var lastUploadBegun: Instant?
    /// When the app last handed an upload to the system's background transfer service
    /// (R-H5), if it ever did.
    public private(set) var lastBackgroundUploadHandedOver: Instant?
    /// Locations with a fix delivered to the app's actor (whether or not its code saw them).
    public private(set) var fixesProduced = 0
    /// Fix epochs of the daemon's GNSS (its `fix` timer).
    public private(set) var gnssEpochs: Int64 = 0
    private var latest = Instant.start

    public init() {}

    /// The digest of every delivery of `trace`, in order (a record made from parts).
    package init(_ trace: MemoryTrace<WorldMessage>) {
        for record in trace.records {
            add(instant: record.instant, actor: record.actor, message: record.message)
        }
    }

    /// The requests of a `DaemonMessage.requests(start:count:generation:)`, in order.
    package func requests(start: Int, count: Int32) -> ArraySlice<LocationRequest> {
        locationRequests[start..<start + Int(count)]
    }

    /// Folds in the next delivery of the trace.
    package mutating func add(instant: Instant, actor: ActorID, message: WorldMessage) {
        let index = deliveryCount
        deliveryCount += 1
        if instant < latest {
            outOfOrder.append(
                OutOfOrder(
                    traceIndex: index, instant: instant, previous: latest,
                    message: message.description))
        }
        if instant > latest { latest = instant }
        // The case alone first, which reads it in place; a payload is bound (copied) only for
        // the deliveries counted by it.
        switch message {
        case .processChanged(let state, let generation, let cause):
            if actor.index == WorldActors.daemonIndex {
                daemonRecords.appendGrowingGently(
                    DaemonRecord(
                        traceIndex: index, instant: instant,
                        message: .processChanged(state, generation: generation, cause: cause)))
            }
        case .requests(let batch, let generation):
            if actor.index == WorldActors.daemonIndex {
                let start = locationRequests.count
                for request in batch {
                    locationRequests.appendGrowingGently(
                        LocationRequest(
                            instant: instant, traceIndex: index, generation: generation,
                            request: request))
                }
                daemonRecords.appendGrowingGently(
                    DaemonRecord(
                        traceIndex: index, instant: instant,
                        message: .requests(
                            start: start, count: Int32(clamping: batch.count),
                            generation: Int32(clamping: generation))))
            }
        case .daemonTimer(.fix):
            if actor.index == WorldActors.daemonIndex { gnssEpochs += 1 }
        case .networkTimer(.begin):
            lastUploadBegun = instant
        case .backgroundUpload:
            lastBackgroundUploadHandedOver = instant
        case .deliver(.location(let update), _, _, _):
            if actor.index == WorldActors.appIndex, update.fix != nil { fixesProduced += 1 }
        case .deliver(.uploadCompleted, _, _, _):
            if actor.index == WorldActors.appIndex {
                uploads.append(UploadRecord(traceIndex: index, instant: instant, completed: true))
            }
        case .upload(let request, let generation):
            if actor.index == WorldActors.networkIndex {
                uploads.append(UploadRecord(traceIndex: index, instant: instant, completed: false))
                uploadsSent.append(
                    UploadSent(
                        instant: instant, generation: generation, task: request.task,
                        key: request.batch.key))
            }
        default:
            break
        }
    }
}
