// GPX 1.1 routes as Xcode uses them: good files give timed routes, untimed ones are driven at a
// fixed speed, and a bad file is the GPX reader's error (Tests/FormatsTests checks each kind).
import Formats
import Foundation
import Simulation
import Testing

@testable import World

func gpx(_ body: String) -> Data {
    Data(
        """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="Xcode">
        \(body)
        </gpx>
        """.utf8)
}

@Suite("GPX routes")
struct GPXTests {
    @Test("waypoints with times make a timed route, starting at the first time")
    func waypoints() throws {
        let route = try Route(
            gpx: gpx(
                """
                <wpt lat="51.5007" lon="-0.1246"><time>2026-11-29T07:00:00Z</time></wpt>
                <wpt lat="51.5007" lon="-0.1146"><time>2026-11-29T07:01:00Z</time></wpt>
                <wpt lat="51.5107" lon="-0.1146"><name>end</name><time>2026-11-29T07:02:30.5Z</time></wpt>
                """), path: "drive.gpx")
        let instants: [Instant] = [
            .start, Instant.start + .seconds(60), Instant.start + .milliseconds(150_500),
        ]
        #expect(route.waypoints.map(\.instant) == instants)
        #expect(route.waypoints[1].coordinate == Coordinate(latitude: 51.5007, longitude: -0.1146))
        #expect(abs(route.speed(at: .start + .seconds(30)) - 691.6 / 60) < 0.5)
    }

    @Test("track points work too, and time-zone offsets count")
    func trackPoints() throws {
        let route = try Route(
            gpx: gpx(
                """
                <trk><trkseg>
                <trkpt lat="10" lon="20"><time>2026-11-29T08:00:00+01:00</time></trkpt>
                <trkpt lat="10.001" lon="20"><time>2026-11-29T07:00:10Z</time></trkpt>
                </trkseg></trk>
                """), path: "track.gpx")
        let instants: [Instant] = [.start, Instant.start + .seconds(10)]
        #expect(route.waypoints.map(\.instant) == instants)
    }

    @Test("points without times are driven at a fixed speed, as Xcode does")
    func untimed() throws {
        let route = try Route(
            gpx: gpx(
                """
                <wpt lat="0" lon="0"/>
                <wpt lat="0" lon="0.01"/>
                """), path: "fixed.gpx", speedMetersPerSecond: 20)
        let meters = Coordinate(latitude: 0, longitude: 0).distance(
            to: Coordinate(latitude: 0, longitude: 0.01))
        #expect(abs(route.endInstant.secondsSinceStart - meters / 20) < 1e-6)
    }

    @Test("a bad file is the reader's error, naming its line")
    func badFile() throws {
        let data = gpx(
            "<wpt lat=\"1\" lon=\"2\"><time>2026-11-29T07:01:00Z</time></wpt>\n<wpt lat=\"1\" lon=\"3\"/>"
        )
        #expect(
            throws: GPXError(
                path: "bad.gpx", line: 4, message: "expected a <time>: the other points have one")
        ) {
            try Route(gpx: data, path: "bad.gpx")
        }
    }

    @Test("a leg faster than the plausible maximum is an error naming both its points' lines")
    func tooFast() throws {
        // 0.01° of latitude is about 1,112 m: in 2 s, 556 m/s, over the 400 m/s limit.
        let data = gpx(
            """
            <trk><trkseg>
            <trkpt lat="10" lon="20"><time>2026-11-29T07:00:00Z</time></trkpt>
            <trkpt lat="10.01" lon="20"><time>2026-11-29T07:00:02Z</time></trkpt>
            </trkseg></trk>
            """)
        #expect {
            try Route(gpx: data, path: "jump.gpx")
        } throws: { error in
            guard let error = error as? GPXError else { return false }
            return error.line == 5
                && error.message.hasPrefix(
                    "the leg from line 4 to line 5 covers 1112.0 m in 2.000 s (556.0 m/s), "
                        + "faster than 400 m/s")
        }
        // An airliner's 250 m/s is plausible, and so is the same place twice at one time.
        let flight = try Route(
            gpx: gpx(
                """
                <wpt lat="10" lon="20"><time>2026-11-29T07:00:00Z</time></wpt>
                <wpt lat="10" lon="20"><time>2026-11-29T07:00:00Z</time></wpt>
                <wpt lat="10.0225" lon="20"><time>2026-11-29T07:00:10Z</time></wpt>
                """), path: "flight.gpx")
        #expect(abs(flight.speed(at: .start + .seconds(5)) - 250.2) < 0.1)
        #expect(Route.maximumSpeedMetersPerSecond == 400)
    }

    @Test("untimed points are driven at the given speed, however fast, without the limit")
    func untimedFastSpeed() throws {
        let route = try Route(
            gpx: gpx(
                """
                <wpt lat="0" lon="0"/>
                <wpt lat="0" lon="1"/>
                """), path: "fixed.gpx", speedMetersPerSecond: 1000)
        #expect(abs(route.speed(at: .start + .seconds(1)) - 1000) < 1e-6)
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: GPXError(path: "/no/such.gpx", line: 0, message: "the file cannot be read"))
        {
            try Route(gpxFile: "/no/such.gpx")
        }
    }
}
