// Questions about a route's future (layer 3), so that the location daemon schedules one timer
// for "the device passes 500 m from here" or "the device moves again" instead of polling.
import Simulation

extension Route {
    /// The first instant at or after `start` when the device is farther than `meters` from
    /// `point`, to the nanosecond up to the interpolation's precision; nil if never.
    package func firstInstant(
        after start: Instant, fartherThan meters: Double, from point: Coordinate
    ) -> Instant? {
        let probe = DistanceProbe(point)
        if probe.distance(from: position(at: start)) > meters { return start }
        var index = waypointIndex(atOrBefore: start)
        // Once a leg's start is measured, an upper bound on its distance: a leg whose end
        // cannot be farther than `meters` (`legLengthBound`, the triangle inequality) is passed
        // without measuring its end, as a parked device's hours of waypoints are.
        var startBound: Double?
        while index + 1 < waypoints.count {
            let end = waypoints[index + 1]
            guard end.instant > start else {
                startBound = nil
                index += 1
                continue
            }
            if let bound = startBound, let length = legLengthBound(index),
                bound + length <= meters
            {
                startBound = bound + length
                index += 1
                continue
            }
            let endDistance = probe.distance(from: end.coordinate)
            startBound = endDistance
            if endDistance > meters {
                // Bisect within this leg: distance grows monotonically along a short straight leg
                // once it leaves the circle.
                var low = max(start, waypoints[index].instant)
                var high = end.instant
                let threshold = DistanceThreshold(meters)
                // `middle` lies strictly inside this leg: its position needs no search.
                let leg = index
                func isFarther(_ middle: Instant) -> Bool {
                    probe.isFarther(than: threshold, from: position(at: middle, inLeg: leg))
                }
                let bracket = crossingBracket(
                    leg: leg, from: low, probe: probe, meters: meters, isFarther: isFarther)
                while (high - low).nanoseconds > 1_000_000 {
                    let middle = Instant(
                        nanosecondsSinceStart: low.nanosecondsSinceStart + (high - low).nanoseconds
                            / 2)
                    let farther =
                        middle <= bracket.inside
                        ? false : middle >= bracket.outside ? true : isFarther(middle)
                    if farther {
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

    /// Two instants of leg `index` between which the bisection of `firstInstant(after:
    /// fartherThan:from:)` finds the crossing, so that it measures only there: at or before
    /// `inside` the device is not farther than `meters` (`isFarther` is false), at or after
    /// `outside` it is. The leg is inside at `low` and outside at its end; the distance along
    /// a short straight leg is convex, so once `isFarther` is false at one instant and true at
    /// a later one, it is false at every instant between `low` and the first and true at every
    /// one after the second: the bisection then takes the same steps, and returns the same
    /// instant, as if it had measured each one. The two instants come from the crossing solved
    /// in the local plane around the probe's point for a circle `crossingMarginMeters` smaller
    /// and one as much larger, and each is measured once to confirm it; one that measures
    /// otherwise falls back to the leg's end (`low`, or the leg's last instant).
    func crossingBracket(
        leg index: Int, from low: Instant, probe: DistanceProbe, meters: Double,
        isFarther: (Instant) -> Bool
    ) -> (inside: Instant, outside: Instant) {
        let start = waypoints[index]
        let end = waypoints[index + 1]
        let none = (inside: low, outside: end.instant)
        // The plane in degrees of latitude, longitudes scaled by the point's latitude cosine.
        let scale = probe.cosφ
        let ax = (start.coordinate.longitude - probe.point.longitude) * scale
        let ay = start.coordinate.latitude - probe.point.latitude
        let dx = (end.coordinate.longitude - start.coordinate.longitude) * scale
        let dy = end.coordinate.latitude - start.coordinate.latitude
        let dd = dx * dx + dy * dy
        guard dd > 0 else { return none }
        let ad = ax * dx + ay * dy
        let aa = ax * ax + ay * ay
        let span = Double((end.instant - start.instant).nanoseconds)
        let margin = Self.crossingMarginMeters + meters * Self.crossingMarginFraction
        // The instant the leg leaves the circle of `radius` metres, if it does within the leg.
        func exit(_ radius: Double) -> Instant? {
            guard radius > 0 else { return nil }
            let degrees = radius / Self.metersPerDegree
            let discriminant = ad * ad - dd * (aa - degrees * degrees)
            guard discriminant >= 0 else { return nil }
            let fraction = (discriminant.squareRoot() - ad) / dd
            guard fraction > 0, fraction < 1 else { return nil }
            return start.instant + .nanoseconds(Int64(fraction * span))
        }
        var inside = low
        if let candidate = exit(meters - margin), candidate > low, candidate < end.instant,
            !isFarther(candidate)
        {
            inside = candidate
        }
        var outside = end.instant
        if let candidate = exit(meters + margin), candidate > inside, candidate < end.instant,
            isFarther(candidate)
        {
            outside = candidate
        }
        return (inside, outside)
    }

    /// How far inside and outside the circle, in the local plane, `crossingBracket` looks:
    /// a few centimetres more than the plane's own error at a region's radius (the latitude
    /// cosine changing across the circle, about 10⁻⁴ of the radius at 500 m).
    static let crossingMarginMeters = 0.1
    static let crossingMarginFraction = 2e-4
    private static let metersPerDegree = Coordinate.earthRadiusMeters * .pi / 180

    /// The first instant at or after `start` when the device is within `meters` of `point`, to
    /// the lookahead's resolution; nil if never. A straight leg can cross the circle with both
    /// ends outside it, so each leg that may come near enough (by the triangle inequality) is
    /// searched for its closest approach first (the distance along a short straight leg falls,
    /// then rises), then bisected between its start and that approach.
    package func firstInstant(
        after start: Instant, within meters: Double, of point: Coordinate
    ) -> Instant? {
        let probe = DistanceProbe(point)
        let distance = { (instant: Instant) in probe.distance(from: position(at: instant)) }
        if distance(start) <= meters { return start }
        var index = waypointIndex(atOrBefore: start)
        // Once a leg's end is measured, a lower bound on the next leg's start's distance: a leg
        // that starts at its waypoint and cannot come within `meters` (its start's distance
        // less `legLengthBound` exceeds it, so does `nearestPossible`) is passed without
        // measuring, as a device parked far from the point passes hours of waypoints.
        var startBound: Double?
        while index + 1 < waypoints.count {
            let end = waypoints[index + 1]
            if end.instant > start {
                let low = max(start, waypoints[index].instant)
                let from = position(at: low)
                if let bound = startBound, from == waypoints[index].coordinate,
                    let length = legLengthBound(index), bound - length > meters
                {
                    startBound = bound - length
                    index += 1
                    continue
                }
                let length = from.distance(to: end.coordinate)
                let endDistance = probe.distance(from: end.coordinate)
                startBound = endDistance
                let nearestPossible = (probe.distance(from: from) + endDistance - length) / 2
                if nearestPossible <= meters {
                    // Ternary search for the closest approach within the leg.
                    var near = low
                    var far = end.instant
                    while (far - near).nanoseconds > Self.lookaheadResolution.nanoseconds {
                        let span = (far - near).nanoseconds
                        let early = near + .nanoseconds(span / 3)
                        let late = near + .nanoseconds(span - span / 3)
                        if distance(early) <= distance(late) { far = late } else { near = early }
                    }
                    let closest = distance(near) <= distance(far) ? near : far
                    if distance(closest) <= meters {
                        var outside = low
                        var inside = closest
                        while (inside - outside).nanoseconds > Self.lookaheadResolution.nanoseconds
                        {
                            let middle = outside + .nanoseconds((inside - outside).nanoseconds / 2)
                            if distance(middle) <= meters {
                                inside = middle
                            } else {
                                outside = middle
                            }
                        }
                        return inside
                    }
                }
            }
            index += 1
        }
        return nil
    }

    /// An upper bound on the great-circle length of leg `index` (waypoint `index` to
    /// `index + 1`) as `Coordinate.distance(to:)` computes it, without trigonometry: its speed
    /// times its duration, which is that length to a few units in the last place, enlarged by
    /// a billionth and a micrometre. The slack also covers the rounding of the distances the
    /// lookahead compares (far below a micrometre), so a leg passed by the triangle inequality
    /// is one the measured distances would have passed too. Nil for a leg of no duration,
    /// whose speed (0) says nothing of its length.
    func legLengthBound(_ index: Int) -> Double? {
        let span = waypoints[index + 1].instant - waypoints[index].instant
        guard span.nanoseconds > 0 else { return nil }
        return legSpeeds[index] * span.seconds * (1 + 1e-9) + 1e-6
    }

    /// How finely a crossing's instant is found: a millisecond, far below any fix interval.
    static let lookaheadResolution = VirtualDuration.milliseconds(1)

    /// The first instant at or after `start` when the device moves faster than `speed`.
    package func firstInstant(after start: Instant, movingFasterThan speed: Double) -> Instant? {
        firstLeg(after: start) { $0 > speed }
    }

    /// The first instant at or after `start` from which the device stays at or below `speed`
    /// for at least `dwell` (the route's end counts as still forever); the instant the dwell
    /// began is returned.
    package func firstStillPeriod(
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
