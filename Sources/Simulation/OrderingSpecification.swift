// How an ordering strategy is written in files and on the command line (layer 1):
// `fifo`, `random:SEED`, `pct:SEED:DEPTH`.

/// A same-instant ordering strategy as a value: written `fifo`, `random:7` or `pct:7:3`, read
/// back by `init(parsing:)`, and turned into a fresh `OrderingStrategy` for each run.
public enum OrderingSpecification: Hashable, Sendable, CustomStringConvertible {
    case fifo
    case random(seed: UInt64)
    case pct(seed: UInt64, depth: Int)

    /// Why a text is not an ordering.
    public struct ParseError: Error, CustomStringConvertible {
        public var text: String
        public var description: String {
            "'\(text)' is not an ordering; expected fifo, random:SEED or pct:SEED:DEPTH (depth 1 to 64)"
        }
    }

    /// Reads `fifo`, `random:SEED` or `pct:SEED:DEPTH`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch (parts.first, parts.count) {
        case ("fifo", 1):
            self = .fifo
        case ("random", 2):
            guard let seed = UInt64(parts[1]) else { throw ParseError(text: text) }
            self = .random(seed: seed)
        case ("pct", 3):
            guard let seed = UInt64(parts[1]), let depth = Int(parts[2]), (1...64).contains(depth)
            else { throw ParseError(text: text) }
            self = .pct(seed: seed, depth: depth)
        default:
            throw ParseError(text: text)
        }
    }

    /// A new strategy in its starting state.
    public func makeStrategy() -> OrderingStrategy {
        switch self {
        case .fifo: .fifo
        case .random(let seed): .random(seed: seed)
        case .pct(let seed, let depth): .pct(seed: seed, depth: depth)
        }
    }

    public var description: String {
        switch self {
        case .fifo: "fifo"
        case .random(let seed): "random:\(seed)"
        case .pct(let seed, let depth): "pct:\(seed):\(depth)"
        }
    }
}
