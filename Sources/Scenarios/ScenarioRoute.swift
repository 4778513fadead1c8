// Where the device goes in a scenario (layer 5): drive, walk and park segments from a start,
// or a GPX file read when the scenario runs.
import World

/// The route of a scenario: segments from a start coordinate and heading, or a GPX file.
///
/// A GPX path is kept as written and read when the world is made (relative paths from the
/// current directory); the parser reads it once too, so that a missing or bad file is an
/// error at the scenario's line.
public enum ScenarioRoute: Sendable, Equatable {
    /// Segments driven, walked or parked in turn from `start`, heading `headingDegrees`.
    case segments(start: Coordinate, headingDegrees: Double, [Route.Segment])
    /// A GPX 1.1 file; untimed points are travelled at `speedMetersPerSecond` (above 0).
    case gpx(path: String, speedMetersPerSecond: Double)

    /// The world's route.
    /// - Throws: `GPXError` for a GPX file that is missing or not a route.
    public func makeRoute() throws -> Route {
        switch self {
        case .segments(let start, let heading, let segments):
            Route(start: start, headingDegrees: heading, segments: segments)
        case .gpx(let path, let speed):
            try Route(gpxFile: path, speedMetersPerSecond: speed)
        }
    }

    /// The segments, empty for a GPX route.
    public var segments: [Route.Segment] {
        if case .segments(_, _, let segments) = self { segments } else { [] }
    }
}
