// Work that would run outside the simulation: what the app's code did that Lifeline cannot make
// virtual, collected per thread while a run goes, for the `escaped-simulation` verdict.
import CVirtualClock
import Synchronization

/// One call of the app's code that runs outside the simulated device: a real thread, a block
/// on a real Dispatch queue, a real sleep, a socket, a real run loop's timer, a blocking wait
/// that would need the world to move on, work of a process that has ended.
public struct SimulationEscape: Sendable, Equatable, CustomStringConvertible {
    /// What the app called, as the app wrote it where known (`DispatchQueue.async on a real
    /// Dispatch queue`).
    public var call: String
    /// What to write instead, which runs in the simulation.
    public var supportedForm: String
    /// The virtual instant of the call (nanoseconds since the run's start), when it was made
    /// in a simulated process.
    public var nanosecondsSinceStart: Int64?

    public init(call: String, supportedForm: String, nanosecondsSinceStart: Int64? = nil) {
        self.call = call
        self.supportedForm = supportedForm
        self.nanosecondsSinceStart = nanosecondsSinceStart
    }

    /// The same call and form (wherever made).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.call == rhs.call && lhs.supportedForm == rhs.supportedForm
    }

    public var description: String { "\(call); use \(supportedForm)" }
}

/// Collects the escapes reported on this thread (`lifeline_vc_report_escape`, the C entry
/// point every detector calls: the interposed C functions in CVirtualClock, LifelineKit's
/// refusals) while a run goes.
///
/// A run is one thread's work (each fuzz case runs on one thread), so the collector is the
/// thread's: `collecting` installs one around `body` and returns what was reported in it.
/// Reports made on a thread with no collector are counted in `uncollectedCount` only.
public enum SimulationEscapes {
    /// Runs `body`, returning its result and the escapes reported on this thread meanwhile,
    /// first first. Nested calls each see their own.
    public static func collecting<Result>(_ body: () throws -> Result) rethrows
        -> (result: Result, escapes: [SimulationEscape])
    {
        let sink = EscapeSink()
        let outer = lifeline_vc_escape_sink()
        lifeline_vc_set_escape_sink(Unmanaged.passUnretained(sink).toOpaque())
        defer { lifeline_vc_set_escape_sink(outer) }
        let result = try withExtendedLifetime(sink) { try body() }
        return (result, sink.escapes)
    }

    /// Reports an escape from Swift (LifelineKit's refusals), as the C entry point does.
    public static func report(call: String, supportedForm: String) {
        lifeline_vc_report_escape(call, supportedForm)
    }

    /// Escapes reported on threads with no collector, since the program started.
    public static var uncollectedCount: Int { uncollected.load(ordering: .relaxed) }
    static let uncollected = Atomic<Int>(0)
}

/// The escapes of one collection.
final class EscapeSink {
    var escapes: [SimulationEscape] = []
}

/// Called by `lifeline_vc_report_escape` (CVirtualClock) for every escape.
@_cdecl("lifeline_virtual_concurrency_escaped")
func lifelineVirtualConcurrencyEscaped(
    _ call: UnsafePointer<CChar>?, _ supportedForm: UnsafePointer<CChar>?
) {
    let escape = SimulationEscape(
        call: call.map { String(cString: $0) } ?? "an unnamed call",
        supportedForm: supportedForm.map { String(cString: $0) } ?? "a supported form",
        nanosecondsSinceStart: VirtualProcess.current?.now)
    guard let pointer = lifeline_vc_escape_sink() else {
        SimulationEscapes.uncollected.add(1, ordering: .relaxed)
        return
    }
    let sink = Unmanaged<EscapeSink>.fromOpaque(pointer).takeUnretainedValue()
    // The same call made again and again (a block queued at every fix) is one finding.
    if !sink.escapes.contains(escape) { sink.escapes.append(escape) }
}
