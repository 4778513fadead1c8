// The events of a scenario (layer 5): the world's user actions, each at a moment of the
// scenario. A scenario file writes an action with the world's words for it (`force-quit`,
// `authorization always`, `network slow 5s`: `UserAction.spelling`), which the parser reads
// back from `UserAction.readable`.
import Simulation
import World

/// Something the person holding the phone, or the system around it, does (a `UserAction` of
/// the world) at an offset from the scenario's start.
///
/// Every `UserAction` can be written, `attachTestHost` included: a harness effect of source
/// A's experiments (XCTest hosting the app keeps its process running), written `test-host on`,
/// so that the fuzzer also tries an app that is never suspended meanwhile.
public struct TimedEvent: Sendable, Equatable, CustomStringConvertible {
    /// Time from the scenario's start (never negative).
    public var at: VirtualDuration
    public var event: UserAction

    public init(at: VirtualDuration, _ event: UserAction) {
        self.at = at
        self.event = event
    }

    /// The event line of a scenario file, without its indentation: `5m force-quit`.
    public var description: String { "\(at) \(event)" }
}
