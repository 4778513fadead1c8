// The scenario format's beacons (R-L45) and charger action (R-B2): printed and read back to
// the same scenario, placed on the route, and bad input refused at its file, line and column.
import Simulation
import Testing
import World

@testable import Scenarios

@Suite("Scenarios: beacons and the charger")
struct BeaconAndChargerScenarioTests {
    static let text = """
        engine session
        horizon 30m
        route from 51.5007,-0.1246 heading 90
          park 5m
          drive 20m at 13.9 m/s
        beacons
          E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 7 1 at 10m
          e2c56db5-dffb-48d2-b060-d0f5a71096e0 7 2 at 0s
        events
          0s open
          2m charger on
          9m charger off
        end
        """

    @Test("R-L45, R-B2: beacons and charger events print and read back the same")
    func roundTrip() throws {
        let scenario = try Scenario(parsing: Self.text, path: "beacons.scenario")
        #expect(scenario.beacons.count == 2)
        #expect(scenario.beacons[1].uuid == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(scenario.events.map(\.event) == [.open, .setCharger(true), .setCharger(false)])
        let printed = scenario.description
        #expect(printed.contains("beacons\n  E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 7 1 at 10m\n"))
        #expect(printed.contains("  2m charger on\n"))
        #expect(try Scenario(parsing: printed, path: "printed.scenario") == scenario)
    }

    @Test("R-L45: a beacon stands where the device is at its time along the route")
    func beaconOnTheRoute() throws {
        let scenario = try Scenario(parsing: Self.text, path: "beacons.scenario")
        let configuration = try scenario.worldConfiguration()
        let route = configuration.route
        #expect(configuration.beacons.map(\.minor) == [1, 2])
        #expect(configuration.beacons[0].coordinate == route.position(at: .start + .minutes(10)))
        #expect(configuration.beacons[1].coordinate == route.position(at: .start))
        #expect(
            try Scenario(parsing: "engine session\nhorizon 1m\nroute\n", path: "p")
                .worldConfiguration().beacons.isEmpty)
    }

    @Test(
        "bad beacons and charger values are errors at their file, line and column",
        arguments: [
            (
                "  E2C56DB5-DFFB 7 1 at 10m",
                "bad.scenario:5:3: expected a beacon's UUID (8-4-4-4-12 hexadecimal digits), "
                    + "found 'E2C56DB5-DFFB'"
            ),
            (
                "  E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 70000 1 at 10m",
                "bad.scenario:5:40: expected a major from 0 to 65535, found '70000'"
            ),
            (
                "  E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 7 1 near 10m",
                "bad.scenario:5:44: expected 'at DURATION', found 'near'"
            ),
        ])
    func badBeacon(line: String, error: String) {
        let lines = ["engine session", "horizon 10m", "route", "beacons", line]
        let thrown = #expect(throws: ScenarioParseError.self) {
            try Scenario(parsing: lines.joined(separator: "\n"), path: "bad.scenario")
        }
        #expect(thrown?.description == error)
    }

    @Test("R-B2: a charger that is neither on nor off is an error at its column")
    func badCharger() {
        let text = "engine session\nhorizon 10m\nroute\nevents\n  1m charger maybe\n"
        let thrown = #expect(throws: ScenarioParseError.self) {
            try Scenario(parsing: text, path: "bad.scenario")
        }
        #expect(
            thrown?.description == "bad.scenario:5:14: expected on or off (on, off), found 'maybe'")
    }
}
