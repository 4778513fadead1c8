// The system's answers to the app's asynchronous questions (layer 3): a request the app makes
// with a completion handler, which iOS calls later, through the app's main queue.
import Simulation

/// What the system answered to one of the app's requests that take a completion handler:
/// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` and
/// `BGTaskScheduler.getPendingTaskRequests(completionHandler:)`. Delivered through the app's
/// mailbox like every callback (it runs only while the process runs, and dies with it).
public enum SystemAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The temporary full accuracy request completed: the prompt was shown (and the user
    /// granted full accuracy or not), or it could not be shown (the app was not in the
    /// foreground, another prompt was on screen, or accuracy was already full). Apple's
    /// completion gets nil when the prompt was shown, an error when it was not.
    case temporaryFullAccuracy(shown: Bool, granted: Bool)
    /// The app refresh and processing requests submitted and not yet run, in the order
    /// submitted (`getPendingTaskRequests`).
    case pendingTaskRequests([PendingTaskRequest])

    public var description: String {
        switch self {
        case .temporaryFullAccuracy(let shown, let granted):
            !shown
                ? "temporary full accuracy prompt not shown"
                : "temporary full accuracy \(granted ? "granted" : "declined")"
        case .pendingTaskRequests(let requests):
            "pending task requests [\(requests.map(\.description).joined(separator: ", "))]"
        }
    }
}

/// A `BGTaskScheduler` request the system holds and has not run (R-H1, R-H10): a copy, as
/// `getPendingTaskRequests` hands the app copies of its requests.
public struct PendingTaskRequest: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// `BGAppRefreshTaskRequest`.
        case appRefresh
        /// `BGProcessingTaskRequest` with its requirements.
        case processing(requiresNetworkConnectivity: Bool, requiresExternalPower: Bool)
    }
    public var identifier: String
    public var kind: Kind
    /// The request's `earliestBeginDate` as submitted (the submission instant when it had none).
    public var earliestBegin: Instant

    public init(identifier: String, kind: Kind, earliestBegin: Instant) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBegin = earliestBegin
    }

    public var description: String {
        switch kind {
        case .appRefresh: "app refresh \(identifier) earliest \(earliestBegin)"
        case .processing: "processing \(identifier) earliest \(earliestBegin)"
        }
    }
}

extension LocationServices {
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` (ios-facts:
    /// Reduced accuracy): as `requestTemporaryFullAccuracy(purposeKey:)`, and `completion` runs
    /// once the request completes: with nil after the user answered the prompt (accuracy is
    /// then full if granted), or with `.denied` at once when the prompt could not be shown
    /// (the app not in the foreground, another prompt on screen, accuracy already full; Apple
    /// names no error code for this, see CONTRIBUTING). It never runs if the process ends
    /// first.
    public func requestTemporaryFullAccuracy(
        purposeKey: String, completion: @escaping (LocationError?) -> Void
    ) {
        let request = awaitAnswer { answer in
            guard case .temporaryFullAccuracy(let shown, _) = answer else { return }
            completion(shown ? nil : .denied)
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
