// Routes from GPX files (layer 3): the points `Formats` reads, as waypoints in virtual time.
import Foundation
import Formats
import Simulation

extension Route {
    /// Reads a GPX 1.1 file: every `wpt` (Xcode's template) or `trk/trkseg/trkpt`, each with
    /// `lat` in [−90, 90] and `lon` in [−180, 180) and an ISO-8601 UTC `time`, in time order.
    /// The first point's time is the route's start (`Instant.start`), unless points have no
    /// times at all, in which case the device moves between them at `speedMetersPerSecond`
    /// (Xcode's rule; 20 m/s is simctl's default).
    /// - Throws: `GPXError` naming the file, line and problem; nothing is run.
    public init(gpxFile path: String, speedMetersPerSecond: Double = 20) throws {
        self.init(
            gpx: try GPXDocument(contentsOfFile: path), speedMetersPerSecond: speedMetersPerSecond)
    }

    /// Reads GPX from `data`; `path` names it in errors.
    public init(gpx data: Data, path: String, speedMetersPerSecond: Double = 20) throws {
        self.init(
            gpx: try GPXDocument(data: data, path: path),
            speedMetersPerSecond: speedMetersPerSecond)
    }

    /// The route through a checked GPX document's points: at their times, counted from the
    /// first point's, or, untimed, at `speedMetersPerSecond` along the great circles between them.
    init(gpx document: GPXDocument, speedMetersPerSecond: Double) {
        let points = document.points
        let first = points[0]
        func coordinate(_ point: GPXPoint) -> Coordinate {
            Coordinate(latitude: point.latitude, longitude: point.longitude)
        }
        var waypoints: [Waypoint] = []
        if let start = first.seconds {
            waypoints = points.map {
                Waypoint(
                    instant: .start
                        + .init(nanoseconds: Int64((($0.seconds! - start) * 1e9).rounded())),
                    coordinate: coordinate($0))
            }
        } else {
            precondition(speedMetersPerSecond > 0, "a positive speed")
            var instant = Instant.start
            var previous = coordinate(first)
            for point in points {
                instant =
                    instant
                    + VirtualDuration(
                        seconds: previous.distance(to: coordinate(point)) / speedMetersPerSecond)
                waypoints.append(Waypoint(instant: instant, coordinate: coordinate(point)))
                previous = coordinate(point)
            }
        }
        self.init(waypoints: waypoints)
    }
}
