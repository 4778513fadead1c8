// GPX through the tool: `bench gpx` prints its figures, and a bad track (binary, badly formed,
// two places at one time, a leg too fast) is bad input (exit 2) naming its line, in words.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("GPX through the command line")
struct GPXCommandTests {
    /// Writes `bytes` to a fresh temporary file.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "lifeline-gpx-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
            ).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("bench gpx reads its synthetic track and prints every figure on one line")
    func benchGPX() {
        let result = runTool(["bench", "gpx", "--points", "3000"])
        #expect(result.code == 0)
        let line = result.standard.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n"))
        let keys = line.split(separator: " ").map {
            $0.split(separator: "=").first.map(String.init)
        }
        #expect(keys == ["points", "file_mb", "wall_s", "points_per_s", "peak_rss_mb", "route_mb"])
        #expect(line.hasPrefix("points=3000 file_mb=0.2"))
        // 3,000 × (24-byte waypoint + 8-byte leg speed) − 8 bytes is 0.09 MiB.
        #expect(line.hasSuffix(" route_mb=0.09"))
        #expect(runTool(["bench", "gpx", "--points", "0"]).code == 2)
    }

    @Test(
        "a bad GPX file given to --gpx exits 2 (bad input) with its line and the problem in words",
        arguments: [
            (
                Array("<gpx>\n<trk><trkseg>\n".utf8) + [0, 1, 2],
                ":3: not a text file: it has a NUL byte"
            ),
            (
                Array("<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trk>\n</gpx>\n".utf8),
                ":4: not well-formed XML: </trk> closes <trkseg> (opened on line 2); expected </trkseg>"
            ),
            (
                Array(
                    """
                    <gpx>
                    <wpt lat="1" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                    <wpt lat="1.5" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                    </gpx>
                    """.utf8),
                ":3: time 2026-11-29T07:00:00Z is also the time of the point on line 2"
            ),
            (
                Array(
                    """
                    <gpx>
                    <wpt lat="1" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                    <wpt lat="1.5" lon="2"><time>2026-11-29T07:01:00Z</time></wpt>
                    </gpx>
                    """.utf8),
                ":3: the leg from line 2 to line 3 covers 55597.5 m in 60.000 s (926.6 m/s), "
                    + "faster than 400 m/s"
            ),
        ] as [([UInt8], String)])
    func badTrack(bytes: [UInt8], message: String) throws {
        let path = try write("bad-\(message.count).gpx", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = runTool(["experiment", "background", "--gpx", path])
        #expect(result.code == 2)
        #expect(result.error.contains(path + message), "\(result.error)")
        #expect(result.standard.isEmpty)
    }
}
