// The generator's public settings a team narrows or widens from its own tests: the presets
// drawn and a filter over the event kinds; their defaults draw what the fuzzer always drew.
import Engines
import Exploration
import Fuzzing
import Scenarios
import Simulation
import Testing

@Suite("Generator settings")
struct GeneratorSettingsTests {
    static func scenarios(_ generator: ScenarioGenerator, count: Int = 60) -> [Scenario] {
        (0..<count).compactMap { index in
            let testCase = TestCase(seed: Seed(1).derive(UInt64(index)).value)
            let scenario = generator.scenarios.generate(testCase)
            return testCase.status == .valid ? scenario : nil
        }
    }

    @Test("narrowed presets: every scenario is drawn under the one preset asked for")
    func presets() {
        var narrowed = ScenarioGenerator(engine: .builtIn(.session))
        narrowed.presets = ["iOS26"]
        let drawn = Self.scenarios(narrowed)
        #expect(drawn.count > 40)
        #expect(drawn.allSatisfy { $0.policy.preset == "iOS26" })
        let plain = Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)))
        #expect(plain.contains { $0.policy.preset != "iOS26" }, "the default draws others")
    }

    @Test("an event filter leaves out the kinds it refuses, and only those")
    func eventFilter() {
        var narrowed = ScenarioGenerator(engine: .builtIn(.session))
        narrowed.eventFilter = { $0 != .reboot }
        let plain = Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)), count: 200)
        let drawn = Self.scenarios(narrowed, count: 200)
        #expect(plain.contains { $0.events.contains { $0.event == .reboot } })
        #expect(!drawn.contains { $0.events.contains { $0.event == .reboot } })
        for (left, right) in zip(plain, drawn) {
            #expect(left.events.filter { $0.event != .reboot } == right.events)
        }
    }

    @Test("the default settings draw the same scenarios as the explicit defaults")
    func defaultsUnchanged() {
        var explicit = ScenarioGenerator(engine: .builtIn(.session))
        explicit.presets = ScenarioGenerator.defaultPresets
        explicit.eventFilter = { _ in true }
        let plain = Self.scenarios(ScenarioGenerator(engine: .builtIn(.session)))
        #expect(plain.map(\.description) == Self.scenarios(explicit).map(\.description))
    }
}
