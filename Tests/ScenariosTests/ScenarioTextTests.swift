// The `.scenario` text format: the sample reads as the scenario it describes, the
// builder prints the canonical text, and printing a parsed file is a fixed point.
import Engines
import Scenarios
import Simulation
import Testing
import World

/// The sample of the brief, with a comment after a directive.
let sampleText = """
    # force-quit while driving
    engine session stopOnTerminate=false startOnBoot=true
    policy measured whenInUseGrace=5s
    authorization always
    accuracy full
    capabilities location-background   # no scene life cycle
    ordering pct:7:3
    seed 42
    horizon 40m
    route
      drive 5m at 13.9 m/s
      park 20m
      drive 15m at 13.9 m/s heading +90
    events
      0s open
      60s leave
      5m force-quit
    """

/// The sample as a builder writes it.
let sampleScenario = Scenario.build {
    $0.engine = ScenarioEngine(.session, startOnBoot: true)
    $0.override("whenInUseGrace", "5s")
    $0.authorization = .always
    $0.capabilities = AppCapabilities(locationBackgroundMode: true, sceneBased: false)
    $0.ordering = .pct(seed: 7, depth: 3)
    $0.seed = 42
    $0.horizon = .minutes(40)
    $0.drive(.minutes(5), speed: 13.9)
    $0.park(.minutes(20))
    $0.drive(.minutes(15), speed: 13.9, turn: 90)
    $0.at(.zero, .open)
    $0.at(.seconds(60), .leave)
    $0.at(.minutes(5), .forceQuit)
}

/// The sample's canonical text: every directive, defaults included, in the printer's order.
let sampleCanonicalText = """
    engine session startOnBoot=true
    policy measured whenInUseGrace=5s
    authorization always
    accuracy full
    capabilities location-background
    answers whenInUse=when-in-use always=always responseDelay=2s temporaryFullAccuracy=true
    ordering pct:7:3
    seed 42
    horizon 40m
    route from 51.5007,-0.1246 heading 90
      drive 5m at 13.9 m/s
      park 20m
      drive 15m at 13.9 m/s heading +90
    events
      0s open
      1m leave
      5m force-quit
    end

    """

@Suite("Scenario text")
struct ScenarioTextTests {
    @Test("the issue's sample reads as the scenario it describes")
    func sampleParses() throws {
        let scenario = try Scenario(parsing: sampleText, path: "force-quit.scenario")
        #expect(scenario == sampleScenario)
        #expect(scenario.engine.name == .builtIn(.session))
        #expect(scenario.engine.settings == .init(stopOnTerminate: false, startOnBoot: true))
        #expect(scenario.policy.overrides == [.init("whenInUseGrace", "5s")])
        #expect(scenario.events.map(\.event) == [.open, .leave, .forceQuit])
        #expect(scenario.route.segments.count == 3)
    }

    @Test("the builder prints the canonical text, and the text reads back to the same scenario")
    func builderPrintsCanonicalText() throws {
        #expect(sampleScenario.description == sampleCanonicalText)
        #expect(try Scenario(parsing: sampleCanonicalText, path: "x") == sampleScenario)
    }

    @Test("printing a parsed file is a fixed point")
    func printingIsAFixedPoint() throws {
        let once = try Scenario(parsing: sampleText, path: "a").description
        let twice = try Scenario(parsing: once, path: "b").description
        #expect(once == twice)
    }

    @Test("a minimal file takes the defaults of Scenario()")
    func minimalFile() throws {
        let scenario = try Scenario(
            parsing: "engine standard\nhorizon 1h\nroute\n", path: "minimal.scenario")
        var expected = Scenario()
        expected.engine = ScenarioEngine(.standard)
        #expect(scenario == expected)
    }

    /// Every action a file can write (`UserAction.readable`: each case, with each of its
    /// values), a kind with a duration at several, forward and back when signed.
    static var everyAction: [UserAction] {
        UserAction.readable.flatMap { action -> [UserAction] in
            guard case .duration(_, let signed, _, let make) = action.spelling.value else {
                return [action]
            }
            let durations: [VirtualDuration] = [.zero, .milliseconds(1_500), .minutes(5)]
            let back: [VirtualDuration] = signed ? [.zero - .seconds(90), .zero - .hours(2)] : []
            return (durations + back).map(make)
        }
    }

    @Test("every UserAction has its words, prints and reads back as itself, one by one")
    func everyActionRoundTrips() throws {
        for action in Self.everyAction {
            let spelling = action.spelling
            #expect(!spelling.words.isEmpty, "\(action) has no words")
            #expect(
                spelling.words.allSatisfy { !$0.isEmpty && !$0.contains(" ") },
                "each word of \(spelling.words) is one token of a file")
            let scenario = Scenario.build { $0.at(.seconds(1), action) }
            let text = scenario.description
            #expect(text.contains("\n  1s \(spelling.text)\n"), "printed with its words: \(text)")
            let read = try Scenario(parsing: text, path: "x")
            #expect(read.events.map(\.event) == [action], "\(spelling.text) reads back")
        }
    }

    @Test("every event prints and reads back, `launch` and `return` read as open")
    func everyEventRoundTrips() throws {
        let scenario = Scenario.build { builder in
            for (index, event) in Self.everyAction.enumerated() {
                builder.at(.seconds(Int64(index)), event)
            }
        }
        #expect(try Scenario(parsing: scenario.description, path: "x") == scenario)
        let aliases = try Scenario(
            parsing: "engine session\nhorizon 1m\nroute\nevents\n  0s launch\n  1s return\n",
            path: "x")
        #expect(aliases.events.map(\.event) == [.open, .open])
    }

    @Test("scenario files keep their words: each event reads as the action it always has")
    func wordsKept() throws {
        let lines: [(String, UserAction)] = [
            ("open", .open), ("launch", .open), ("return", .open), ("leave", .leave),
            ("lock", .lock), ("unlock", .unlock), ("force-quit", .forceQuit),
            ("memory-pressure", .memoryPressure), ("crash", .crash), ("exit", .exit),
            ("reboot", .reboot), ("authorization when-in-use", .setAuthorization(.whenInUse)),
            ("precise-location off", .setAccuracy(.reduced)),
            ("precise-location on", .setAccuracy(.full)), ("low-power on", .setLowPowerMode(true)),
            ("live-activity start", .startLiveActivity), ("live-activity end", .endLiveActivity),
            ("network down", .networkDown), ("network up", .networkUp),
            ("network slow 30s", .networkSlow(.seconds(30))),
            ("clock +5m", .adjustClock(by: .minutes(5))),
            ("clock 5m", .adjustClock(by: .minutes(5))),
            ("clock -90s", .adjustClock(by: .zero - .seconds(90))), ("tracking on", .trackingOn),
            ("tracking off", .trackingOff), ("test-host on", .attachTestHost(true)),
            ("test-host off", .attachTestHost(false)),
        ]
        for (words, action) in lines {
            let scenario = try Scenario(
                parsing: "engine session\nhorizon 1m\nroute\nevents\n  0s \(words)\n", path: "x")
            #expect(scenario.events.map(\.event) == [action], "\(words)")
        }
    }

    @Test("events added out of order are kept sorted by time, ties in the order added")
    func eventsStaySorted() {
        let scenario = Scenario.build {
            $0.at(.minutes(5), .forceQuit)
            $0.at(.zero, .open)
            $0.at(.minutes(5), .open)
            $0.at(.minutes(1), .leave)
        }
        #expect(scenario.events.map(\.event) == [.open, .leave, .forceQuit, .open])
    }

    @Test("a GPX route, answers, overrides and every capability print and read back")
    func otherDirectivesRoundTrip() throws {
        let scenario = Scenario.build {
            $0.route = .gpx(path: "commute.gpx", speedMetersPerSecond: 13.9)
            $0.answers = AuthorizationAnswers(
                whenInUse: .denied, always: .whenInUse, responseDelay: .milliseconds(2_500),
                temporaryFullAccuracy: false)
            $0.capabilities = AppCapabilities(locationBackgroundMode: false, sceneBased: false)
            $0.policy("iOS17")
            $0.override("fixInterval", "500ms")
            $0.override("regionCountMax", "5")
        }
        let text = scenario.description
        #expect(text.contains("route gpx commute.gpx speed 13.9\n"))
        #expect(text.contains("capabilities none\n"))
        #expect(text.contains("policy iOS17 fixInterval=500ms regionCountMax=5\n"))
        // The GPX file does not exist: reading the text checks it, so only compare the rest.
        var segments = scenario
        segments.route = Scenario().route
        #expect(try Scenario(parsing: segments.description, path: "x") == segments)
    }
}
