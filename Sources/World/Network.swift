// The network and the server behind it (layer 3): what an upload request meets between the app
// and the server, and what the server accepted, read by tests and invariants.
import Simulation

/// One upload request of a process, numbered from 1 within the process, like a
/// `URLSessionTask`'s `taskIdentifier`.
public struct UploadTaskID: Hashable, Sendable, CustomStringConvertible {
    package var value: Int
    package init(_ value: Int) { self.value = value }
    public var description: String { "upload task \(value)" }
}

/// What identifies a batch on the server: the store position of its first row and the number of
/// rows. The same rows always make the same key, so the server accepts a retried batch once
/// (an idempotency key).
public struct UploadBatchKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The index in the store's committed rows of the batch's first row.
    public var firstRowIndex: Int
    public var rowCount: Int

    public init(firstRowIndex: Int, rowCount: Int) {
        self.firstRowIndex = firstRowIndex
        self.rowCount = rowCount
    }

    public static func < (lhs: UploadBatchKey, rhs: UploadBatchKey) -> Bool {
        (lhs.firstRowIndex, lhs.rowCount) < (rhs.firstRowIndex, rhs.rowCount)
    }

    public var description: String { "batch \(firstRowIndex)+\(rowCount)" }
}

/// Rows of the app's store sent to the server in one request, under their key.
public struct UploadBatch: Sendable, Equatable, CustomStringConvertible {
    /// What names the batch (in the trace, the server's records and violations).
    public var key: UploadBatchKey
    public var rows: [StoredRow]
    /// Whether the request sends `key` to the server as its idempotency key (an
    /// `Idempotency-Key` header). Without one the server cannot tell a retry from a new batch:
    /// a retry after a lost answer is stored again (`UploadServer`, R-S2).
    public var carriesIdempotencyKey: Bool

    public init(key: UploadBatchKey, rows: [StoredRow], carriesIdempotencyKey: Bool = true) {
        self.key = key
        self.rows = rows
        self.carriesIdempotencyKey = carriesIdempotencyKey
    }

    public var description: String { carriesIdempotencyKey ? "\(key)" : "\(key) without key" }
}

/// Whether the app's server deduplicates requests by their idempotency key: a fact of the
/// team's server, declared once in the app's profile (`AppProfile.serverDeduplication`) and
/// fixed for every run (`WorldConfiguration.serverDeduplication`). R-S2.
public enum ServerDeduplication: String, Sendable, Equatable, CaseIterable {
    /// A request whose idempotency key the server already holds is answered "already have it"
    /// and stored once (the default).
    case byKey = "deduplicates-by-key"
    /// Every request that reaches the server is stored, whatever its key: a retry after a lost
    /// answer is stored twice.
    case storesEveryRequest = "stores-every-request"
}

/// Why an upload request did not reach its end, named like `URLError`'s codes; a cancellation
/// names the rule that cancels it.
public enum UploadError: Sendable, Equatable, CustomStringConvertible {
    /// The network was down when the request began (`notConnectedToInternet`).
    case notConnectedToInternet
    /// The network went down, or failed, while the request was in flight: the server may or
    /// may not have accepted the batch (`networkConnectionLost`).
    case networkConnectionLost
    /// The request never reached the server (`timedOut`).
    case timedOut
    /// The process was suspended outside a background task (R-D13) or ended (R-A1, R-F3)
    /// while the request was in flight: it did not reach the server.
    case cancelled(DropReason)
    /// The app cancelled the background transfer before it reached the server
    /// (`URLSessionTask.cancel()`): it never reaches the server.
    case cancelledByApp

    public var description: String {
        switch self {
        case .notConnectedToInternet: "not connected to the internet"
        case .networkConnectionLost: "network connection lost"
        case .timedOut: "timed out"
        case .cancelled(let reason): "cancelled: \(reason)"
        case .cancelledByApp: "cancelled by the app"
        }
    }
}

/// How an upload request ended, as the app's `didCompleteUpload` is told.
public enum UploadResult: Sendable, Equatable, CustomStringConvertible {
    /// The server holds the batch; `alreadyAccepted` when an earlier request had delivered it.
    case accepted(alreadyAccepted: Bool)
    case failed(UploadError)
    /// The server answered and stored nothing: a refusal of an upload (503, 429, 500;
    /// R-N41–R-N43, R-N46) or the answer to a fetch (R-N45).
    case answered(ServerAnswer)

    public var description: String {
        switch self {
        case .accepted(let again): again ? "accepted (already held)" : "accepted"
        case .failed(let error): "failed: \(error)"
        case .answered(let answer): "answered \(answer)"
        }
    }
}

/// One upload request as the app process sends it to the network: the task, its batch, and how
/// long the network waits before beginning it (`URLSessionTask.earliestBeginDate`, as a delay).
package struct UploadRequest: Sendable, Equatable, CustomStringConvertible {
    package var task: UploadTaskID
    /// The rows it sends (none for a fetch).
    package var batch: UploadBatch
    package var earliestBeginDelay: VirtualDuration
    /// The path a fetch (`GET`) asks for, nil for an upload (R-N45).
    package var fetchPath: String? = nil

    package var description: String {
        (fetchPath.map { "\(task) fetch \($0)" } ?? "\(task) \(batch)")
            + (earliestBeginDelay == .zero ? "" : " after \(earliestBeginDelay)")
    }
}

/// The state of the network, set by scenario actions.
package enum NetworkCondition: Sendable, Equatable, CustomStringConvertible {
    /// Requests take `uploadLatency`.
    case up
    /// A request fails at once (`notConnectedToInternet`); one in flight is lost when it would
    /// have reached the server (`networkConnectionLost`).
    case down
    /// Requests take `uploadLatency` plus this.
    case slow(VirtualDuration)

    package var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .slow(let extra): "slow (+\(extra))"
        }
    }
}

/// The network's timers: a request due to begin, and a request due to reach the server.
package enum NetworkTimer: Sendable, Equatable, CustomStringConvertible {
    case begin(UploadTaskID, generation: Int)
    case arrive(UploadTaskID, generation: Int)
    /// A background transfer's earliest begin date (and discretionary delay) came (R-H9).
    case backgroundBegin(BackgroundTransferID)
    /// A background transfer reaches the server (R-H5).
    case backgroundArrive(BackgroundTransferID)

    package var description: String {
        switch self {
        case .begin(let task, let generation): "begin \(task) (process \(generation))"
        case .arrive(let task, let generation): "\(task) reaches the server (process \(generation))"
        case .backgroundBegin(let task): "begin \(task)"
        case .backgroundArrive(let task): "\(task) reaches the server"
        }
    }
}

/// The network between the app and its server, and the server, as one actor.
///
/// The server answers what reaches it as its condition says (`ServerCondition`, set by the
/// scenario's `server …` actions, and `serverErrorPercent`, R-N40–R-N46): it stores the batch
/// and answers 200, or refuses (503, 429, 500) and stores nothing; a fetch stores nothing and
/// is answered from `serverResources` (R-N45). An app process that watches the network path
/// (`NWPathMonitor`) is told whether the network is up, then at every change (R-N47).
///
/// A request begins after its `earliestBeginDelay`. If the network is down then, it fails at
/// once. Otherwise it reaches the server `uploadLatency` later (plus the extra latency of a slow
/// network), where the server accepts its batch, and the answer comes back at that instant. With
/// `networkFailurePercent` above 0, each request fails with that chance, drawn from the
/// network's own stream (`Seed.derive("network")`; a draw of 0 is the quiet answer, success):
/// half of the failures lose the request before the server (`timedOut`), half lose the answer
/// after the server accepted (`networkConnectionLost`), which only an idempotent key makes safe
/// to retry. A request still in flight when the network goes down is lost at its arrival.
///
/// The app process cancels the requests of a process that is suspended outside a background
/// task (R-D13) or ends (R-A1): a cancelled request never reaches the server, and its
/// completion goes back through the app's mailbox with the reason (held for a suspended
/// process, dropped for an ended one). Every answer reaches the app's code through its mailbox.
///
/// The actor also runs the system's background transfer service (`BackgroundTransfers.swift`,
/// R-H5–R-H9): background `URLSession` uploads, which outlive the app's processes, reach the
/// same server, and whose ends go to the operating system.
final class Network: SimulationActor {
    let policy: IOSPolicy
    let app: ActorID
    /// The operating system, told of background transfers' ends (R-H6).
    let operatingSystem: ActorID
    /// The system's background transfer service (`BackgroundTransfers.swift`, R-H5–R-H9).
    var backgroundTransfers = BackgroundTransferService()
    /// The operating system asked to be told whether the network is up (R-H10).
    var networkWatched = false
    private var random: Xoshiro256StarStar
    /// The server's own stream: its 500s (R-N42), apart from the network's draws.
    var serverRandom: Xoshiro256StarStar
    private(set) var condition = NetworkCondition.up
    /// The server's condition (R-N40–R-N44).
    private(set) var serverCondition = ServerCondition.up
    /// What the server serves to a fetch (R-N45).
    let serverResources: [ServerResource]
    /// The app process asked to be told whether the network is up (`NWPathMonitor`, R-N47).
    var pathWatched = false
    private(set) var server: UploadServer

    /// A request the network holds: waiting to begin, or on its way to the server.
    private struct Pending {
        var request: UploadRequest
        var generation: Int
        var timer: EventHandle
        /// Drawn when it begins: how it fails, if it does.
        var failure: UploadError?
    }
    // invariant: in the order received; at most one entry per (generation, task)
    private var pending: [Pending] = []

    /// The failure chances are drawn out of this many.
    private static let percentScale: UInt64 = 100
    /// The two ways a failing request fails, drawn with equal chance.
    private static let failureKinds: [UploadError] = [.timedOut, .networkConnectionLost]

    init(
        policy: IOSPolicy, app: ActorID, operatingSystem: ActorID, seed: Seed,
        deduplication: ServerDeduplication = .byKey, fixArchive: FixArchive,
        serverResources: [ServerResource] = []
    ) {
        self.policy = policy
        self.app = app
        self.operatingSystem = operatingSystem
        self.serverResources = serverResources
        server = UploadServer(deduplication: deduplication, fixArchive: fixArchive)
        random = Xoshiro256StarStar(seed: seed)
        serverRandom = Xoshiro256StarStar(seed: seed.derive("server"))
    }

    func receive(_ message: WorldMessage, context: inout Scheduler<WorldMessage>) {
        switch message {
        case .user(.networkDown):
            condition = .down
            reportNetworkCondition(&context)
        case .user(.networkUp):
            condition = .up
            resumeWaitingBackgroundTransfers(&context)
            reportNetworkCondition(&context)
        case .user(.networkSlow(let extra)):
            condition = .slow(extra)
            resumeWaitingBackgroundTransfers(&context)
            reportNetworkCondition(&context)
        case .user(.serverDown): serverCondition = .down
        case .user(.serverUp): serverCondition = .up
        case .user(.serverSlow(let extra)): serverCondition = .slow(extra)
        case .user(.serverThrottling(let retryAfter)): serverCondition = .throttling(retryAfter)
        case .watchNetwork: watchNetwork(&context)
        case .watchNetworkPath: watchNetworkPath(&context)
        case .backgroundUpload(let request): receiveBackgroundUpload(request, &context)
        case .cancelBackgroundTransfers(let cancellation):
            cancelBackgroundTransfers(cancellation, &context)
        case .networkTimer(let timer) where timer.isBackgroundTransferTimer:
            backgroundTimer(timer, &context)
        case .upload(let request, let generation):
            if request.earliestBeginDelay == .zero {
                begin(request, generation: generation, &context)
            } else {
                let timer = context.setTimer(
                    after: request.earliestBeginDelay,
                    .networkTimer(.begin(request.task, generation: generation)))
                pending.append(Pending(request: request, generation: generation, timer: timer))
            }
        case .networkTimer(.begin(let task, let generation)):
            guard let index = index(of: task, generation) else { return }
            let request = pending.remove(at: index).request
            begin(request, generation: generation, &context)
        case .networkTimer(.arrive(let task, let generation)):
            guard let index = index(of: task, generation) else { return }
            arrive(pending.remove(at: index), &context)
        case .cancelUploads(let generation, let reason):
            let cancelled = pending.filter { $0.generation == generation }
            pending.removeAll { $0.generation == generation }
            for request in cancelled {
                context.cancel(request.timer)
                complete(
                    request.request.task, request.generation, .failed(.cancelled(reason)), &context)
            }
        default: break
        }
    }

    /// What the server does with `request` arriving at `instant` (a request of the app's
    /// process, or a background transfer's, R-H5): answers without storing (`refusal(of:)`),
    /// or stores its batch (true in `alreadyAccepted` when it held its key).
    func serve(_ request: UploadRequest, at instant: Instant) -> UploadResult {
        if let answer = refusal(of: request) { return .answered(answer) }
        return .accepted(alreadyAccepted: server.accept(request.batch, at: instant))
    }

    private func index(of task: UploadTaskID, _ generation: Int) -> Int? {
        pending.firstIndex { $0.request.task == task && $0.generation == generation }
    }

    private func begin(
        _ request: UploadRequest, generation: Int, _ context: inout Scheduler<WorldMessage>
    ) {
        let latency: VirtualDuration
        switch condition {
        case .down:
            return complete(request.task, generation, .failed(.notConnectedToInternet), &context)
        case .up: latency = policy.uploadLatency + serverExtraLatency
        case .slow(let extra): latency = policy.uploadLatency + extra + serverExtraLatency
        }
        var failure: UploadError?
        if policy.networkFailurePercent > 0 {
            let draw = random.nextBounded(below: Self.percentScale)
            if draw >= Self.percentScale - UInt64(policy.networkFailurePercent) {
                let kind = random.nextBounded(below: UInt64(Self.failureKinds.count))
                failure = Self.failureKinds[Int(kind)]
            }
        }
        let timer = context.setTimer(
            after: latency, .networkTimer(.arrive(request.task, generation: generation)))
        pending.append(
            Pending(request: request, generation: generation, timer: timer, failure: failure))
    }

    private func arrive(_ request: Pending, _ context: inout Scheduler<WorldMessage>) {
        let result: UploadResult
        if condition == .down {
            result = .failed(.networkConnectionLost)
        } else if request.failure == .timedOut {
            result = .failed(.timedOut)
        } else {
            let served = serve(request.request, at: context.now)
            result = request.failure.map { .failed($0) } ?? served
        }
        complete(request.request.task, request.generation, result, &context)
    }

    /// The answer goes to the process that asked, through its mailbox.
    private func complete(
        _ task: UploadTaskID, _ generation: Int, _ result: UploadResult,
        _ context: inout Scheduler<WorldMessage>
    ) {
        context.send(
            .deliver(
                .uploadCompleted(task, result), generation: generation, withheld: nil, boot: nil),
            to: app
        )
    }
}
