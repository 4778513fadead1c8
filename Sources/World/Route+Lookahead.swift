// Questions about a route's future (layer 3), so that the location daemon schedules one timer
// for "the device passes 500 m from here" or "the device moves again" instead of polling.
import Simulation

extension Route {
    /// The first instant at or after `start` when the device is farther than `meters` from
    /// `point`, to the nanosecond up to the interpolation's precision; nil if never.
    public func firstInstant(
        after start: Instant, fartherThan meters: Double, from point: Coordinate
    ) -> Instant? {
        if position(at: start).distance(to: point) > meters { return start }
        var index = waypointIndex(atOrBefore: start)
        while index + 1 < waypoints.count {
            let end = waypoints[index + 1]
            if end.instant > start, end.coordinate.distance(to: point) > meters {
                // Bisect within this leg: distance grows monotonically along a short straight leg
                // once it leaves the circle.
                var low = max(start, waypoints[index].instant)
                var high = end.instant
                while (high - low).nanoseconds > 1_000_000 {
                    let middle = Instant(
                        nanosecondsSinceStart: low.nanosecondsSinceStart + (high - low).nanoseconds
                            / 2)
                    if position(at: middle).distance(to: point) > meters {
                        high = middle
                    } else {
                        low = middle
                    }
                }
                return high
            }
            index += 1
        }
        return nil
    }

    /// The first instant at or after `start` when the device moves faster than `speed`.
    public func firstInstant(after start: Instant, movingFasterThan speed: Double) -> Instant? {
        firstLeg(after: start) { $0 > speed }
    }

    /// The first instant at or after `start` from which the device stays at or below `speed`
    /// for at least `dwell` (the route's end counts as still forever); the instant the dwell
    /// began is returned.
    public func firstStillPeriod(
        after start: Instant, slowerThan speed: Double, lasting dwell: VirtualDuration
    ) -> Instant? {
        var candidate = start
        while true {
            guard let moving = firstInstant(after: candidate, movingFasterThan: speed) else {
                return candidate
            }
            if moving - candidate >= dwell { return candidate }
            // Skip the movement: the next still stretch starts where this leg run ends.
            guard let stillAgain = firstInstant(after: moving, notFasterThan: speed) else {
                return nil
            }
            candidate = stillAgain
        }
    }

    /// The first instant at or after `start` when the device is at or below `speed`.
    func firstInstant(after start: Instant, notFasterThan speed: Double) -> Instant? {
        // Past the route's end the device is still.
        firstLeg(after: start) { $0 <= speed } ?? max(start, waypoints.last!.instant)
    }

    /// The first instant at or after `start` on a leg whose speed satisfies `matches`, or nil.
    private func firstLeg(after start: Instant, where matches: (Double) -> Bool) -> Instant? {
        var index = waypointIndex(atOrBefore: start)
        while index + 1 < waypoints.count {
            if waypoints[index + 1].instant > start, matches(legSpeeds[index]) {
                return max(start, waypoints[index].instant)
            }
            index += 1
        }
        return nil
    }
}
