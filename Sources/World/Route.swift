// Where the device is (layer 3): a route as timed waypoints, built from drive, walk and park
// segments or from a GPX file, and the position and speed at any instant.
import Simulation

/// How the device moves over time: waypoints with instants, linearly interpolated between.
///
/// Built from segments (`drive 45m at 15 m/s heading 90`, `park 8h`) from a start coordinate,
/// or from a GPX track. Before the first waypoint the device is at the first one, after the
/// last at the last one. A segment's turn (`headingChangeDegrees`) rotates the heading at its
/// start, so that a commute need not be a straight line.
public struct Route: Sendable {
    /// One timed point of the route.
    public struct Waypoint: Sendable, Equatable {
        public var instant: Instant
        public var coordinate: Coordinate

        public init(instant: Instant, coordinate: Coordinate) {
            self.instant = instant
            self.coordinate = coordinate
        }
    }

    /// A stretch of movement (or stillness) at constant speed and heading.
    public struct Segment: Sendable, Equatable {
        public enum Kind: String, Sendable { case drive, walk, park }
        public var kind: Kind
        public var duration: VirtualDuration
        /// Metres per second (0 for park).
        public var speedMetersPerSecond: Double
        /// Degrees added to the heading at the segment's start.
        public var headingChangeDegrees: Double

        public init(
            _ kind: Kind, _ duration: VirtualDuration, speedMetersPerSecond: Double = 0,
            headingChangeDegrees: Double = 0
        ) {
            precondition(duration.nanoseconds >= 0, "a segment lasts a non-negative time")
            precondition(
                speedMetersPerSecond >= 0 && speedMetersPerSecond.isFinite,
                "a speed is finite and not negative")
            self.kind = kind
            self.duration = duration
            self.speedMetersPerSecond = kind == .park ? 0 : speedMetersPerSecond
            self.headingChangeDegrees = headingChangeDegrees
        }
    }

    // invariant: waypoints sorted by instant, at least one
    package let waypoints: [Waypoint]
    // invariant: legSpeeds[i] is the ground speed from waypoint i to i + 1 (metres per second)
    let legSpeeds: [Double]

    /// A route through `waypoints` (sorted by instant, at least one).
    public init(waypoints: [Waypoint]) {
        precondition(!waypoints.isEmpty, "a route has at least one waypoint")
        precondition(
            zip(waypoints, waypoints.dropFirst()).allSatisfy { $0.instant <= $1.instant },
            "waypoints in time order")
        self.waypoints = waypoints
        legSpeeds = zip(waypoints, waypoints.dropFirst()).map { start, end in
            Self.legSpeed(
                distanceMeters: start.coordinate.distance(to: end.coordinate),
                span: end.instant - start.instant)
        }
    }

    /// A route through `waypoints` (sorted by instant, at least one) whose leg speeds are
    /// already known, each `legSpeed(distanceMeters:span:)` of its leg.
    init(waypoints: [Waypoint], legSpeeds: [Double]) {
        precondition(!waypoints.isEmpty, "a route has at least one waypoint")
        precondition(legSpeeds.count == waypoints.count - 1, "one speed per leg")
        self.waypoints = waypoints
        self.legSpeeds = legSpeeds
    }

    /// The ground speed of a leg of `distanceMeters` lasting `span` (0 for an empty span).
    static func legSpeed(distanceMeters: Double, span: VirtualDuration) -> Double {
        let seconds = span.seconds
        return seconds > 0 ? distanceMeters / seconds : 0
    }

    /// A route of `segments` from `start`, heading `headingDegrees`, beginning at `startInstant`.
    /// Long segments get a waypoint every `waypointSpacing` so that curvature stays small.
    public init(
        start: Coordinate, headingDegrees: Double, startInstant: Instant = .start,
        segments: [Segment], waypointSpacing: VirtualDuration = .minutes(1)
    ) {
        var points = [Waypoint(instant: startInstant, coordinate: start)]
        var heading = headingDegrees
        var instant = startInstant
        var position = start
        for segment in segments {
            heading += segment.headingChangeDegrees
            var remaining = segment.duration
            while remaining > .zero {
                let step = min(remaining, waypointSpacing)
                position = position.destination(
                    headingDegrees: heading,
                    distanceMeters: segment.speedMetersPerSecond * step.seconds)
                instant = instant + step
                points.append(Waypoint(instant: instant, coordinate: position))
                remaining = remaining - step
            }
        }
        self.init(waypoints: points)
    }

    /// The same route starting `delay` later, the device waiting at its first point until then.
    package func delayed(by delay: VirtualDuration) -> Route {
        precondition(delay.nanoseconds >= 0, "a delay is not negative")
        let shifted = waypoints.map {
            Waypoint(instant: $0.instant + delay, coordinate: $0.coordinate)
        }
        return Route(
            waypoints: [Waypoint(instant: .start, coordinate: waypoints[0].coordinate)] + shifted)
    }

    /// The device's position at `instant`.
    public func position(at instant: Instant) -> Coordinate { state(at: instant).coordinate }

    /// The device's ground speed at `instant` in metres per second (0 outside the route).
    public func speed(at instant: Instant) -> Double {
        let (index, _) = locate(instant)
        return index + 1 < waypoints.count ? legSpeeds[index] : 0
    }

    /// Position and speed at `instant`, with one search.
    public func state(at instant: Instant) -> (coordinate: Coordinate, speedMetersPerSecond: Double)
    {
        state(at: instant, located: locate(instant))
    }

    /// `state(at: instant)`, bit for bit, found from `leg`, the leg the last call found (a
    /// route cursor): the daemon asks for nearly every instant in the leg it asked for last, or
    /// the next one, so those two are tried before the search. `leg` becomes the leg found.
    func state(at instant: Instant, leg: inout Int) -> (
        coordinate: Coordinate, speedMetersPerSecond: Double
    ) {
        let index = waypointIndex(atOrBefore: instant, near: leg)
        leg = index
        return state(at: instant, located: located(instant, inLeg: index))
    }

    /// The position and speed at `instant`, which `location` locates.
    @inline(__always)
    private func state(at instant: Instant, located location: (index: Int, fraction: Double))
        -> (coordinate: Coordinate, speedMetersPerSecond: Double)
    {
        let (index, fraction) = location
        guard index + 1 < waypoints.count else { return (waypoints[index].coordinate, 0) }
        return (
            waypoints[index].coordinate.interpolated(
                to: waypoints[index + 1].coordinate, fraction: fraction), legSpeeds[index]
        )
    }

    /// `waypointIndex(atOrBefore: instant)`, trying `hint` and the waypoint after it first:
    /// the last waypoint at or before `instant` is the one whose successor is after it.
    func waypointIndex(atOrBefore instant: Instant, near hint: Int) -> Int {
        let last = waypoints.count - 1
        for candidate in hint...min(hint + 1, last) where candidate >= 0 {
            if waypoints[candidate].instant <= instant
                && (candidate == last || waypoints[candidate + 1].instant > instant)
            {
                return candidate
            }
        }
        return waypointIndex(atOrBefore: instant)
    }

    /// When the route ends.
    package var endInstant: Instant { waypoints.last!.instant }

    /// `position(at: instant)` for an instant known to lie in leg `index`, at or after waypoint
    /// `index` and before waypoint `index + 1`, which `locate` would find: the same
    /// interpolation, without the search.
    func position(at instant: Instant, inLeg index: Int) -> Coordinate {
        assert(
            waypoints[index].instant <= instant && instant < waypoints[index + 1].instant,
            "the instant lies in the leg")
        let span = (waypoints[index + 1].instant - waypoints[index].instant).nanoseconds
        let fraction = Double((instant - waypoints[index].instant).nanoseconds) / Double(span)
        return waypoints[index].coordinate.interpolated(
            to: waypoints[index + 1].coordinate, fraction: fraction)
    }

    /// The waypoint interval holding `instant` and how far into it (0...1).
    private func locate(_ instant: Instant) -> (index: Int, fraction: Double) {
        located(instant, inLeg: waypointIndex(atOrBefore: instant))
    }

    /// How far `instant` is into the interval from waypoint `index`, the last at or before it.
    @inline(__always)
    private func located(_ instant: Instant, inLeg index: Int) -> (index: Int, fraction: Double) {
        guard index + 1 < waypoints.count, instant > waypoints[index].instant else {
            return (index, 0)
        }
        let span = (waypoints[index + 1].instant - waypoints[index].instant).nanoseconds
        let fraction =
            span == 0 ? 0 : Double((instant - waypoints[index].instant).nanoseconds) / Double(span)
        return (index, fraction)
    }

    /// The last waypoint at or before `instant` (the first one before the route starts), by
    /// binary search.
    func waypointIndex(atOrBefore instant: Instant) -> Int {
        var low = 0
        var high = waypoints.count - 1
        if instant >= waypoints[high].instant { return high }
        if instant < waypoints[0].instant { return 0 }
        while high - low > 1 {
            let middle = (low + high) / 2
            if waypoints[middle].instant <= instant { low = middle } else { high = middle }
        }
        return low
    }
}
