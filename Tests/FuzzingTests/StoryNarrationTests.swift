// The fuzzer judges a case without the engine's narration (no invariant reads it), and the
// failure's story, which runs the case again for its timeline, shows it.
import Invariants
import Scenarios
import Testing

@testable import Fuzzing

@Suite("Narration in a failure's story")
struct StoryNarrationTests {
    @Test("the fuzzer's run keeps no narration; the story's timeline has the engine's lines")
    func storyNarrates() throws {
        let scenario = try Scenario(
            parsing: """
                engine session
                policy measured
                authorization always
                horizon 10m
                route from 51.5007,-0.1246 heading 90
                  drive 6m at 13.9 m/s
                events
                  0s open
                  1m leave
                  2m memory-pressure
                """, path: "story.scenario")
        let checked = try Fuzzer.check(scenario, Invariant.builtIn)
        #expect(checked.record.engineEvents.count == 0, "judged without narration")
        let failure = FuzzFailure(
            invariant: "bounded-gaps", scenario: scenario, violations: checked.violations,
            origin: .generated(caseIndex: 0), corpusPath: nil,
            originalEventCount: scenario.events.count, shrinkRuns: 0)
        let story = failure.story
        #expect(
            story.split(separator: "\n").contains {
                $0.contains("engine 1") && $0.contains("started")
            },
            "the engine's start is told")
        #expect(story.contains(" accepted,"), "the accepted fixes are counted in the folded lines")
    }

    @Test("the folded timeline keeps each process's first rejected fix whole, with its reason")
    func firstRejectionKeepsItsReason() throws {
        // The standard engine records one fix a minute and rejects the rest as not due.
        let scenario = try Scenario(
            parsing: """
                engine standard
                policy measured
                authorization always
                horizon 10m
                route from 51.5007,-0.1246 heading 90
                  drive 6m at 13.9 m/s
                events
                  0s open
                  2m memory-pressure
                  4m open
                """, path: "rejections.scenario")
        let record = try scenario.record()
        let lines = Timeline(record, violations: [], mode: .compact).text.split(separator: "\n")
        let whole = lines.filter { $0.contains(" engine ") && $0.contains(" rejected ") }
        #expect(!whole.isEmpty, "\(lines.joined(separator: "\n"))")
        #expect(whole.allSatisfy { $0.contains("): ") || $0.contains(": ") })
        let processes = Set(whole.compactMap { $0.split(separator: " ").dropFirst(2).first })
        #expect(processes.count == whole.count, "one whole rejection per process: \(whole)")
        #expect(lines.contains { $0.contains(" rejected") && $0.contains("…") }, "the rest folded")
    }
}
