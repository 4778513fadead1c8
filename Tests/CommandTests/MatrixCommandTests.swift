// `lifeline experiment matrix`: the JSON the engines issue specifies, the engine and policy
// choices, and usage errors.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Matrix command")
struct MatrixCommandTests {
    func rows(_ arguments: [String]) throws -> [[String: Any]] {
        let result = runTool(["experiment", "matrix", "--json"] + arguments)
        #expect(result.code == 0, "\(result.error)")
        return try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [[String: Any]])
    }

    @Test("matrix --json --engine session: five rows with the specified keys and scenario ids")
    func sessionJSON() throws {
        let rows = try rows(["--engine", "session"])
        #expect(
            rows.map { $0["scenario"] as? String } == [
                "backgrounded", "suspended-parked", "memory-kill", "force-quit", "reboot-parked",
            ])
        for row in rows {
            #expect(
                Set(row.keys) == [
                    "engine", "scenario", "gapSeconds", "fixesLost", "relaunchSeconds",
                ])
            #expect(row["engine"] as? String == "session")
        }
        // No relaunch is null; a relaunch is a number of seconds.
        #expect(rows[0]["relaunchSeconds"] is NSNull)
        #expect(rows[3]["relaunchSeconds"] as? Double == 1)
    }

    @Test("--policy takes a preset name: iOS26 moves the reboot row's relaunch to the drive-off")
    func presetPolicy() throws {
        let measured = try rows(["--engine", "session"])
        let iOS26 = try rows(["--engine", "session", "--policy", "iOS26"])
        let measuredReboot = try #require(measured[4]["relaunchSeconds"] as? Double)
        let iOS26Reboot = try #require(iOS26[4]["relaunchSeconds"] as? Double)
        #expect(measuredReboot == 60)
        #expect(iOS26Reboot > 600)
    }

    @Test(
        "bad usage exits with 2 and names the option",
        arguments: [
            (["--engine", "bogus"], "no engine is called 'bogus'; the engines are built-in"),
            (["--policy"], "--policy"),
            (["--speed", "3"], "--speed"),
        ] as [([String], String)])
    func usage(arguments: [String], message: String) {
        let result = runTool(["experiment", "matrix"] + arguments)
        #expect(result.code == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }
}
