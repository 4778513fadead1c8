// One event of the Chrome Trace Event Format (Pictures, layer 5), written as one JSON object
// with its keys in a fixed order and its numbers as integers.
import Simulation

/// An event of the Trace Event Format (Google's "Trace Event Format" document, which Perfetto
/// and chrome://tracing read): its name, category, phase, timestamp in microseconds, process
/// and thread ids, and arguments; `dur` for a complete event and `s` for an instant one.
struct ChromeTraceEvent {
    /// The phases this writer uses (the `ph` key).
    enum Phase: String {
        /// A complete event: a slice with a duration (`dur`).
        case complete = "X"
        /// An instant event, with a scope (`s`).
        case instant = "i"
        /// A metadata event: names and sort indices of processes and threads.
        case metadata = "M"
    }

    /// The scope of an instant event: the whole trace, one process, or one thread.
    enum Scope: String {
        case global = "g"
        case process = "p"
        case thread = "t"
    }

    /// An argument value: a string (quoted when written) or an integer.
    enum Value {
        case text(String)
        case integer(Int64)

        var json: String {
            switch self {
            case .text(let text): PlainText.jsonQuoted(text)
            case .integer(let value): String(value)
            }
        }
    }

    var name: String
    var category: String
    var phase: Phase
    /// Microseconds since the start (`ts`).
    var timestamp: Int64
    /// Microseconds, for a complete event only (`dur`).
    var duration: Int64?
    var pid: Int
    var tid: Int
    /// For an instant event only (`s`).
    var scope: Scope?
    var args: [(key: String, value: Value)] = []

    /// The event as one JSON object: `name`, `cat`, `ph`, `ts`, `dur`, `s`, `pid`, `tid`,
    /// `args`, in that order.
    var json: String {
        var fields = [
            "\"name\":\(PlainText.jsonQuoted(name))",
            "\"cat\":\(PlainText.jsonQuoted(category))",
            "\"ph\":\"\(phase.rawValue)\"",
            "\"ts\":\(timestamp)",
        ]
        if let duration { fields.append("\"dur\":\(duration)") }
        if let scope { fields.append("\"s\":\"\(scope.rawValue)\"") }
        fields.append("\"pid\":\(pid)")
        fields.append("\"tid\":\(tid)")
        if !args.isEmpty {
            let members = args.map { "\(PlainText.jsonQuoted($0.key)):\($0.value.json)" }
            fields.append("\"args\":{\(members.joined(separator: ","))}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Virtual time in the format's unit: whole microseconds, the nanoseconds below one
    /// microsecond dropped (truncated: virtual time is never negative). Both ends of a slice
    /// are truncated the same way, so slices that meet in nanoseconds meet in microseconds.
    static func microseconds(_ instant: Instant) -> Int64 {
        instant.nanosecondsSinceStart / nanosecondsPerMicrosecond
    }

    static let nanosecondsPerMicrosecond: Int64 = 1_000

    /// A complete event from `start` to `end`, with the exact start in nanoseconds as `ns`.
    static func slice(
        _ name: String, category: String, track: ChromeTrack, from start: Instant,
        to end: Instant, args: [(key: String, value: Value)] = []
    ) -> ChromeTraceEvent {
        precondition(start <= end, "a slice ends after it starts")
        let from = microseconds(start)
        return ChromeTraceEvent(
            name: name, category: category, phase: .complete, timestamp: from,
            duration: microseconds(end) - from, pid: track.pid, tid: track.tid,
            args: [("ns", .integer(start.nanosecondsSinceStart))] + args)
    }

    /// An instant event at `instant` with `scope`, with the exact instant in nanoseconds as
    /// `ns`.
    static func instant(
        _ name: String, category: String, track: ChromeTrack, at instant: Instant,
        scope: Scope = .thread, args: [(key: String, value: Value)] = []
    ) -> ChromeTraceEvent {
        ChromeTraceEvent(
            name: name, category: category, phase: .instant, timestamp: microseconds(instant),
            pid: track.pid, tid: track.tid, scope: scope,
            args: [("ns", .integer(instant.nanosecondsSinceStart))] + args)
    }
}

/// A track of the trace: a thread (`tid`) of a process (`pid`), named by metadata events.
struct ChromeTrack {
    var pid: Int
    var tid: Int
    var name: String
}
