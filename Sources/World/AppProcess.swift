// The app's process as an actor (layer 3): makes a fresh engine at every launch, hands it what
// the system delivers, sends its requests on, and logs what the app saw.
import Simulation

/// One thing the app saw or did, with the instant and the process's state then.
public struct AppLogEntry: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case launch(LaunchContext)
        case lifecycle(ProcessState)
        case location(LocationUpdate)
        case failure(LocationError, ObjectID)
        case event(MonitoringEvent)
        case crashed(String)
        case killed(TerminationCause)
        case protectedDataAvailable
    }

    public var instant: Instant
    /// The process generation (1 for the first launch).
    public var generation: Int
    /// The app's state as UIKit would report it (foreground or background while running).
    public var appState: ProcessState
    public var kind: Kind

    public var description: String {
        "\(instant) process \(generation) \(appState.rawValue): \(kind)"
    }
}

/// The app under test as the operating system runs it.
///
/// A launch creates a new engine (nothing in memory survives the process); callbacks are
/// delivered only to the process they were meant for; the engine's requests go to the daemon
/// and the operating system in order, after the callback; an Info.plist assertion in a call
/// ends the process at once (R-A9).
final class AppProcess: SimulationActor {
    private let makeEngine: () -> any AppEngine
    private let capabilities: AppCapabilities
    private let os: ActorID
    private let daemon: ActorID
    private var engine: (any AppEngine)?
    private var generation = 0
    private var state = ProcessState.notRunning
    /// The services the current process's engine calls (one per process: object ids count on).
    private var services: LocationServices?
    /// Everything the app saw, in order.
    private(set) var log: [AppLogEntry] = []

    init(
        makeEngine: @escaping () -> any AppEngine, capabilities: AppCapabilities, os: ActorID,
        daemon: ActorID
    ) {
        self.makeEngine = makeEngine
        self.capabilities = capabilities
        self.os = os
        self.daemon = daemon
        log.reserveCapacity(Self.logCapacityReserved)
    }

    /// Entries reserved up front: a tracked day logs about 7,000, and growing by doubling
    /// from nothing cost a tenth of a day's simulation in copies and page faults.
    static let logCapacityReserved = 8_192

    func receive(_ message: WorldMessage, context: inout Scheduler<WorldMessage>) {
        switch message {
        case .launch(let launch, let generation):
            self.generation = generation
            state = launch.state
            services = LocationServices(capabilities: capabilities, nextObjectID: 1)
            engine = makeEngine()
            record(.launch(launch), context.now)
            call(&context) { $0.didLaunch(launch, services: $1) }
        case .kill(let cause, let generation)
        where generation == self.generation && state != .terminated:
            record(.killed(cause), context.now)
            engine = nil
            state = .terminated
        default:
            guard engine != nil, let generation = message.appGeneration,
                generation == self.generation
            else { return }
            deliver(message, &context)
        }
    }

    private func deliver(_ message: WorldMessage, _ context: inout Scheduler<WorldMessage>) {
        switch message {
        case .lifecycle(let newState, _):
            state = newState
            record(.lifecycle(newState), context.now)
            call(&context) { $0.lifecycleChanged(to: newState, services: $1) }
        case .location(let update, _):
            record(.location(update), context.now)
            call(&context) { $0.didReceive(update, services: $1) }
        case .failure(let error, let manager, _):
            record(.failure(error, manager), context.now)
            call(&context) { $0.didFail(error, manager: manager, services: $1) }
        case .event(let event, _):
            record(.event(event), context.now)
            call(&context) { $0.didReceive(event, services: $1) }
        case .authorization(let authorization, _):
            call(&context) { $0.authorizationChanged(to: authorization, services: $1) }
        case .protectedDataAvailable:
            record(.protectedDataAvailable, context.now)
            call(&context) { $0.protectedDataDidBecomeAvailable(services: $1) }
        case .backgroundTaskExpiring(let task, _):
            call(&context) { $0.backgroundTaskWillExpire(task, services: $1) }
        default: break
        }
    }

    /// Runs one engine callback and sends what it asked for; an assertion ends the process.
    private func call(
        _ context: inout Scheduler<WorldMessage>, _ body: (any AppEngine, LocationServices) -> Void
    ) {
        guard let engine, let services else { return }
        body(engine, services)
        if !services.requests.isEmpty {
            // Background tasks are the operating system's; everything else is the daemon's.
            let tasks = services.requests.filter(\.isBackgroundTaskRequest)
            let location = services.requests.filter { !$0.isBackgroundTaskRequest }
            if !location.isEmpty {
                context.send(.requests(location, generation: generation), to: daemon)
            }
            if !tasks.isEmpty { context.send(.requests(tasks, generation: generation), to: os) }
            services.clearRequests()
        }
        if let reason = services.crashReason {
            record(.crashed(reason), context.now)
            self.engine = nil
            context.send(.processCrashed(reason: reason, generation: generation), to: os)
        }
    }

    private func record(_ kind: AppLogEntry.Kind, _ instant: Instant) {
        log.append(
            AppLogEntry(instant: instant, generation: generation, appState: state, kind: kind))
    }
}

extension WorldMessage {
    /// The process generation a message to the app is meant for.
    var appGeneration: Int? {
        switch self {
        case .lifecycle(_, let generation), .location(_, let generation),
            .failure(_, _, let generation),
            .event(_, let generation), .authorization(_, let generation),
            .protectedDataAvailable(let generation),
            .backgroundTaskExpiring(_, let generation):
            generation
        default: nil
        }
    }
}
