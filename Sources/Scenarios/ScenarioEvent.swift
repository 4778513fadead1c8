// The external events of a scenario (layer 5): what the user and the system do to the app and
// the device, as a scenario file writes them, and the world's action for each.
import Simulation
import World

/// Something the person holding the phone, or the system around it, does at a moment of a
/// scenario. Each is one `UserAction` of the world; the text is how a `.scenario` file writes
/// it (`force-quit`, `authorization always`, `network slow 5s`).
///
/// Every `UserAction` of the world has its event, `attachTestHost` included: a harness effect
/// of source A's experiments (XCTest hosting the app keeps its process running), written
/// `test-host on`, so that the fuzzer also tries an app that is never suspended meanwhile.
public enum ScenarioEvent: Sendable, Equatable, CustomStringConvertible {
    /// The user opens the app: its launch, or a return to it (`open`; `launch` and `return`
    /// read as the same).
    case open
    /// The user leaves the app (home gesture, another app).
    case leave
    case lock
    case unlock
    /// The user swipes the app away in the app switcher.
    case forceQuit
    /// The system needs memory: a suspended app is purged (R-F3).
    case memoryPressure
    case crash
    /// The process exits on its own.
    case exit
    case reboot
    /// The user changes the app's location permission in Settings.
    case authorization(Authorization)
    /// The user turns Precise Location on (full accuracy) or off (reduced).
    case preciseLocation(Bool)
    /// The user turns Low Power Mode on or off.
    case lowPowerMode(Bool)
    /// A Live Activity of the app starts or ends (R-C4).
    case liveActivityStart
    case liveActivityEnd
    /// The network goes down, comes back, or turns slow by this much per request.
    case networkDown
    case networkUp
    case networkSlow(VirtualDuration)
    /// The device's wall clock is set forward (positive) or back by this much.
    case clockAdjusted(VirtualDuration)
    /// The user turns tracking on or off with the app's own switch (`tracking on`): the app
    /// is brought to the foreground first, as `open` does (`UserAction.trackingOn`).
    case trackingOn
    case trackingOff
    /// XCTest starts hosting the app (on), keeping its process running in the background, or
    /// stops (off): source A's setup (`UserAction.attachTestHost`).
    case testHost(Bool)

    /// An event at an offset from the scenario's start.
    public struct Timed: Sendable, Equatable, CustomStringConvertible {
        /// Time from the scenario's start (never negative).
        public var at: VirtualDuration
        public var event: ScenarioEvent

        public init(at: VirtualDuration, _ event: ScenarioEvent) {
            self.at = at
            self.event = event
        }

        /// The event line of a scenario file, without its indentation: `5m force-quit`.
        public var description: String { "\(at) \(event)" }
    }

    /// The world's action for this event.
    public var userAction: UserAction {
        switch self {
        case .open: .open
        case .leave: .leave
        case .lock: .lock
        case .unlock: .unlock
        case .forceQuit: .forceQuit
        case .memoryPressure: .memoryPressure
        case .crash: .crash
        case .exit: .exit
        case .reboot: .reboot
        case .authorization(let value): .setAuthorization(value)
        case .preciseLocation(let on): .setAccuracy(on ? .full : .reduced)
        case .lowPowerMode(let on): .setLowPowerMode(on)
        case .liveActivityStart: .startLiveActivity
        case .liveActivityEnd: .endLiveActivity
        case .networkDown: .networkDown
        case .networkUp: .networkUp
        case .networkSlow(let extra): .networkSlow(extra)
        case .clockAdjusted(let offset): .adjustClock(by: offset)
        case .trackingOn: .trackingOn
        case .trackingOff: .trackingOff
        case .testHost(let on): .attachTestHost(on)
        }
    }

    /// How a scenario file writes the event: `open`, `precise-location off`, `clock -90s`.
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
        case .authorization(let value): "authorization \(value.rawValue)"
        case .preciseLocation(let on): "precise-location \(Self.onOff(on))"
        case .lowPowerMode(let on): "low-power \(Self.onOff(on))"
        case .liveActivityStart: "live-activity start"
        case .liveActivityEnd: "live-activity end"
        case .networkDown: "network down"
        case .networkUp: "network up"
        case .networkSlow(let extra): "network slow \(extra)"
        case .clockAdjusted(let offset): "clock \(offset < .zero ? "" : "+")\(offset)"
        case .trackingOn: "tracking on"
        case .trackingOff: "tracking off"
        case .testHost(let on): "test-host \(Self.onOff(on))"
        }
    }

    /// The events written as one word, by that word (the aliases of `open` included).
    static let plainEvents: [(word: String, event: ScenarioEvent)] = [
        ("open", .open), ("launch", .open), ("return", .open), ("leave", .leave),
        ("lock", .lock), ("unlock", .unlock), ("force-quit", .forceQuit),
        ("memory-pressure", .memoryPressure), ("crash", .crash), ("exit", .exit),
        ("reboot", .reboot),
    ]

    /// The first words of the events that take an argument.
    static let argumentWords = [
        "authorization", "precise-location", "low-power", "live-activity", "network", "clock",
        "tracking", "test-host",
    ]

    /// Every first word, for error messages.
    static var words: [String] {
        plainEvents.map(\.word).filter { $0 != "launch" && $0 != "return" } + argumentWords
    }

    static func onOff(_ on: Bool) -> String { on ? "on" : "off" }
}
