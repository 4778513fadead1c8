// A team's engines in every command (`LifelineCLI.main(engines:)`): named by `--engine` and by
// scenario files, listed as custom, and refused with exit 2 when their names clash.
import Engines
import Foundation
import Testing

@testable import LifelineCommands

/// The team's engine of these tests: the session engine under another name.
let mine = CustomEngine(name: "mine", summary: "our tracker") { rules in
    BuiltInEngine.session.make(launchRules: rules)
}

@Suite("Custom engines in every command")
struct CustomEngineCommandTests {
    @Test("two engines of one name exit 2 with every known name, before any command runs")
    func duplicateNames() {
        let result = runTool(["engines"], engines: [mine, mine])
        #expect(result.code == 2)
        #expect(result.error.contains("the custom engine 'mine' is registered twice"))
        #expect(result.error.contains("built-in location-runtime, session, standard"))
        #expect(result.error.contains("custom mine, mine"))
        #expect(result.standard.isEmpty)
    }

    @Test("a custom engine named as a built-in one exits 2, never a trap")
    func builtInName() {
        let clash = CustomEngine(name: "session", summary: "a clash") { rules in
            BuiltInEngine.session.make(launchRules: rules)
        }
        let result = runTool(["fuzz", "--engine", "session", "--cases", "1"], engines: [clash])
        #expect(result.code == 2)
        #expect(result.error.contains("'session' is a built-in engine's name"), "\(result.error)")
    }

    @Test("an unknown --engine lists the custom engines too")
    func unknownNameListsCustom() {
        for command in [["fuzz"], ["experiment", "matrix"], ["bench", "fuzz"]] {
            let result = runTool(command + ["--engine", "mien"], engines: [mine])
            #expect(result.code == 2, "\(command)")
            #expect(result.error.contains("no engine is called 'mien'"), "\(result.error)")
            #expect(result.error.contains("; custom mine"), "\(result.error)")
        }
    }

    @Test("lifeline engines lists a custom engine as custom")
    func listed() {
        let result = runTool(["engines", "--json"], engines: [mine])
        #expect(result.code == 0)
        #expect(
            result.standard.contains(
                "{\"name\": \"mine\", \"kind\": \"custom\", \"base\": null, "
                    + "\"summary\": \"our tracker\"}"), "\(result.standard)")
    }

    @Test("lifeline run of a scenario naming a custom engine prints its timeline and its SVG")
    func runScenario() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = folder.path("mine.scenario")
        try """
        engine mine
        authorization always
        horizon 20m
        route
          drive 5m at 13.9 m/s
          park 10m
        events
          0s open
          1m leave
          5m force-quit
        end
        """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let svg = folder.path("mine.svg")
        let result = runTool(["run", scenario, "--svg", svg], engines: [mine])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.standard.contains("engine    mine"), "\(result.standard)")
        #expect(result.standard.contains(">>"), "the timeline marks launches")
        #expect(FileManager.default.contents(atPath: svg).map { $0.count > 1000 } == true)
        let unknown = runTool(["run", scenario])
        #expect(unknown.code == 2, "without the engine registered, the file names no engine")
    }

    @Test("fuzz, sweep, diff and experiment matrix take --engine with a custom engine")
    func otherCommands() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fuzz = runTool(
            ["fuzz", "--engine", "mine", "--cases", "20", "--json", "--corpus", folder.path],
            engines: [mine])
        #expect(fuzz.code == 0, "\(fuzz.error)")
        #expect(fuzz.standard.contains("\"engine\": \"mine\", \"cases\": 20"), "\(fuzz.standard)")
        let matrix = runTool(
            ["experiment", "matrix", "--engine", "mine", "--json"], engines: [mine])
        #expect(matrix.code == 0, "\(matrix.error)")
        #expect(matrix.standard.components(separatedBy: "\"engine\": \"mine\"").count == 6)
        let sweep = runTool(
            ["sweep", "--param", "whenInUseGrace=5...6", "--engine", "mine", "--generated", "2"],
            engines: [mine])
        #expect(sweep.code == 0, "\(sweep.error)")
        #expect(sweep.standard.contains("mine"), "\(sweep.standard)")
        let diff = runTool(
            [
                "diff", "--policy", "measured", "--policy", "iOS18", "--engine", "mine",
                "--generated", "2",
            ],
            engines: [mine])
        #expect(diff.code <= 1, "\(diff.error)")
        #expect(diff.standard.contains("of 2 runs"), "\(diff.standard)")
    }
}
