// GPX 1.1 files as Xcode uses them: points with their coordinates, times and lines; each kind
// of bad file is an error naming its line; ISO-8601 times in integers.
import Foundation
import Testing

@testable import Formats

func gpx(_ body: String) -> Data {
    Data(
        """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="Xcode">
        \(body)
        </gpx>
        """.utf8)
}

@Suite("GPX files")
struct GPXDocumentTests {
    @Test("waypoints and track points are read in file order, with their times and lines")
    func points() throws {
        let document = try GPXDocument(
            data: gpx(
                """
                <wpt lat="51.5007" lon="-0.1246"><time>2026-11-29T07:00:00Z</time></wpt>
                <trk><trkseg>
                <trkpt lat="-10" lon="179.5"><name>end</name><time> 2026-11-29T08:00:01+01:00 </time></trkpt>
                </trkseg></trk>
                """), path: "mixed.gpx")
        #expect(document.path == "mixed.gpx")
        #expect(
            document.points == [
                GPXPoint(
                    latitude: 51.5007, longitude: -0.1246, seconds: 1_795_935_600,
                    timeText: "2026-11-29T07:00:00Z", line: 3),
                GPXPoint(
                    latitude: -10, longitude: 179.5, seconds: 1_795_935_601,
                    timeText: "2026-11-29T08:00:01+01:00", line: 5),
            ])
    }

    @Test("points without times are read without them")
    func untimed() throws {
        let document = try GPXDocument(
            data: gpx(
                """
                <wpt lat="0" lon="0"/>
                <wpt lat="0" lon="0.01"/>
                """), path: "fixed.gpx")
        #expect(
            document.points == [
                GPXPoint(latitude: 0, longitude: 0, line: 3),
                GPXPoint(latitude: 0, longitude: 0.01, line: 4),
            ])
    }

    @Test(
        "each kind of bad file is an error naming its line",
        arguments: [
            ("not XML at all", 1, "not well-formed XML"),
            ("<gpx><wpt lat=\"1\" lon=\"2\"></gpx>", 1, "not well-formed XML"),
            ("<wpt lon=\"2\"><time>2026-11-29T07:00:00Z</time></wpt>", 3, "expected lat and lon"),
            (
                "<wpt lat=\"1\" lon=\"2\"><time>2026-11-29T07:00:00Z</time></wpt>\n<wpt lat=\"91\" lon=\"2\"><time>2026-11-29T07:01:00Z</time></wpt>",
                4, "not a latitude"
            ),
            (
                "<wpt lat=\"1\" lon=\"180\"><time>2026-11-29T07:00:00Z</time></wpt>", 3,
                "not a longitude"
            ),
            (
                "<wpt lat=\"1\" lon=\"east\"><time>2026-11-29T07:00:00Z</time></wpt>", 3,
                "not a longitude"
            ),
            (
                "<wpt lat=\"1\" lon=\"2\"><time>2026-11-29T07:01:00Z</time></wpt>\n<wpt lat=\"1\" lon=\"3\"><time>2026-11-29T07:00:00Z</time></wpt>",
                4, "before the previous point"
            ),
            (
                "<wpt lat=\"1\" lon=\"2\"><time>yesterday</time></wpt>", 3,
                "not an ISO-8601 UTC time"
            ),
            (
                "<wpt lat=\"1\" lon=\"2\"><time>2026-11-29T07:00:00Z</time></wpt>\n<wpt lat=\"1\" lon=\"3\"/>",
                4, "expected a <time>"
            ),
            ("", 4, "expected at least one"),
        ] as [(String, Int, String)])
    func badFiles(body: String, line: Int, message: String) {
        let data =
            body.hasPrefix("not XML") || body.hasPrefix("<gpx>") ? Data(body.utf8) : gpx(body)
        #expect {
            try GPXDocument(data: data, path: "bad.gpx")
        } throws: { error in
            guard let error = error as? GPXError else { return false }
            return error.path == "bad.gpx" && error.line == line && error.message.contains(message)
        }
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(throws: GPXError(path: "/no/such.gpx", line: 0, message: "the file cannot be read"))
        {
            try GPXDocument(contentsOfFile: "/no/such.gpx")
        }
    }

    @Test(
        "ISO-8601 times convert exactly",
        arguments: [
            ("1970-01-01T00:00:00Z", 0.0), ("2000-03-01T00:00:00Z", 951_868_800),
            ("2026-11-29T07:00:00.25Z", 1_795_935_600.25),
            ("2026-11-29T08:00:00+01:00", 1_795_935_600),
        ])
    func times(text: String, seconds: Double) {
        #expect(iso8601Seconds(text) == seconds)
    }
}
