// A run as a Chrome trace (Pictures, layer 5): the Trace Event Format's JSON object form, which
// Perfetto and chrome://tracing open, with virtual time as the trace's time.
import Simulation
import World

/// One run in the Trace Event Format's JSON object form, `{"traceEvents": [...],
/// "displayTimeUnit": "ms", "otherData": {...}}`, one event per line.
///
/// Tracks (a thread of a process, named by `M` events, in this order):
/// - process 1, `device`: `user` (the user's actions), `operating system` (the system's
///   actions, wake requests, relaunches, refusals), `location daemon` (GNSS on as slices, its
///   timers as instants), `network` (its conditions as slices, uploads sent, completed and
///   accepted by the server);
/// - process 2, `app`: `process` (the app's state as `X` slices: foreground, background,
///   suspended, not running; launches and terminations as thread instants, relaunches as
///   process instants), `fixes` (delivered, stored, lost with its rule, as thread instants) and
///   one track per service lane (`X` slices while held);
/// - process 3, `invariants`: `violations`, as global instants.
///
/// Time: `ts` and `dur` are integer microseconds of virtual time since the run's start, the
/// nanoseconds below a microsecond truncated (`ChromeTraceEvent.microseconds`); every event's
/// `args.ns` keeps its exact instant in nanoseconds. Events follow the metadata in timestamp
/// order (ties in the order made), so timestamps never decrease on any track, and the slices
/// of one track never overlap: they meet end to start.
public struct ChromeTrace: Sendable {
    /// The whole file.
    public let json: String
    /// How many events `traceEvents` holds, metadata included.
    public let eventCount: Int

    /// The trace of `picture`.
    public init(_ picture: RunPicture) {
        let metadata = Self.metadata
        var events = Self.deviceEvents(picture) + Self.appEvents(picture)
        for violation in picture.violations {
            events.append(
                .instant(
                    violation.invariant, category: "violation", track: Self.violations,
                    at: violation.instant, scope: .global,
                    args: [("explanation", .text(violation.explanation))]))
        }
        let ordered = events.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }.map(\.element)
        let all = metadata + ordered
        eventCount = all.count
        json =
            "{\"traceEvents\":[\n" + all.map(\.json).joined(separator: ",\n") + "\n],\n"
            + "\"displayTimeUnit\":\"ms\",\n"
            + "\"otherData\":{\"clock\":\"virtual time since the run's start\","
            + "\"horizonNs\":\(picture.horizon.nanosecondsSinceStart)}}\n"
    }

    // MARK: - Tracks

    static let user = ChromeTrack(pid: 1, tid: 1, name: "user")
    static let operatingSystem = ChromeTrack(pid: 1, tid: 2, name: "operating system")
    static let daemon = ChromeTrack(pid: 1, tid: 3, name: "location daemon")
    static let network = ChromeTrack(pid: 1, tid: 4, name: "network")
    static let process = ChromeTrack(pid: 2, tid: 1, name: "process")
    static let fixes = ChromeTrack(pid: 2, tid: 2, name: "fixes")
    static func service(_ lane: RunPicture.ServiceLane) -> ChromeTrack {
        let index = RunPicture.ServiceLane.allCases.firstIndex(of: lane)!
        return ChromeTrack(pid: 2, tid: 3 + index, name: lane.rawValue)
    }
    static let violations = ChromeTrack(pid: 3, tid: 1, name: "violations")

    /// The processes of the trace, by pid, with their names.
    static let processes = [(1, "device"), (2, "app"), (3, "invariants")]

    /// Every track, in the order shown.
    static var tracks: [ChromeTrack] {
        [user, operatingSystem, daemon, network, process, fixes]
            + RunPicture.ServiceLane.allCases.map(service) + [violations]
    }

    /// Names and sort indices of every process and thread (`M` events at time 0).
    static var metadata: [ChromeTraceEvent] {
        var events: [ChromeTraceEvent] = []
        for (index, (pid, name)) in processes.enumerated() {
            events.append(meta("process_name", pid: pid, tid: 0, ("name", .text(name))))
            events.append(
                meta("process_sort_index", pid: pid, tid: 0, ("sort_index", .integer(Int64(index))))
            )
        }
        for (index, track) in tracks.enumerated() {
            events.append(
                meta("thread_name", pid: track.pid, tid: track.tid, ("name", .text(track.name))))
            events.append(
                meta(
                    "thread_sort_index", pid: track.pid, tid: track.tid,
                    ("sort_index", .integer(Int64(index)))))
        }
        return events
    }

    private static func meta(
        _ name: String, pid: Int, tid: Int, _ argument: (String, ChromeTraceEvent.Value)
    ) -> ChromeTraceEvent {
        ChromeTraceEvent(
            name: name, category: "__metadata", phase: .metadata, timestamp: 0, pid: pid,
            tid: tid, args: [(argument.0, argument.1)])
    }

    // MARK: - The app

    /// The process's states and markers, the fixes and the services.
    static func appEvents(_ picture: RunPicture) -> [ChromeTraceEvent] {
        var events: [ChromeTraceEvent] = []
        for slice in picture.states {
            let args: [(key: String, value: ChromeTraceEvent.Value)] =
                slice.generation.map { [("generation", .integer(Int64($0)))] } ?? []
            events.append(
                .slice(
                    slice.state.rawValue, category: "state", track: process, from: slice.start,
                    to: slice.end, args: args))
        }
        for marker in picture.markers {
            events.append(
                .instant(
                    marker.text, category: marker.kind.rawValue, track: process, at: marker.instant,
                    scope: marker.kind == .relaunch ? .process : .thread,
                    args: [("generation", .integer(Int64(marker.generation)))]))
        }
        for mark in picture.fixes {
            var args: [(key: String, value: ChromeTraceEvent.Value)] = [
                ("count", .integer(Int64(mark.count)))
            ]
            if let generation = mark.generation {
                args.append(("generation", .integer(Int64(generation))))
            }
            let name = mark.fate == .lost ? "fix lost: \(mark.reason)" : "fix \(mark.fate.rawValue)"
            events.append(
                .instant(name, category: "fix", track: fixes, at: mark.instant, args: args))
        }
        for slice in picture.services {
            events.append(
                .slice(
                    slice.lane.rawValue, category: "service", track: service(slice.lane),
                    from: slice.start, to: slice.end,
                    args: [("generation", .integer(Int64(slice.generation)))]))
        }
        return events
    }
}
