// Everything delivered in a world simulation (layer 3): user actions, what the app asks, what
// the operating system and the location daemon tell each other and the app, and their timers.
import Simulation

/// What the person holding the phone, or the system around it, does.
public enum UserAction: Sendable, Equatable, CustomStringConvertible {
    /// Opens the app (launch, or return to it).
    case open
    /// Leaves the app (home gesture, another app).
    case leave
    case lock
    case unlock
    /// Swipes the app away in the app switcher.
    case forceQuit
    /// The system needs memory (purges a suspended app, R-F3).
    case memoryPressure
    case crash
    /// The process exits on its own (a test host at the end of its test).
    case exit
    case reboot
    case setAuthorization(Authorization)
    case setAccuracy(AccuracyAuthorization)
    /// XCTest hosting the app keeps its process running in the background (source A's setup).
    case attachTestHost(Bool)

    public var description: String {
        switch self {
        case .open: "open"
        case .leave: "leave"
        case .lock: "lock"
        case .unlock: "unlock"
        case .forceQuit: "force-quit"
        case .memoryPressure: "memory-pressure"
        case .crash: "crash"
        case .exit: "exit"
        case .reboot: "reboot"
        case .setAuthorization(let value): "authorization \(value.rawValue)"
        case .setAccuracy(let value): "accuracy \(value.rawValue)"
        case .attachTestHost(let value): "test-host \(value)"
        }
    }
}

/// The operating system's timers.
public enum OSTimer: Sendable, Equatable {
    case enterBackground(generation: Int)
    case suspend(generation: Int)
    case wakeRuntimeEnded(generation: Int)
    case relaunch(RelaunchMechanism)
    case backgroundTaskExpired(ObjectID, generation: Int)
    case backgroundTaskWatchdog(ObjectID, generation: Int)
}

/// The location daemon's timers.
public enum DaemonTimer: Sendable, Equatable {
    case fix
    case motionResumes
    case graceEnded(generation: Int)
    case deniedSignal(ObjectID, generation: Int)
    case significantChange
    case conditionExit(monitor: String, condition: String)
    case visit
    case pendingEventsExpired(generation: Int)
}

/// Every message of a world simulation. Messages to the app carry the process generation they
/// were meant for; a later process ignores them.
public enum WorldMessage: Sendable, CustomStringConvertible {
    // The scenario to the operating system.
    case user(UserAction)
    // The app process to the location daemon and the operating system.
    case requests([AppRequest], generation: Int)
    case processCrashed(reason: String, generation: Int)
    // The operating system to the location daemon.
    case processChanged(ProcessState, generation: Int, cause: TerminationCause?)
    case authorizationChanged(Authorization, AccuracyAuthorization)
    case deviceBooted
    case firstUnlock
    // The location daemon to the operating system.
    case keepAlive(Bool)
    case wake(RelaunchMechanism)
    case registered(generation: Int)
    // The operating system to the app.
    case launch(LaunchContext, generation: Int)
    case lifecycle(ProcessState, generation: Int)
    case kill(TerminationCause, generation: Int)
    case protectedDataAvailable(generation: Int)
    case authorization(Authorization, generation: Int)
    case backgroundTaskExpiring(ObjectID, generation: Int)
    // The location daemon to the app.
    case location(LocationUpdate, generation: Int)
    case failure(LocationError, ObjectID, generation: Int)
    case event(MonitoringEvent, generation: Int)
    // Timers.
    case osTimer(OSTimer)
    case daemonTimer(DaemonTimer)

    public var description: String {
        switch self {
        case .user(let action): "user \(action)"
        case .requests(let requests, let generation): "requests \(requests) (process \(generation))"
        case .processCrashed(let reason, let generation):
            "crashed (process \(generation)): \(reason)"
        case .processChanged(let state, let generation, let cause):
            "process \(generation) \(state.rawValue)\(cause.map { " (\($0.rawValue))" } ?? "")"
        case .authorizationChanged(let authorization, let accuracy):
            "authorization \(authorization.rawValue) \(accuracy.rawValue)"
        case .deviceBooted: "device booted"
        case .firstUnlock: "first unlock"
        case .keepAlive(let keeps): "keep alive \(keeps)"
        case .wake(let mechanism): "wake for \(mechanism.rawValue)"
        case .registered(let generation): "registered (process \(generation))"
        case .launch(let context, let generation):
            "launch process \(generation) \(context.state.rawValue) data \(context.protectedDataAvailable ? "readable" : "locked") options \(context.launchOptions)"
        case .lifecycle(let state, let generation):
            "lifecycle \(state.rawValue) (process \(generation))"
        case .kill(let cause, let generation): "kill process \(generation) (\(cause.rawValue))"
        case .protectedDataAvailable(let generation):
            "protected data available (process \(generation))"
        case .authorization(let value, let generation):
            "authorization \(value.rawValue) (process \(generation))"
        case .backgroundTaskExpiring(let task, let generation):
            "background task \(task) expiring (process \(generation))"
        case .location(let update, let generation): "\(update) (process \(generation))"
        case .failure(let error, let manager, let generation):
            "manager \(manager) failed: \(error.rawValue) (process \(generation))"
        case .event(let event, let generation): "\(event) (process \(generation))"
        case .osTimer(let timer): "os timer \(timer)"
        case .daemonTimer(let timer): "daemon timer \(timer)"
        }
    }
}
