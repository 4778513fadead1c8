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
        "a policy file given with --policy changes the outcome; a bad one names its line and exits 1"
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
        #expect(bad.code == 1)
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
