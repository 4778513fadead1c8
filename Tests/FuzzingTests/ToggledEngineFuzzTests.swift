// An app that waits for its user's switch (`TrackingStart.onUserToggle`) under the fuzzer:
// every scenario turns tracking on early, and the correct engine passes (issue 21).
import Engines
import Exploration
import Scenarios
import Simulation
import Testing

@testable import Fuzzing

@Suite("Fuzzing an app that waits for its switch")
struct ToggledEngineFuzzTests {
    /// The session engine in a host app that starts tracking only when the user turns it on.
    static var toggledSession: CustomEngine {
        var engine = CustomEngine(
            name: "toggled-session", summary: "the session engine, tracking on the user's switch"
        ) { rules in BuiltInEngine.session.make(launchRules: rules, trackingStart: .onUserToggle) }
        engine.profile.trackingStart = .onUserToggle
        return engine
    }

    @Test("the correct engine passes, and its runs store fixes after the switch")
    func correctEnginePasses() throws {
        var settings = FuzzSettings(engine: .custom(Self.toggledSession))
        settings.caseCount = 30
        settings.explainRunMax = 0
        let report = try Fuzzer.fuzz(settings)
        #expect(report.failure == nil, "\(report.failure.map { "\($0.violations)" } ?? "")")
        #expect(report.cases == 30)
        var storing = 0
        let scenarios = settings.generator.scenarios
        for index in 0..<20 {
            let testCase = TestCase(seed: Seed(1).derive(UInt64(index)).value)
            let scenario = scenarios.generate(testCase)
            guard testCase.status == .valid else { continue }
            let run = try scenario.run()
            if !run.world.storedRows.isEmpty { storing += 1 }
        }
        #expect(storing > 5)
    }
}
