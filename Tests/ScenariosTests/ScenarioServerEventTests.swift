// The server's behaviours and the Location Services switch as scenario events (R-N41, R-N43,
// R-N44, R-L40): each reads to its action, prints and reads back the same; a missing duration
// or a wrong word is an error at the file's line naming what was expected.
import Scenarios
import Simulation
import Testing
import World

@Suite("Scenario events: the server and the Location Services switch")
struct ScenarioServerEventTests {
    static let header = "engine session\nhorizon 10m\nroute\n  drive 5m at 13.9 m/s\nevents\n"

    @Test("each event reads as its action, prints and reads back the same")
    func roundTrip() throws {
        let lines: [(String, UserAction)] = [
            ("server down", .serverDown), ("server up", .serverUp),
            ("server slow 20s", .serverSlow(.seconds(20))),
            ("server throttling 2m", .serverThrottling(.minutes(2))),
            ("location-services off", .setLocationServices(false)),
            ("location-services on", .setLocationServices(true)),
        ]
        let text = Self.header + lines.map { "  1m \($0.0)\n" }.joined()
        let scenario = try Scenario(parsing: text, path: "server.scenario")
        #expect(scenario.events.map(\.event) == lines.map(\.1))
        let printed = scenario.description
        for (words, _) in lines { #expect(printed.contains("1m \(words)\n"), "\(words)") }
        #expect(try Scenario(parsing: printed, path: "printed.scenario") == scenario)
    }

    @Test("a throttling server without its Retry-After is an error at its line")
    func missingDuration() {
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(parsing: Self.header + "  1m server throttling\n", path: "bad.scenario")
        }
        #expect(error?.path == "bad.scenario")
        #expect(error?.line == 6)
        #expect(error?.message.contains("Retry-After") == true, "\(String(describing: error))")
    }

    @Test("a switch set to neither on nor off is an error naming both")
    func wrongWord() {
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(
                parsing: Self.header + "  1m location-services maybe\n", path: "bad.scenario")
        }
        #expect(error?.line == 6)
        #expect(error?.message.contains("on") == true && error?.message.contains("off") == true)
        #expect(error?.message.contains("maybe") == true, "\(String(describing: error))")
    }
}
