// What the app's server answers (layer 3): its condition, set by scenario actions and the
// policy, and the answer it gives a request it received: a status, a `Retry-After` and a body.
import Simulation

/// The server's condition, set by the scenario's `server …` actions (R-N40–R-N44). It is
/// apart from the network's (`NetworkCondition`): a request that reaches a server that is down
/// gets an answer, 503, where a request on a network that is down gets none.
package enum ServerCondition: Sendable, Equatable, CustomStringConvertible {
    /// It stores what it receives and answers 200 (R-N40), but for the share of requests
    /// `IOSPolicy.serverErrorPercent` answers 500 (R-N42).
    case up
    /// Down for maintenance: every request is answered 503 with `Retry-After` (R-N41).
    case down
    /// It answers this much later than usual (R-N44).
    case slow(VirtualDuration)
    /// Every request is answered 429 with `Retry-After` of this duration (R-N43).
    case throttling(VirtualDuration)

    package var description: String {
        switch self {
        case .up: "up"
        case .down: "down"
        case .slow(let extra): "slow (+\(extra))"
        case .throttling(let retryAfter): "throttling (Retry-After \(retryAfter))"
        }
    }
}

/// A resource the server serves to a fetch (`GET` of its path, R-N45): a team's zones or
/// settings. Set in `WorldConfiguration.serverResources`.
public struct ServerResource: Sendable, Equatable {
    /// The URL path that names it (`/zones`).
    public var path: String
    /// Its body, as text.
    public var body: String

    public init(path: String, body: String) {
        self.path = path
        self.body = body
    }
}

/// The server's answer to a request it did not store (`UploadResult.answered`): a refusal of
/// an upload (503, 429, 500: R-N41–R-N43), or the answer to a fetch (200 with the resource,
/// 404 without one: R-N45). A refused upload stored nothing (R-N46).
public struct ServerAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var statusCode: Int
    /// The `Retry-After` header's delay, when the answer carries one (503, 429).
    public var retryAfter: VirtualDuration?
    /// The body, as text (empty for none).
    public var body: String

    package init(statusCode: Int, retryAfter: VirtualDuration? = nil, body: String = "") {
        precondition((100...599).contains(statusCode), "an HTTP status is 100...599")
        self.statusCode = statusCode
        self.retryAfter = retryAfter
        self.body = body
    }

    /// Whether the status is a success (2xx).
    package var isSuccess: Bool { (200...299).contains(statusCode) }

    public var description: String {
        "\(statusCode)" + (retryAfter.map { " Retry-After \($0)" } ?? "")
    }

    /// The body of a refusal: the status, as a JSON error.
    static func errorBody(_ statusCode: Int) -> String { "{\"error\":\(statusCode)}" }
}

extension Network {
    /// The server's answer to `request` when it stores nothing (a refusal, or a fetch), or nil
    /// when it stores the request's batch. A draw of the server's own stream decides a 500
    /// (R-N42), made only while `serverErrorPercent` is above 0 and the server is up.
    func refusal(of request: UploadRequest) -> ServerAnswer? {
        switch serverCondition {
        case .down:
            return ServerAnswer(
                statusCode: 503, retryAfter: policy.serverRetryAfter,
                body: ServerAnswer.errorBody(503))
        case .throttling(let retryAfter):
            return ServerAnswer(
                statusCode: 429, retryAfter: retryAfter, body: ServerAnswer.errorBody(429))
        case .up, .slow:
            if let path = request.fetchPath {
                guard let resource = serverResources.first(where: { $0.path == path }) else {
                    return ServerAnswer(statusCode: 404, body: ServerAnswer.errorBody(404))
                }
                return ServerAnswer(statusCode: 200, body: resource.body)
            }
            guard policy.serverErrorPercent > 0 else { return nil }
            let draw = serverRandom.nextBounded(below: 100)
            guard draw >= 100 - UInt64(policy.serverErrorPercent) else { return nil }
            return ServerAnswer(statusCode: 500, body: ServerAnswer.errorBody(500))
        }
    }

    /// The server's extra latency (R-N44).
    var serverExtraLatency: VirtualDuration {
        if case .slow(let extra) = serverCondition { return extra }
        return .zero
    }
}
