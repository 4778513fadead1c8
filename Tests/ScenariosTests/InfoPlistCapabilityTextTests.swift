// The capabilities line carries the Info.plist's background modes and permitted task
// identifiers (R-H11), so that a scenario found with `--info-plist` replays as it ran.
import Scenarios
import Testing
import World

@Suite("The capabilities line's background modes and task identifiers")
struct InfoPlistCapabilityTextTests {
    static let lines = [
        "engine session", "authorization always", "CAPABILITIES", "horizon 5m",
        "route from 51.5007,-0.1246 heading 90", "  drive 5m at 13.9 m/s", "events", "  0s open",
        "end",
    ]

    static func text(_ capabilities: String) -> String {
        lines.map { $0 == "CAPABILITIES" ? capabilities : $0 }.joined(separator: "\n")
    }

    @Test("modes and tasks are read, printed and read back the same")
    func roundTrip() throws {
        let scenario = try Scenario(
            parsing: Self.text(
                "capabilities location-background modes=location,fetch tasks=com.example.refresh"),
            path: "x")
        #expect(scenario.capabilities.backgroundModes == ["location", "fetch"])
        #expect(scenario.capabilities.permittedTaskIdentifiers == ["com.example.refresh"])
        #expect(scenario.description.contains("modes=location,fetch tasks=com.example.refresh"))
        #expect(try Scenario(parsing: scenario.description, path: "y") == scenario)
    }

    @Test("an empty list is 'none', and a line without them declares nothing (nil)")
    func emptyAndAbsent() throws {
        let empty = try Scenario(parsing: Self.text("capabilities none modes=none"), path: "x")
        #expect(empty.capabilities.backgroundModes == [])
        #expect(empty.capabilities.permittedTaskIdentifiers == nil)
        #expect(!empty.capabilities.locationBackgroundMode)
        #expect(try Scenario(parsing: empty.description, path: "y") == empty)
        let absent = try Scenario(parsing: Self.text("capabilities scene-based"), path: "x")
        #expect(absent.capabilities.backgroundModes == nil)
        #expect(!absent.description.contains("modes="))
    }

    @Test(
        "an unknown mode, an empty list and a capability after 'none' are errors naming the line",
        arguments: [
            (
                "capabilities location-background modes=locaton",
                "x:3:34: expected background modes (audio, location, voip, external-accessory, "
                    + "bluetooth-central, bluetooth-peripheral, fetch, remote-notification, "
                    + "processing, nearby-interaction, push-to-talk), found 'locaton'"
            ),
            (
                "capabilities tasks=",
                "x:3:14: expected a comma-separated list after 'tasks=', or 'none', found 'tasks='"
            ),
            (
                "capabilities none scene-based",
                "x:3:19: expected 'modes=…' or 'tasks=…' after 'none', found 'scene-based'"
            ),
        ])
    func errors(line: String, message: String) {
        #expect {
            try Scenario(parsing: Self.text(line), path: "x")
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test(
        "the line's modes reach the world: without remote-notification a background push is dropped (R-H11)"
    )
    func modesReachTheWorld() throws {
        func droppedPushes(_ capabilities: String) throws -> Int {
            let text = [
                "engine session", "authorization always", capabilities, "horizon 5m",
                "route from 51.5007,-0.1246 heading 90", "  park 5m", "events", "  0s open",
                "  30s leave", "  2m silent-push", "end",
            ].joined(separator: "\n")
            let run = try Scenario(parsing: text, path: "x").run()
            return run.world.log.count { entry in
                guard case .dropped(.wake(_, .remoteNotification), _) = entry.kind else {
                    return false
                }
                return true
            }
        }
        #expect(try droppedPushes("capabilities location-background scene-based") == 0)
        #expect(
            try droppedPushes("capabilities location-background scene-based modes=location") == 1)
        #expect(
            try droppedPushes(
                "capabilities location-background scene-based modes=location,remote-notification")
                == 0)
    }
}
