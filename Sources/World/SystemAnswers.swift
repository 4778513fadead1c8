// The system's answers to the app's asynchronous questions (layer 3): a request the app makes
// with a completion handler, which iOS calls later, through the app's main queue.
import Simulation

/// What the system answered to one of the app's requests that take a completion handler:
/// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` and
/// `BGTaskScheduler.getPendingTaskRequests(completionHandler:)`. Delivered through the app's
/// mailbox like every callback (it runs only while the process runs, and dies with it).
public enum SystemAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The temporary full accuracy request completed.
    case temporaryFullAccuracy(TemporaryFullAccuracyOutcome)
    /// The app refresh and processing requests submitted and not yet run
    /// (`getPendingTaskRequests`), app refreshes first.
    case pendingTaskRequests([PendingTaskRequest])
    /// Whether the network is up, for a network path watcher (`NWPathMonitor`, R-N47): sent
    /// when it starts and at every change, not once.
    case networkPath(satisfied: Bool)

    public var description: String {
        switch self {
        case .networkPath(let satisfied): "network path \(satisfied ? "satisfied" : "unsatisfied")"
        case .temporaryFullAccuracy(let outcome): "temporary full accuracy \(outcome.rawValue)"
        case .pendingTaskRequests(let requests):
            "pending task requests [\(requests.map(\.description).joined(separator: ", "))]"
        }
    }
}

/// How a temporary full accuracy request ended. The prompt shows only with reduced accuracy,
/// to an app in the foreground, with no other prompt on screen (`SystemAnswer`; Apple's header
/// names the first two conditions, the third is an assumption: docs/lifelinekit.md,
/// "Answers that come later"); then the user grants full accuracy or declines
/// (`AuthorizationAnswers.temporaryFullAccuracy`).
public enum TemporaryFullAccuracyOutcome: String, Sendable, Equatable {
    /// No prompt showed: Apple's completion gets an error.
    case notShown = "not shown"
    /// The user granted full accuracy, for this process: the completion gets nil.
    case granted
    /// The user declined: the completion gets nil too (the prompt was shown).
    case declined
}

/// A `BGTaskScheduler` request the system holds and has not run (R-H1, R-H10): a copy, as
/// `getPendingTaskRequests` hands the app copies of its requests.
public struct PendingTaskRequest: Sendable, Equatable, CustomStringConvertible {
    /// Which request class it is, with the processing request's requirements.
    public enum Kind: Sendable, Equatable {
        /// `BGAppRefreshTaskRequest`.
        case appRefresh
        /// `BGProcessingTaskRequest` with its requirements.
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)
    }
    /// The task identifier the request was submitted with.
    public var identifier: String
    /// The request class and its requirements.
    public var kind: Kind
    /// The request's `earliestBeginDate` as submitted; nil when it had none ("no start delay").
    public var earliestBegin: Instant?

    package init(identifier: String, kind: Kind, earliestBegin: Instant?) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
    }

    public var description: String {
        let begin = earliestBegin.map { " earliest \($0)" } ?? ""
        return switch kind {
        case .appRefresh: "app refresh \(identifier)\(begin)"
        case .processing: "processing \(identifier)\(begin)"
        }
    }
}

extension LocationServices {
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` (ios-facts:
    /// Reduced accuracy): as `requestTemporaryFullAccuracy(purposeKey:)`, and `completion` runs
    /// once the request completes: with nil after the user answered the prompt (accuracy is
    /// then full if granted), or with `.promptDeclined` at once when no prompt could show
    /// (`TemporaryFullAccuracyOutcome.notShown`). It never runs if the process ends first.
    public func requestTemporaryFullAccuracy(
        purposeKey: String, completion: @escaping (LocationError?) -> Void
    ) {
        let request = awaitAnswer { answer in
            guard case .temporaryFullAccuracy(let outcome) = answer else { return }
            completion(outcome == .notShown ? .promptDeclined : nil)
        }
        record(.requestTemporaryFullAccuracy(purposeKey: purposeKey, answer: request))
    }

    /// `BGTaskScheduler.getPendingTaskRequests(completionHandler:)`: `completion` runs, in a
    /// later callback, with the app refresh and processing requests the system holds and has not
    /// run, whichever process submitted them (they belong to the system, R-H1).
    public func getPendingTaskRequests(
        completion: @escaping ([PendingTaskRequest]) -> Void
    ) {
        let request = awaitAnswer { answer in
            guard case .pendingTaskRequests(let requests) = answer else { return }
            completion(requests)
        }
        record(.getPendingTaskRequests(answer: request))
    }
}
