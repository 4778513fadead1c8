// How an explanation reads: its heading, one line per event window in each of its forms, the
// free settings wrapped under 100 columns; and the fuzzer attaching one to its failure.
import EngineMutants
import Engines
import Scenarios
import Simulation
import Testing

@testable import Fuzzing

@Suite("Explanation text")
struct ExplanationTextTests {
    @Test("windows read as anywhere, only at, or from … to; settings wrap under their list")
    func lines() {
        let windows = [
            FailureExplanation.EventWindow(
                index: 0, event: .init(at: .zero, .open), earliest: .zero, latest: .minutes(11),
                isEarliestExact: true, isLatestExact: true, isAnywhere: true),
            FailureExplanation.EventWindow(
                index: 1, event: .init(at: .minutes(1), .forceQuit), earliest: .seconds(40),
                latest: .seconds(465), isEarliestExact: true, isLatestExact: true,
                isAnywhere: false),
            FailureExplanation.EventWindow(
                index: 2, event: .init(at: .milliseconds(120_500), .open),
                earliest: .milliseconds(120_500), latest: .milliseconds(120_500),
                isEarliestExact: true, isLatestExact: false, isAnywhere: false),
        ]
        let explanation = FailureExplanation(
            eventWindows: windows,
            freeSettings: DiscreteSetting.all.map(\.name), runs: 24, isBudgetSpent: false)
        let under = String(repeating: " ", count: "  could be anything: ".count)
        #expect(
            explanation.lines == [
                "Explained (24 runs):",
                "  00:00:00 open: anywhere",
                "  00:01:00 force-quit: anywhere from 00:00:40 to 00:07:45",
                "  00:02:00.500 open: only at 00:02:00.500 (or wider: the probe budget ran out)",
                "  could be anything: stopOnTerminate, startOnBoot, policy, authorization, "
                    + "accuracy,",
                under + "location-background, scene-based, answers.whenInUse, answers.always,",
                under + "answers.temporaryFullAccuracy, ordering, seed",
            ])
        #expect(explanation.lines.allSatisfy { $0.count <= FailureExplanation.lineWidthMax })
        let none = FailureExplanation(
            eventWindows: [], freeSettings: [], runs: 3, isBudgetSpent: true)
        #expect(
            none.description == """
                Explained (3 runs):
                  could be anything: no setting tried
                  (the explain budget ran out: the rest was not probed)
                """)
    }

    @Test("the fuzzer explains the failure it shrank, unless its budget is 0")
    func fuzzerExplains() throws {
        let engine = EngineChoice.mutant(.sessionFromBackground)
        var settings = FuzzSettings(engine: engine)
        settings.caseCount = 300
        // Budgets of tens of runs, not the default thousands: the test compares two
        // explanations of whatever the shrinker left, not their depth.
        settings.shrinkEvaluationMax = 40
        settings.explainRunMax = 60
        let failure = try #require(try Fuzzer.fuzz(settings).failure)
        let invariant = try #require(settings.invariants.first { $0.name == failure.invariant })
        let explanation = try #require(failure.explanation)
        #expect(
            explanation
                == Fuzzer.explain(
                    failure.scenario, failing: invariant, runMax: settings.explainRunMax,
                    eventRunMax: settings.explainEventRunMax))
        #expect(explanation.eventWindows.count == failure.scenario.events.count)
        settings.explainRunMax = 0
        #expect(try Fuzzer.fuzz(settings).failure?.explanation == nil)
    }
}
