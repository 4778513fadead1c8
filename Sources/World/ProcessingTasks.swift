// BGTaskScheduler's processing requests (layer 3): the operating system runs the app in the
// background for a longer task, no earlier than its date and only when its requirements hold
// (R-H10); the network actor tells the operating system whether the network is up.
import Simulation

/// The processing requests (`BGProcessingTaskRequest`) the operating system holds (R-H10).
///
/// States of a request: `scheduled` until its earliest begin date (a timer), then `due`. A due
/// request runs (`WakeKind.processing`) once the app is not in the foreground and, when it
/// `requiresNetwork`, once the network is up. A request that `requiresPower` is never due: the
/// modelled device is never connected to external power (no action plugs it in). A request
/// belongs to the system, outlives the process, runs once, and a new request with the same
/// identifier replaces it.
struct ProcessingTasks {
    struct Request {
        var identifier: String
        var requiresNetwork: Bool
        var requiresPower: Bool
        /// The earliest begin date as submitted (the submission's instant when it had none).
        var earliestBegin: Instant
        /// The request had an `earliestBeginDate`.
        var dated: Bool
        /// The earliest begin date's timer, until it fires.
        var timer: EventHandle?
        var due = false
    }

    // invariant: in the order submitted; one per identifier
    var requests: [Request] = []
    /// Whether the network is up, as the network actor last said; nil until it is asked (the
    /// first request that requires the network).
    var networkUp: Bool?
}

extension OperatingSystem {
    /// `BGTaskScheduler.submit(_:)` of a `BGProcessingTaskRequest` (R-H10).
    func submitProcessing(
        _ identifier: String, earliestBegin: Instant, dated: Bool, requiresNetwork: Bool,
        requiresPower: Bool, _ context: inout Scheduler<WorldMessage>
    ) {
        cancelProcessing(identifier, &context)
        var request = ProcessingTasks.Request(
            identifier: identifier, requiresNetwork: requiresNetwork, requiresPower: requiresPower,
            earliestBegin: earliestBegin, dated: dated)
        if !requiresPower {
            let delay = taskRequestDue(earliestBegin: earliestBegin, now: context.now) - context.now
            request.timer = context.setTimer(
                after: delay, .osTimer(.processingDue(identifier)))
        }
        processingTasks.requests.append(request)
        if requiresNetwork && processingTasks.networkUp == nil {
            context.send(.watchNetwork, to: network)
        }
    }

    /// Cancels the processing request with `identifier`, or every one (nil).
    func cancelProcessing(_ identifier: String?, _ context: inout Scheduler<WorldMessage>) {
        for request in processingTasks.requests
        where identifier == nil || request.identifier == identifier {
            if let timer = request.timer { context.cancel(timer) }
        }
        processingTasks.requests.removeAll { identifier == nil || $0.identifier == identifier }
    }

    /// A request's earliest begin date came, or a due request may run now.
    func processingDue(_ identifier: String, _ context: inout Scheduler<WorldMessage>) {
        if let index = processingTasks.requests.firstIndex(where: { $0.identifier == identifier }) {
            processingTasks.requests[index].timer = nil
            processingTasks.requests[index].due = true
        }
        runDueProcessing(&context)
    }

    /// The network actor says whether the network is up (R-H10).
    func networkConditionChanged(up: Bool, _ context: inout Scheduler<WorldMessage>) {
        processingTasks.networkUp = up
        runDueProcessing(&context)
    }

    /// Runs the due requests whose requirements hold, in the order submitted, while the app is
    /// not in the foreground (R-H10).
    func runDueProcessing(_ context: inout Scheduler<WorldMessage>) {
        guard state != .foreground else { return }
        let runnable = processingTasks.requests.filter {
            $0.due && (!$0.requiresNetwork || processingTasks.networkUp == true)
        }
        guard !runnable.isEmpty else { return }
        processingTasks.requests.removeAll { request in
            runnable.contains { $0.identifier == request.identifier }
        }
        for request in runnable {
            beginWake(.processing(identifier: request.identifier), &context)
        }
    }

    /// The process ended: due requests run again once it has (a zero-delay timer, as a refresh
    /// that waited for the background does).
    func processingAfterTermination(_ context: inout Scheduler<WorldMessage>) {
        for request in processingTasks.requests where request.due {
            context.setTimer(after: .zero, .osTimer(.processingDue(request.identifier)))
        }
    }
}

extension Network {
    /// The operating system asked to be told whether the network is up (R-H10): now, and at
    /// every change.
    func watchNetwork(_ context: inout Scheduler<WorldMessage>) {
        networkWatched = true
        reportNetworkCondition(&context)
    }

    /// The app process asked to be told (an `NWPathMonitor` started, R-N47): it is told now,
    /// and at every change from then on.
    func watchNetworkPath(_ context: inout Scheduler<WorldMessage>) {
        pathWatched = true
        context.send(.networkCondition(up: condition != .down), to: app)
    }

    /// Tells the operating system the network's condition, if it asked to be told, and the
    /// app process, if it did.
    func reportNetworkCondition(_ context: inout Scheduler<WorldMessage>) {
        if pathWatched { context.send(.networkCondition(up: condition != .down), to: app) }
        guard networkWatched else { return }
        context.send(.networkCondition(up: condition != .down), to: operatingSystem)
    }
}
