// The trace (layer 1): every delivered message, in order, to a sink, with a running 64-bit hash
// that two runs compare to prove they were the same.

/// Receives every delivery of a run, in order: the instant, the actor, and the message.
///
/// Sinks that ship with the kernel (`HashingTrace`, `MemoryTrace`, `JSONLinesTrace`) render each
/// delivery as one JSON line and fold the line's bytes into an FNV-1a hash, so a trace file's
/// hash equals the hash of the run that wrote it, in any process.
public protocol TraceSink<Message>: AnyObject {
    associatedtype Message
    /// Called once per delivery, in delivery order, once the actor has handled the message.
    /// The message is the sink's (consumed): a sink that keeps it keeps it without a copy, as
    /// the kernel has no more use for it.
    func record(instant: Instant, actor: ActorID, message: consuming Message)
}

/// One delivery rendered as a JSON line (`{"instant":"00:00:01.500","ns":1500000000,...}`),
/// and the running FNV-1a hash over all lines so far.
public struct TraceHash: Sendable {
    private var hasher = FNV1a64()
    /// Lines folded in so far.
    public private(set) var lineCount = 0

    public init() {}

    /// The hash of every line folded in, newline included.
    public var value: UInt64 { hasher.value }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hexadecimal: String { PlainText.hexadecimal16(value) }

    /// Folds in one line (its UTF-8 bytes and a newline).
    public mutating func fold(line: String) {
        hasher.combine(line)
        hasher.combine(byte: 0x0A)
        lineCount += 1
    }

    /// The JSON line for one delivery.
    public static func line(instant: Instant, actor: ActorID, message: String) -> String {
        "{\"instant\":\"\(instant)\",\"ns\":\(instant.nanosecondsSinceStart),\"actor\":\(actor.index),"
            + "\"message\":\(PlainText.jsonQuoted(message))}"
    }
}
