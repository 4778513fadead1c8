// no-state-outliving-process: an engine whose state survives a simulated kill (a static, a
// global, a singleton) is caught before the search; the built-in engines are not (issue 24).
import Engines
import Foundation
import Scenarios
import Simulation
import Testing

@testable import Fuzzing

@Suite("State that outlives a simulated process")
struct ProcessStateCheckTests {
    /// Launches counted outside any simulated process, as a `static var` would count them.
    final class LaunchCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var launches = 0
        func next() -> Int {
            lock.withLock {
                launches += 1
                return launches
            }
        }
    }

    /// The session engine, except that a launch after the first one this real process ever
    /// made takes itself for a relaunch and waits for the user's switch: the "already started"
    /// flag kept in a static.
    static func rememberingEngine() -> CustomEngine {
        let counter = LaunchCounter()
        return CustomEngine(
            name: "remembering", summary: "the session engine with a launch count in a static"
        ) { rules in
            counter.next() == 1
                ? BuiltInEngine.session.make(launchRules: rules)
                : BuiltInEngine.session.make(launchRules: rules, trackingStart: .onUserToggle)
        }
    }

    @Test("an engine that keeps a launch count past its process is caught, with the remedy")
    func staticStateIsCaught() throws {
        var settings = FuzzSettings(engine: .custom(Self.rememberingEngine()))
        settings.caseCount = 20
        settings.explainRunMax = 0
        let report = try Fuzzer.fuzz(settings)
        let failure = try #require(report.failure)
        #expect(failure.invariant == "no-state-outliving-process")
        let explanation = failure.violations.first?.explanation ?? ""
        #expect(explanation.contains("run twice in one process differed"))
        #expect(explanation.contains("ProcessLocal"))
        // Found before the search: no generated case was counted.
        #expect(report.cases == 0)
    }

    @Test(
        "the built-in engines run the same scenario twice alike", arguments: BuiltInEngine.allCases)
    func builtInEnginesAgree(_ engine: BuiltInEngine) {
        let settings = FuzzSettings(engine: .builtIn(engine))
        for caseIndex in 0..<3 {
            let testCase = Fuzzer.generatedCase(caseIndex, settings: settings)
            let scenario = settings.generator.scenarios.generate(testCase)
            guard testCase.status == .valid else { continue }
            let failure = ProcessStateCheck.failure(scenario, caseIndex: caseIndex)
            #expect(failure == nil, "\(failure?.violations.first?.explanation ?? "")")
        }
    }
}
