// The `server` line of a `.scenario` file: the server's deduplication, printed only when given
// and read back to the same scenario; left out, a run takes the engine's profile's.
import Engines
import Scenarios
import Simulation
import Testing
import World

@Suite("The scenario's server line")
struct ScenarioServerTests {
    let header = "engine session\nhorizon 10m\nroute\n  drive 1m at 13.9 m/s\n"

    @Test("server stores-every-request reads, prints before the horizon, and reads back the same")
    func roundTrip() throws {
        let scenario = try Scenario(
            parsing: header + "server stores-every-request\n", path: "server.scenario")
        #expect(scenario.serverDeduplication == .storesEveryRequest)
        let text = scenario.description
        #expect(text.contains("\nseed 1\nserver stores-every-request\nhorizon 10m\n"), "\(text)")
        #expect(try Scenario(parsing: text, path: "printed.scenario") == scenario)
        #expect(try scenario.worldConfiguration().serverDeduplication == .storesEveryRequest)
    }

    @Test("without a server line nothing is printed and the run takes the profile's, by key")
    func profileDefault() throws {
        let scenario = try Scenario(parsing: header, path: "plain.scenario")
        #expect(scenario.serverDeduplication == nil)
        #expect(!scenario.description.contains("server"))
        #expect(BuiltInEngine.session.profile.serverDeduplication == .byKey)
        #expect(try scenario.worldConfiguration().serverDeduplication == .byKey)
    }

    @Test("an unknown value is an error at its line and column naming what was expected")
    func unknownValue() {
        #expect(
            throws: ScenarioParseError(
                path: "bad.scenario", line: 5, column: 8,
                message: "expected the server's deduplication (deduplicates-by-key, "
                    + "stores-every-request), found 'dedupes'")
        ) { try Scenario(parsing: header + "server dedupes\n", path: "bad.scenario") }
    }
}
