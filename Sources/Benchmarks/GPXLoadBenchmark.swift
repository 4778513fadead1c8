// The GPX load benchmark (`lifeline bench gpx`): a synthetic 1 Hz track of N points written to
// a temporary file, then read into a `Route`, timed, with the process's peak memory.
import Foundation
import Simulation
import World

/// A deterministic timed track: a drive round a ring road, one point a second from
/// 2026-11-29T07:00:00Z, at 5 to 30 m/s with the speed and heading wandering a little each
/// second (a seeded generator), turning a full circle about every hour, so that it stays within
/// a few tens of kilometres of London however long it runs. Written as GPX 1.1, about 87 bytes a
/// point.
package struct SyntheticGPXTrack {
    package var pointCount: Int
    package var seed: UInt64 = 12

    package init(pointCount: Int) {
        precondition(pointCount > 0, "a track has a point")
        self.pointCount = pointCount
    }

    /// Writes the track to `path` a megabyte at a time; returns its size in bytes.
    @discardableResult
    package func write(to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20 + 256)
        var written = 0
        func flush() throws {
            try handle.write(contentsOf: buffer)
            written += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        buffer += Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="lifeline bench gpx" xmlns="http://www.topografix.com/GPX/1/1">
              <trk>
                <name>Synthetic ring-road drive, \(pointCount) points at 1 Hz</name>
                <trkseg>

            """.utf8)
        var random = SplitMix64(seed: seed)
        var position = Coordinate(latitude: 51.5, longitude: -0.12)
        var headingDegrees = 0.0
        var speed = 15.0
        let startSeconds = 1_795_935_600  // 2026-11-29T07:00:00Z
        for index in 0..<pointCount {
            if index > 0 {
                let unit1 = Double(random.next() >> 11) / 9_007_199_254_740_992
                let unit2 = Double(random.next() >> 11) / 9_007_199_254_740_992
                headingDegrees += 0.1 + (unit1 - 0.5) * 2
                speed = min(30, max(5, speed + (unit2 - 0.5)))
                position = position.destination(
                    headingDegrees: headingDegrees, distanceMeters: speed)
            }
            buffer += Self.trackPointPrefix
            Self.appendDegrees(position.latitude, to: &buffer)
            buffer += Self.longitudePrefix
            Self.appendDegrees(position.longitude, to: &buffer)
            buffer += Self.timePrefix
            Self.appendTime(startSeconds + index, to: &buffer)
            buffer += Self.trackPointSuffix
            if buffer.count >= 1 << 20 { try flush() }
        }
        buffer += Array("    </trkseg>\n  </trk>\n</gpx>\n".utf8)
        try flush()
        return written
    }

    private static let trackPointPrefix = Array("      <trkpt lat=\"".utf8)
    private static let longitudePrefix = Array("\" lon=\"".utf8)
    private static let timePrefix = Array("\"><time>".utf8)
    private static let trackPointSuffix = Array("</time></trkpt>\n".utf8)

    /// `degrees` with seven decimals (about a centimetre), computed in integers.
    static func appendDegrees(_ degrees: Double, to buffer: inout [UInt8]) {
        let units = Int((abs(degrees) * 10_000_000).rounded())
        if degrees < 0 && units != 0 { buffer.append(UInt8(ascii: "-")) }
        buffer += Array(String(units / 10_000_000).utf8)
        buffer.append(UInt8(ascii: "."))
        appendDigits(units % 10_000_000, width: 7, to: &buffer)
    }

    /// `seconds` since 1970 as `YYYY-MM-DDThh:mm:ssZ` (Howard Hinnant's civil-from-days).
    static func appendTime(_ seconds: Int, to buffer: inout [UInt8]) {
        let days = seconds / 86_400
        let secondOfDay = seconds % 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        appendDigits(year, width: 4, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &buffer)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &buffer)
        buffer.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, width: 2, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &buffer)
        buffer.append(UInt8(ascii: "Z"))
    }

    private static func appendDigits(_ value: Int, width: Int, to buffer: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}

/// Writes a `SyntheticGPXTrack` of `pointCount` points to a temporary file, reads it into a
/// `Route` (timed), and reports the time taken and the process's peak resident memory.
package struct GPXLoadBenchmark {
    package var pointCount: Int

    package struct Result: Sendable {
        package var points: Int
        package var fileBytes: Int
        package var wallSeconds: Double
        /// The process's peak resident memory (Linux `VmHWM`), nil elsewhere.
        package var peakResidentBytes: Int?
        /// The route's own size: its waypoints and leg speeds.
        package var routeBytes: Int
    }

    package init(pointCount: Int) { self.pointCount = pointCount }

    package func run() throws -> Result {
        let path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "lifeline-bench-gpx-\(ProcessInfo.processInfo.processIdentifier)-\(pointCount).gpx"
            ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fileBytes = try SyntheticGPXTrack(pointCount: pointCount).write(to: path)
        let started = WallClock.seconds()
        let route = try Route(gpxFile: path)
        let wall = WallClock.seconds() - started
        let peak = ProcessMemory.peakResidentBytes()
        precondition(route.waypoints.count == pointCount, "every point is a waypoint")
        let routeBytes =
            route.waypoints.count * MemoryLayout<Route.Waypoint>.stride
            + (route.waypoints.count - 1) * MemoryLayout<Double>.stride
        return Result(
            points: route.waypoints.count, fileBytes: fileBytes, wallSeconds: wall,
            peakResidentBytes: peak, routeBytes: routeBytes)
    }
}
