// `lifeline experiment …`: the JSON the issue specifies, policy files from the command line,
// and usage errors.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Experiment commands")
struct ExperimentCommandTests {
    func json(_ arguments: [String]) throws -> [[String: Any]] {
        let result = runTool(arguments)
        #expect(result.code == 0, "\(result.error)")
        return try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [[String: Any]])
    }

    @Test("background --json: one object per probe with the specified keys")
    func backgroundJSON() throws {
        let rows = try json(["experiment", "background", "--json"])
        #expect(
            rows.map { $0["probe"] as? String } == ["plain", "background", "live", "live-session"])
        for row in rows {
            #expect(
                Set(row.keys) == ["probe", "fixes", "lastFixSeconds", "signal", "signalSeconds"])
        }
        #expect(rows[0]["signal"] as? String == "denied" && rows[2]["signal"] is NSNull)
        #expect(rows[0]["fixes"] as? Int == 10)
    }

    @Test("relaunch --json: launches in seconds and launch options per launch")
    func relaunchJSON() throws {
        let rows = try json(["experiment", "relaunch", "--json"])
        #expect(
            rows.map { $0["monitoring"] as? String } == [
                "significant-visits-condition", "none", "significant",
            ])
        #expect(rows.map { ($0["launches"] as? [Double])?.count } == [2, 0, 1])
        #expect((rows[0]["launchOptions"] as? [[String]]) == [[], []])
    }

    @Test(
        "a policy file given with --policy changes the outcome; a bad one names its line and exits 2"
    )
    func policyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "grace-\(UInt64.random(in: 0...UInt64.max)).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\n  \"whenInUseGrace\": \"5s\"\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let rows = try json(["experiment", "background", "--json", "--policy", path])
        #expect(rows[0]["lastFixSeconds"] as? Double == 6.45)
        try Data("{\n  \"whenInUseGrace\": 5\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let bad = runTool(["experiment", "background", "--policy", path])
        #expect(bad.code == 2 && bad.standard.isEmpty)
        #expect(bad.error.contains("\(path):2: 'whenInUseGrace' expects a duration string"))
    }

    @Test(
        "experiment usage errors exit 2",
        arguments: [
            (["experiment"], "experiment needs a name"),
            (["experiment", "foreground"], "unknown experiment 'foreground'"),
            (["experiment", "background", "--window", "0"], "--window takes a number"),
            (["experiment", "relaunch", "--window", "5"], "unknown option '--window'"),
        ] as [([String], String)])
    func usage(arguments: [String], message: String) {
        let result = runTool(arguments)
        #expect(result.code == 2 && result.error.contains(message))
    }
}

@Suite("Experiment routes")
struct ExperimentRouteTests {
    @Test("--gpx drives a GPX route; a bad GPX file names its line, exits 2, and nothing runs")
    func gpxRoute() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("drive-\(UInt64.random(in: 0...UInt64.max)).gpx").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 10 m/s east for 200 s: significant change at 500 m (50 s), plus 14 s and 1 s.
        try Data(
            """
            <gpx version="1.1" creator="Xcode">
            <wpt lat="51.5007" lon="-0.1246"><time>2026-11-29T07:00:00Z</time></wpt>
            <wpt lat="51.5007" lon="-0.0957"><time>2026-11-29T07:03:20Z</time></wpt>
            </gpx>
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let result = runTool(["experiment", "relaunch", "--json", "--gpx", path])
        #expect(result.code == 0)
        let rows = try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [[String: Any]])
        let launches = try #require(rows.last?["launches"] as? [Double])
        #expect(launches.count == 1 && abs(launches[0] - 65) < 0.5)
        try Data("<gpx>\n<wpt lat=\"1\" lon=\"200\"/>\n</gpx>\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let bad = runTool(["experiment", "background", "--gpx", path])
        #expect(bad.code == 2 && bad.standard.isEmpty)
        #expect(bad.error.contains("\(path):2: lon '200' is not a longitude"))
    }

    @Test(
        "background --gpx: a parked track pauses live updates with a session (R-C2); a walk does not"
    )
    func gpxDrivesBackground() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpx-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ points: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try Data("<gpx version=\"1.1\" creator=\"Xcode\">\n\(points)\n</gpx>\n".utf8)
                .write(to: URL(fileURLWithPath: path))
            return path
        }
        // One waypoint: parked. Two, 840 m apart over 10 minutes: a 1.4 m/s walk north.
        let parked = try write("parked.gpx", #"<wpt lat="51.5007" lon="-0.1246"/>"#)
        let walk = try write(
            "walk.gpx",
            """
            <wpt lat="51.5007" lon="-0.1246"><time>2026-11-29T07:00:00Z</time></wpt>
            <wpt lat="51.508254" lon="-0.1246"><time>2026-11-29T07:10:00Z</time></wpt>
            """)
        func lastFix(_ path: String, _ probe: String) throws -> Double {
            let result = runTool([
                "experiment", "background", "--json", "--window", "300", "--gpx", path,
            ])
            #expect(result.code == 0, "\(result.error)")
            let rows = try #require(
                JSONSerialization.jsonObject(with: Data(result.standard.utf8))
                    as? [[String: Any]])
            let row = try #require(rows.first { $0["probe"] as? String == probe })
            return try #require(row["lastFixSeconds"] as? Double)
        }
        #expect(try lastFix(parked, "live-session") < 120)
        #expect(try lastFix(walk, "live-session") > 300)
        #expect(try lastFix(parked, "background") > 300, "a manager pauses after 15 min (R-F4)")
    }
}
