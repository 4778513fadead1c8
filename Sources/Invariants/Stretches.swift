// Sets of time (layer 5): sorted, disjoint half-open stretches of virtual time, for the time a
// gap counts (`bounded-gaps`) and the time a process ran.
import Simulation

/// A set of instants as sorted, disjoint, non-empty half-open stretches `[start, end)`.
struct Stretches {
    // invariant: sorted by start; each start < end; each end < the next start
    private(set) var parts: [(start: Instant, end: Instant)] = []

    init() {}

    /// The union of `parts`, in any order.
    init(_ parts: [(start: Instant, end: Instant)]) {
        for part in parts.sorted(by: { $0.start < $1.start }) where part.start < part.end {
            if let last = self.parts.last, part.start <= last.end {
                self.parts[self.parts.count - 1].end = max(last.end, part.end)
            } else {
                self.parts.append(part)
            }
        }
    }

    /// The instants in both sets.
    /// Whether `instant` lies in a stretch (start included, end not).
    func contains(_ instant: Instant) -> Bool {
        parts.contains { $0.start <= instant && instant < $0.end }
    }

    /// Whether one stretch holds every instant of `[from, to]`.
    func covers(from: Instant, through to: Instant) -> Bool {
        parts.contains { $0.start <= from && to < $0.end }
    }

    func intersection(_ other: Stretches) -> Stretches {
        var result: [(start: Instant, end: Instant)] = []
        var left = 0
        var right = 0
        while left < parts.count, right < other.parts.count {
            let start = max(parts[left].start, other.parts[right].start)
            let end = min(parts[left].end, other.parts[right].end)
            if start < end { result.append((start, end)) }
            if parts[left].end < other.parts[right].end { left += 1 } else { right += 1 }
        }
        return Stretches(result)
    }

    /// The instants in either set.
    func union(_ other: Stretches) -> Stretches { Stretches(parts + other.parts) }

    /// The instants in this set and not in `other`.
    func subtracting(_ other: Stretches) -> Stretches {
        var result: [(start: Instant, end: Instant)] = []
        for part in parts {
            var start = part.start
            for cut in other.parts where cut.end > start && cut.start < part.end {
                if cut.start > start { result.append((start, cut.start)) }
                start = max(start, cut.end)
            }
            if start < part.end { result.append((start, part.end)) }
        }
        return Stretches(result)
    }

    /// How much of `[from, to]` the set covers, and the first instant it covers there.
    func measure(from: Instant, to: Instant) -> (length: VirtualDuration, first: Instant?) {
        var length = VirtualDuration.zero
        var first: Instant?
        for part in parts where part.end > from && part.start < to {
            let start = max(part.start, from)
            length = length + (min(part.end, to) - start)
            first = first ?? start
        }
        return (length, first)
    }
}
