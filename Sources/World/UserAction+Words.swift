// How a user action is written (layer 3): the one set of words that a scenario file, the
// world's trace, the timeline and the pictures use for a `UserAction`, and who does it. Each
// case has its row in `UserAction.spelling` (WorldMessage.swift, next to the cases); the
// scenario parser reads the words back from `UserAction.readable`, with no code per case.
import Simulation

extension UserAction {
    /// Who does an action: the user's gestures and settings, the system's events, the
    /// network's conditions.
    public enum Source: String, Sendable, CaseIterable {
        case user, system, network
    }

    /// How an action is written: the words that name its kind, then its value if it has one
    /// (`open`, `precise-location off`, `network slow 5s`, `clock -90s`).
    package struct Spelling: Sendable {
        /// Who does the action.
        package var source: Source
        /// The words that name the action's kind, each one token of a scenario file: `open`,
        /// `network slow`, `precise-location`. Each case of `UserAction` has its own.
        package var words: [String]
        /// What follows the words, for a case that carries a value.
        package var value: Value?
        /// Other first words read as these (`launch` and `return` for `open`); never printed.
        package var aliases: [String]

        init(_ source: Source, _ words: String..., value: Value? = nil, aliases: [String] = []) {
            self.source = source
            self.words = words
            self.value = value
            self.aliases = aliases
        }

        /// The kind's words as one string: one kind for each case of `UserAction`.
        package var kind: String { words.joined(separator: " ") }

        /// The whole text: `authorization always`, `network slow 5s`, `clock +30s`.
        package var text: String {
            guard let value else { return kind }
            return "\(kind) \(value.text)"
        }
    }

    /// The value written after a kind's words.
    package enum Value: Sendable {
        /// One word among those of the kind's values (`on` or `off`, an authorization).
        /// `name` says what is expected, in an error, when listing the words would not
        /// (`an authorization`).
        case word(String, name: String? = nil)
        /// A duration as the kernel writes it (`5s`), or with its sign when `signed` (`+5m`,
        /// `-90s`). `name` says what it is, in an error (`the extra latency`); `action` is the
        /// action of the kind with another duration (the one a file gives).
        case duration(
            VirtualDuration, signed: Bool, name: String,
            action: @Sendable (VirtualDuration) -> UserAction)

        /// The value as a file writes it.
        package var text: String {
            switch self {
            case .word(let word, _): word
            case .duration(let duration, let signed, _, _):
                signed && duration >= .zero ? "+\(duration)" : "\(duration)"
            }
        }
    }

    /// Who does the action (`Spelling.source`).
    public var source: Source { spelling.source }

    /// `on` or `off`.
    static func onOff(_ on: Bool) -> Value { .word(on ? "on" : "off") }
}
