// The example tracker in the tool: `LifelineCLI.main(engines: [delegateTracker])` is a team's
// `lifeline` with it; here its commands run in-process with the same engines.
import Engines
import ExampleEngines
import Foundation
import LifelineCommands
import Testing

/// Runs the tool's commands with `engines` registered, as `LifelineCLI.main(engines:)` does.
func runTool(_ arguments: [String], engines: [CustomEngine])
    -> (code: Int32, standard: String, error: String)
{
    final class Buffer {
        var standard = ""
        var error = ""
    }
    let buffer = Buffer()
    let output = CommandOutput(
        standard: { buffer.standard += $0 + "\n" }, error: { buffer.error += $0 + "\n" })
    let code = LifelineCommand.run(arguments: arguments, output: output, engines: engines)
    return (code, buffer.standard, buffer.error)
}

@Suite("LifelineKit: the example tracker in the tool")
struct ExampleCommandLineTests {
    @Test("lifeline engines lists it as custom, and lifeline run runs a scenario naming it")
    func listedAndRun() throws {
        let listed = runTool(["engines", "--json"], engines: [delegateTracker])
        #expect(listed.code == 0)
        #expect(listed.standard.contains("\"name\": \"delegate-tracker\", \"kind\": \"custom\""))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-kit-\(ProcessInfo.processInfo.processIdentifier).scenario"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        engine delegate-tracker
        policy iOS18
        authorization always
        horizon 20m
        route
          drive 5m at 13.9 m/s
          park 10m
        events
          0s open
          1m leave
          2m force-quit
        end
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = runTool(["run", path], engines: [delegateTracker])
        #expect(run.standard.contains("engine    delegate-tracker"), "\(run.standard)")
        #expect(run.standard.contains("launch background"), "relaunched after the force-quit")
        // It keeps its fixes on the device, and its profile says so (no server): uploaded-once
        // does not judge it, and it breaks no other invariant.
        #expect(run.code == 0, "\(run.standard)")
        #expect(!run.standard.contains("uploaded-once"))
        #expect(!run.standard.contains("bounded-gaps:"), "\(run.standard)")
    }
}
