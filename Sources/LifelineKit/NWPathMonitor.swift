// The Network framework's `NWPathMonitor` with Apple's names (layer 4): whether the network is
// up, told to the app's handler on its queue, driven by the world's network (R-N47).
import Simulation
import World

/// `NWPath`: the network path a monitor reports. Only `status` is modelled (the world's
/// network has one interface); `isExpensive` and `isConstrained` read false.
public struct NWPath: Sendable, Equatable, CustomDebugStringConvertible {
    /// `NWPath.Status`.
    public enum Status: Sendable, Equatable, Hashable {
        /// The network is up (the world's network is up or slow).
        case satisfied
        /// The network is down.
        case unsatisfied
        /// A connection would bring it up (VPN on demand): never reported by the world.
        case requiresConnection
    }

    /// `status`.
    public let status: Status
    /// `isExpensive`: false (cellular is not modelled).
    public var isExpensive: Bool { false }
    /// `isConstrained`: false (Low Data Mode is not modelled).
    public var isConstrained: Bool { false }

    init(status: Status) { self.status = status }

    public var debugDescription: String { "\(status)" }
}

/// `NWPathMonitor`: `init()`, `pathUpdateHandler`, `start(queue:)`, `currentPath`, `queue`,
/// `cancel()`. Once started in a simulated process, its handler runs on the given queue with
/// the path as the world's network stands, soon after the start, then at every change of the
/// network between down and up (R-N47): `networkDown` makes it `.unsatisfied`, `networkUp`
/// and `networkSlow` `.satisfied`. A change while the app is suspended reaches it when it runs
/// again; a monitor dies with its process, and one made in a relaunched process starts anew.
/// The server's condition plays no part: a path is about the network, not the server.
/// `currentPath` reads `.unsatisfied` until the first report (an assumption: Apple documents
/// no value before it). Started outside a simulated process, it never reports.
public final class NWPathMonitor: @unchecked Sendable {
    /// `pathUpdateHandler`: run on `queue` with each new path.
    public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
    /// `currentPath`: the path last reported.
    public private(set) var currentPath = NWPath(status: .unsatisfied)
    /// `queue`: the queue given to `start(queue:)`, nil before.
    public private(set) var queue: DispatchQueue?
    /// The world's watcher, while started.
    private var watcher: ObjectID?
    private weak var services: LocationServices?

    /// `init()`: a monitor of every interface.
    public init() {}

    /// `start(queue:)`: starts the monitor (once; a second call does nothing).
    public func start(queue: DispatchQueue) {
        guard self.queue == nil else { return }
        self.queue = queue
        guard let services = ProcessScope.current?.services else { return }
        self.services = services
        watcher = services.watchNetworkPath { [weak self] satisfied in
            self?.report(NWPath(status: satisfied ? .satisfied : .unsatisfied))
        }
    }

    /// `cancel()`: the handler never runs again.
    public func cancel() {
        if let watcher { services?.stopWatchingNetworkPath(watcher) }
        watcher = nil
    }

    /// The world told the new path: it becomes `currentPath`, and the handler runs on `queue`.
    private func report(_ path: NWPath) {
        currentPath = path
        guard let queue, let handler = pathUpdateHandler else { return }
        queue.async { handler(path) }
    }
}
