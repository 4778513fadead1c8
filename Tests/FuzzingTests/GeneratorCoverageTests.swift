// What the generator draws (issue 21): every action the world accepts and every preset, and
// the app's facts from its profile kept fixed unless the profile is fuzzed too.
import EngineMutants
import Engines
import Exploration
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Generator coverage and the app's profile")
struct GeneratorCoverageTests {
    /// The kinds of action a scenario file can write, each case of `UserAction` one, by its
    /// words (`UserAction.Spelling.kind`: `network slow`, `precise-location`).
    static let kinds: [String] = UserAction.readable.map(\.spelling.kind).reduce(into: []) {
        if !$0.contains($1) { $0.append($1) }
    }

    /// The valid scenarios of `generator` for case seeds `0..<count` of seed 1.
    static func scenarios(_ generator: ScenarioGenerator, count: Int) -> [Scenario] {
        let scenarios = generator.scenarios
        return (0..<count).compactMap { index in
            let testCase = TestCase(seed: Seed(1).derive(UInt64(index)).value)
            let scenario = scenarios.generate(testCase)
            return testCase.status == .valid ? scenario : nil
        }
    }

    /// The kinds drawn only with `drawsServerAndLocationServices`.
    static let serverKinds = [
        "server down", "server up", "server slow", "server throttling",
        "location-services",
    ]

    /// The kinds of action drawn in the scenarios of `generator` for case seeds `0..<count`.
    static func kindsDrawn(_ generator: ScenarioGenerator, count: Int) -> Set<String> {
        var seen = Set<String>()
        for scenario in Self.scenarios(generator, count: count) {
            for timed in scenario.events { seen.insert(timed.event.spelling.kind) }
        }
        return seen
    }

    @Test("every UserAction case is drawn, and every preset", arguments: EngineChoice.all)
    func everyActionDrawn(engine: EngineChoice) {
        var generator = ScenarioGenerator(engine: engine)
        generator.drawsCharger = true
        let drawn = Self.scenarios(generator, count: 1_000)
        var seen = Set<String>()
        for scenario in drawn {
            for timed in scenario.events { seen.insert(timed.event.spelling.kind) }
        }
        let missing = Self.kinds.filter { !seen.contains($0) && !Self.serverKinds.contains($0) }
        #expect(missing.isEmpty, "UserAction cases never drawn: \(missing)")
        let drawnServer = Self.serverKinds.filter { seen.contains($0) }
        #expect(drawnServer.isEmpty, "drawn without the option: \(drawnServer)")
        let unreadable = seen.filter { !Self.kinds.contains($0) }.sorted()
        #expect(unreadable.isEmpty, "drawn but not in UserAction.readable: \(unreadable)")
        let presets = Set(drawn.map(\.policy.preset))
        #expect(presets == Set(IOSPolicy.presetNames), "presets drawn: \(presets.sorted())")
    }

    @Test("R-B2: the charger is drawn only when the generator is asked to")
    func chargerOnlyWhenAsked() {
        let plain = Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)), count: 300)
        #expect(!plain.contains { $0.events.contains { $0.event.spelling.kind == "charger" } })
        var generator = ScenarioGenerator(engine: .builtIn(.session))
        generator.drawsCharger = true
        let charged = Self.scenarios(generator, count: 300)
        #expect(charged.contains { $0.events.contains { $0.event == .setCharger(true) } })
        #expect(charged.contains { $0.events.contains { $0.event == .setCharger(false) } })
    }

    @Test(
        "R-N41, R-N43, R-L40: with drawsServerAndLocationServices the server's behaviours, the switch and a 500 rate are drawn"
    )
    func serverAndSwitchDrawn() {
        var generator = ScenarioGenerator(engine: .builtIn(.standard))
        generator.drawsServerAndLocationServices = true
        let seen = Self.kindsDrawn(generator, count: 1_000)
        let missing = Self.serverKinds.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "never drawn with the option: \(missing)")
        let erring = Self.scenarios(generator, count: 200).filter { scenario in
            scenario.policy.overrides.contains { $0.key == "serverErrorPercent" }
        }
        #expect(!erring.isEmpty, "serverErrorPercent drawn")
    }

    @Test("clock adjustments stay within ±30 s of the start, inside R-B12's 60 s tolerance")
    func clockWithinTolerance() {
        var adjusted = 0
        for scenario in Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)), count: 500) {
            var total = VirtualDuration.zero
            for timed in scenario.events {
                guard case .adjustClock(let offset) = timed.event else { continue }
                adjusted += 1
                total = total + offset
                #expect(total <= .seconds(30) && total >= .zero - .seconds(30))
            }
        }
        #expect(adjusted > 20)
    }

    @Test("a fixed profile keeps its background mode, launch rules and authorizations")
    func profileKept() {
        var profile = AppProfile(
            authorization: AuthorizationRequest(.whenInUse, at: .atFirstLaunch),
            launchRules: LaunchRules(stopOnTerminate: true, startOnBoot: false))
        profile.capabilities.sceneBased = false
        var generator = ScenarioGenerator(engine: .builtIn(.session))
        generator.profile = profile
        let drawn = Self.scenarios(generator, count: 400)
        #expect(drawn.count > 300)
        for scenario in drawn {
            #expect(scenario.capabilities == profile.capabilities)
            #expect(scenario.engine.settings.stopOnTerminate)
            #expect(!scenario.engine.settings.startOnBoot)
            #expect(scenario.authorization != .always)
            #expect(scenario.answers.always == AuthorizationAnswers().always)
            for timed in scenario.events {
                #expect(timed.event != .setAuthorization(.always))
            }
        }
        #expect(drawn.contains { $0.answers.whenInUse == .denied })
    }

    @Test("the built-in profiles never lose the mode; --fuzz-profile drops it now and then")
    func fuzzesProfile() {
        let kept = Self.scenarios(ScenarioGenerator(engine: .builtIn(.standard)), count: 300)
        #expect(kept.allSatisfy { $0.capabilities.locationBackgroundMode })
        var generator = ScenarioGenerator(engine: .builtIn(.standard))
        generator.fuzzesProfile = true
        let fuzzed = Self.scenarios(generator, count: 300)
        #expect(fuzzed.contains { !$0.capabilities.locationBackgroundMode })
        let capabilityMutant = Self.scenarios(
            ScenarioGenerator(engine: .mutant(.backgroundWithoutCapability)), count: 100)
        #expect(capabilityMutant.allSatisfy { !$0.capabilities.locationBackgroundMode })
    }

    @Test("onUserToggle: every scenario turns tracking on within two minutes of the opening")
    func trackingOnEarly() {
        var generator = ScenarioGenerator(engine: .builtIn(.session))
        generator.profile.trackingStart = .onUserToggle
        let drawn = Self.scenarios(generator, count: 200)
        #expect(drawn.count > 150)
        for scenario in drawn {
            let first = scenario.events.first { $0.event == .trackingOn }
            #expect(first.map { $0.at <= .minutes(2) } == true)
        }
        let atFirstLaunch = Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)), count: 50)
        #expect(atFirstLaunch.contains { !$0.events.contains { $0.event == .trackingOn } })
    }
}
