// The services a run's processes held (Pictures, layer 5): one lane per kind, each stretch from
// the request that started the kind's first object to the one that stopped its last, or the end
// of the process that asked.
import Invariants
import Simulation
import World

extension RunPicture {
    /// A kind of location service, as a picture's lane.
    public enum ServiceLane: String, Sendable, CaseIterable {
        case liveUpdates = "live updates"
        case standardUpdates = "standard updates"
        /// Service sessions and background activity sessions (R-B9, R-B10, R-C5).
        case sessions
        case significantChange = "significant change"
        /// `CLMonitor` conditions, legacy regions and visit monitoring.
        case monitoring = "regions & visits"
    }

    /// A stretch `[start, end)` during which process `generation` held at least one service of
    /// `lane`.
    public struct ServiceSlice: Sendable, Equatable {
        public var lane: ServiceLane
        public var generation: Int
        public var start: Instant
        public var end: Instant
    }

    /// Each process's requests to the daemon replayed in order. A lane is held while some
    /// object of its kind (a manager updating, a live stream, a session, a condition or region
    /// by name, significant change or visits) is started and not yet stopped. What outlives
    /// the process in iOS (significant change, regions) is drawn only until the process ends:
    /// the picture shows what each process asked for; a relaunch marker shows what iOS did
    /// with it after.
    static func serviceSlices(_ record: RunRecord, processes: [ProcessSpan]) -> [ServiceSlice] {
        var slices: [ServiceSlice] = []
        var held = HeldObjects(generation: 0)
        func close(at end: Instant) {
            slices += held.closeAll(at: min(end, record.horizon))
        }
        for request in record.locationRequests {
            if request.generation != held.generation {
                close(at: end(of: held.generation, processes, record.horizon))
                held = HeldObjects(generation: request.generation)
            }
            guard let (lane, key, starts) = Self.effect(of: request.request) else { continue }
            if let slice = held.apply(lane, key: key, starts: starts, at: request.instant) {
                slices.append(slice)
            }
        }
        close(at: end(of: held.generation, processes, record.horizon))
        return slices.filter { $0.end > $0.start }.enumerated().sorted {
            ($0.element.start, $0.offset) < ($1.element.start, $1.offset)
        }.map(\.element)
    }

    /// When process `generation` ended, or the horizon.
    private static func end(of generation: Int, _ processes: [ProcessSpan], _ horizon: Instant)
        -> Instant
    {
        guard generation >= 1, generation <= processes.count else { return horizon }
        return processes[generation - 1].endedAt ?? horizon
    }

    /// The lane a request acts on, the object it names there, and whether it starts or stops
    /// it; nil for a request that does neither.
    static func effect(of request: AppRequest) -> (ServiceLane, String, Bool)? {
        switch request {
        case .startLiveUpdates(let id, _): (.liveUpdates, "\(id)", true)
        case .stopLiveUpdates(let id): (.liveUpdates, "\(id)", false)
        case .startUpdatingLocation(let id): (.standardUpdates, "\(id)", true)
        case .stopUpdatingLocation(let id): (.standardUpdates, "\(id)", false)
        case .beginServiceSession(let id, _), .beginServiceSessionRequiring(let id, _, _):
            (.sessions, "service \(id)", true)
        case .invalidateServiceSession(let id): (.sessions, "service \(id)", false)
        case .beginBackgroundActivitySession(let id): (.sessions, "activity \(id)", true)
        case .invalidateBackgroundActivitySession(let id): (.sessions, "activity \(id)", false)
        case .startSignificantChanges: (.significantChange, "", true)
        case .stopSignificantChanges: (.significantChange, "", false)
        case .addCondition(let monitor, let condition, _, _),
            .addMonitorCondition(let monitor, let condition, _, _, _):
            (.monitoring, "condition \(monitor)/\(condition)", true)
        case .removeCondition(let monitor, let condition):
            (.monitoring, "condition \(monitor)/\(condition)", false)
        case .startMonitoringRegion(_, let region):
            (.monitoring, "region \(region.identifier)", true)
        case .stopMonitoringRegion(_, let identifier): (.monitoring, "region \(identifier)", false)
        case .startVisits: (.monitoring, "visits", true)
        case .stopVisits: (.monitoring, "visits", false)
        default: nil
        }
    }
}

/// The objects one process holds per lane, and since when each lane has been held.
private struct HeldObjects {
    let generation: Int
    // invariant: keys[lane] is empty exactly when since[lane] is nil
    private var keys: [[String]] = Array(
        repeating: [], count: RunPicture.ServiceLane.allCases.count)
    private var since: [Instant?] = Array(
        repeating: nil, count: RunPicture.ServiceLane.allCases.count)

    init(generation: Int) { self.generation = generation }

    /// Starts or stops `key` in `lane`; returns the lane's finished stretch when the last
    /// object of the lane stops.
    mutating func apply(
        _ lane: RunPicture.ServiceLane, key: String, starts: Bool, at instant: Instant
    )
        -> RunPicture.ServiceSlice?
    {
        let index = Self.index(lane)
        if starts {
            if !keys[index].contains(key) { keys[index].append(key) }
            if since[index] == nil { since[index] = instant }
            return nil
        }
        guard let start = since[index], keys[index].contains(key) else { return nil }
        keys[index].removeAll { $0 == key }
        guard keys[index].isEmpty else { return nil }
        since[index] = nil
        return RunPicture.ServiceSlice(
            lane: lane, generation: generation, start: start, end: instant)
    }

    /// The stretches of every lane still held, ended at `end`, in lane order.
    mutating func closeAll(at end: Instant) -> [RunPicture.ServiceSlice] {
        var closed: [RunPicture.ServiceSlice] = []
        for lane in RunPicture.ServiceLane.allCases {
            let index = Self.index(lane)
            guard let start = since[index] else { continue }
            closed.append(
                RunPicture.ServiceSlice(lane: lane, generation: generation, start: start, end: end))
            keys[index].removeAll()
            since[index] = nil
        }
        return closed
    }

    private static func index(_ lane: RunPicture.ServiceLane) -> Int {
        RunPicture.ServiceLane.allCases.firstIndex(of: lane)!
    }
}
