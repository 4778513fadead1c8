// The two time examples of Examples/ (a Timer-batched reporter, a recorder debounced with
// DispatchQueue.asyncAfter and a DispatchWorkItem) as engines (ExampleEngines): against their
// twins written with Task.sleep, one planted bug each, and fuzzing.
import BatchedReporterExample
import DebouncedRecorderExample
import Engines
import ExampleEngines
import Exploration
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: the Timer and Dispatch examples")
struct TimeExampleTests {
    /// The recorder keeps its locations on the device (no uploader): every built-in invariant
    /// but `uploaded-once` (`ExampleEngines.recorderInvariants`). The reporter uploads: every
    /// built-in invariant.
    static let recorderInvariants = ExampleEngines.recorderInvariants

    /// The verdict of generated cases `0..<count` (seed 1) for `engine`: the invariants each
    /// breaks, or "escaped-simulation".
    static func verdicts(_ engine: CustomEngine, _ invariants: [Invariant], count: Int)
        -> [String]
    {
        let generator = ScenarioGenerator(engine: .custom(engine)).scenarios
        return (0..<count).map { index in
            let testCase = TestCase(
                seed: Seed(1).derive(UInt64(index)).value,
                choiceCountMax: Fuzzer.choiceCountMax)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { return "invalid" }
            guard let checked = try? Fuzzer.check(scenario, invariants) else { return "threw" }
            return Set(checked.violations.map(\.invariant)).sorted().joined(separator: ",")
        }
    }

    static var budget: Int {
        Foundation.ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 10
    }

    @Test("the reporter's verdicts equal its Task.sleep twin's, case by case, and hold")
    func reporterMatchesTwin() {
        let timer = Self.verdicts(batchedReporter, Invariant.builtIn, count: 8)
        let sleeping = Self.verdicts(sleepingReporter, Invariant.builtIn, count: 8)
        #expect(timer == sleeping)
        #expect(timer.allSatisfy { $0.isEmpty || $0 == "invalid" }, "\(timer)")
    }

    @Test("the recorder's verdicts equal its Task.sleep twin's, case by case, and hold")
    func recorderMatchesTwin() {
        let items = Self.verdicts(debouncedRecorder, Self.recorderInvariants, count: 8)
        let sleeping = Self.verdicts(sleepingRecorder, Self.recorderInvariants, count: 8)
        #expect(items == sleeping)
        #expect(items.allSatisfy { $0.isEmpty || $0 == "invalid" }, "\(items)")
    }

    @Test("fuzzed, the reporter holds every built-in invariant (LIFELINE_CASES raises it)")
    func reporterFuzzed() {
        let report = fuzzLifecycle(
            of: .custom(batchedReporter), checking: Invariant.builtIn, seed: 1, cases: 10)
        #expect(report?.failure == nil)
        #expect(report?.cases == Self.budget)
    }

    @Test("fuzzed, the recorder holds every built-in invariant but uploaded-once")
    func recorderFuzzed() {
        let report = fuzzLifecycle(
            of: .custom(debouncedRecorder), checking: Self.recorderInvariants, seed: 1,
            cases: 10)
        #expect(report?.failure == nil)
        #expect(report?.cases == Self.budget)
    }

    @Test("the fuzzer finds the timer never scheduled again after a relaunch, and shrinks it")
    func unscheduledTimerIsCaught() throws {
        let report = try plantedMistakeSearch(unscheduledTimerReporter, cases: 100)
        #expect(report.failure?.invariant == "uploaded-once")
        let failure = report.failure
        #expect((failure?.scenario.events.count ?? 99) <= (failure?.originalEventCount ?? 0))
    }

    @Test("the fuzzer finds the cancelled work item that still stops recording, and shrinks it")
    func stillWritingIsCaught() throws {
        let report = try plantedMistakeSearch(
            stillWritingRecorder, checking: Self.recorderInvariants, cases: 300)
        // The services stopped while the user wants recording: a gap, or a relaunch that
        // restores nothing.
        let found = report.failure?.invariant
        #expect(found == "bounded-gaps" || found == "restore-exactly-what-was-running")
        let failure = report.failure
        #expect((failure?.scenario.events.count ?? 99) <= (failure?.originalEventCount ?? 0))
    }

    /// One example's fuzz summary (seed 1, `cases` cases) on `jobs` workers.
    static func summary(
        _ name: String, _ engine: CustomEngine, _ invariants: [Invariant], cases: Int, jobs: Int
    ) throws -> String {
        var settings = FuzzSettings(engine: .custom(engine))
        settings.caseCount = cases
        settings.jobCount = jobs
        settings.invariants = invariants
        let report = try Fuzzer.fuzz(settings)
        return "\(name): \(report.cases) cases, \(report.distinctStates) states, "
            + "\(report.distinctTransitions) transitions, failure "
            + (report.failure?.invariant ?? "none")
    }

    @Test("each example's fuzz summary is the same with one worker and with two")
    func sameSummaryWithAnyJobs() throws {
        let examples = [
            ("batched-reporter", batchedReporter, Invariant.builtIn),
            ("debounced-recorder", debouncedRecorder, Self.recorderInvariants),
        ]
        for (name, engine, invariants) in examples {
            let one = try Self.summary(name, engine, invariants, cases: Self.budget, jobs: 1)
            let two = try Self.summary(name, engine, invariants, cases: Self.budget, jobs: 2)
            #expect(one == two)
            print("fuzz summary \(one)")  // compared across processes by hand (the report)
        }
    }
}
