import Formats
// Routes from GPX files (layer 3): the points `Formats` reads, streamed into waypoints in
// virtual time, with each leg's speed checked against what a device can plausibly do.
import Foundation
import Simulation

extension Route {
    /// The fastest a route may move, in metres per second (1,440 km/h): a timed GPX track's
    /// legs, an untimed track's speed and a scenario's drive and walk segments alike. Faster
    /// than any airliner's ground speed: the record for a subsonic airliner is about 369 m/s
    /// (1,327 km/h, a Boeing 747 in the jet stream, February 2020), and an iPhone in a car, train
    /// or aircraft cabin stays far below. A faster leg is a recording error (a GPS jump, points
    /// out of order, a wrong time zone on one point), not a journey, and would make the
    /// daemon's lookahead and speed-dependent rules meaningless, so it is rejected with both
    /// points' lines.
    package static let maximumSpeedMetersPerSecond = 400.0

    /// Reads a GPX 1.1 file: every `wpt` (Xcode's template) or `trk/trkseg/trkpt`, each with
    /// `lat` in [−90, 90] and `lon` in [−180, 180) and an ISO-8601 UTC `time`, in time order.
    /// The first point's time is the route's start (`Instant.start`), unless points have no
    /// times at all, in which case the device moves between them at `speedMetersPerSecond`
    /// (Xcode's rule; 20 m/s is simctl's default). The file is read as a stream: only the
    /// waypoints are kept, so a track of a million points needs little more than the route.
    /// - Throws: `GPXError` naming the file, line and problem (a leg faster than
    ///   `maximumSpeedMetersPerSecond` names both its points); nothing is run.
    public init(gpxFile path: String, speedMetersPerSecond: Double = 20) throws {
        var builder = GPXRouteBuilder(path: path, speedMetersPerSecond: speedMetersPerSecond)
        try GPXReader.read(file: path) { try builder.add($0) }
        self.init(waypoints: builder.waypoints, legSpeeds: builder.legSpeeds)
    }

    /// Reads GPX from `data`; `path` names it in errors.
    public init(gpx data: Data, path: String, speedMetersPerSecond: Double = 20) throws {
        var builder = GPXRouteBuilder(path: path, speedMetersPerSecond: speedMetersPerSecond)
        try GPXReader.read(data: data, path: path) { try builder.add($0) }
        self.init(waypoints: builder.waypoints, legSpeeds: builder.legSpeeds)
    }
}

/// Turns checked GPX points, as they stream in, into waypoints and leg speeds: at their times,
/// counted from the first point's, or, untimed, at a fixed speed along the great circles between
/// them.
private struct GPXRouteBuilder {
    let path: String
    let speedMetersPerSecond: Double
    var waypoints: [Route.Waypoint] = []
    var legSpeeds: [Double] = []
    private var startSeconds: Double?
    private var previousLine = 0

    init(path: String, speedMetersPerSecond: Double) {
        self.path = path
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    mutating func add(_ point: GPXPoint) throws {
        let coordinate = Coordinate(latitude: point.latitude, longitude: point.longitude)
        defer { previousLine = point.line }
        guard let previous = waypoints.last else {
            startSeconds = point.seconds
            if point.seconds == nil {
                precondition(speedMetersPerSecond > 0, "a positive speed")
            }
            waypoints.append(Route.Waypoint(instant: .start, coordinate: coordinate))
            return
        }
        let distance = previous.coordinate.distance(to: coordinate)
        let instant: Instant
        if let seconds = point.seconds, let start = startSeconds {
            instant = .start + .init(nanoseconds: Int64(((seconds - start) * 1e9).rounded()))
        } else {
            instant = previous.instant + VirtualDuration(seconds: distance / speedMetersPerSecond)
        }
        let span = instant - previous.instant
        let speed = Route.legSpeed(distanceMeters: distance, span: span)
        if point.seconds != nil,
            speed > Route.maximumSpeedMetersPerSecond || (span.nanoseconds == 0 && distance > 0)
        {
            throw GPXError(
                path: path, line: point.line,
                message:
                    "the leg from line \(previousLine) to line \(point.line) covers "
                    + "\(PlainText.fixed(distance, digits: 1)) m in "
                    + "\(PlainText.fixed(span.seconds, digits: 3)) s "
                    + (span.nanoseconds > 0
                        ? "(\(PlainText.fixed(speed, digits: 1)) m/s), " : "(an infinite speed), ")
                    + "faster than "
                    + "\(PlainText.fixed(Route.maximumSpeedMetersPerSecond, digits: 0)) m/s, "
                    + "the fastest plausible speed (above any airliner's ground speed)")
        }
        waypoints.append(Route.Waypoint(instant: instant, coordinate: coordinate))
        legSpeeds.append(speed)
    }
}
