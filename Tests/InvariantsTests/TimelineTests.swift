// The timeline of a run: launches, terminations, losses and violations marked; the same record
// gives the same text; the compact mode folds routine lines and keeps the rest.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Timeline")
struct TimelineTests {
    /// A broken engine's force-quit run, with what the built-in invariants find in it.
    func failingRun() -> (RunRecord, [Violation]) {
        let plan = MatrixRuns.matrix.plan(.forceQuit)
        let record = RunRecord.run(
            configuration: MatrixRuns.configuration(plan),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: MatrixRuns.horizon(plan), launchRules: LaunchRules()
        ) { BrokenEngine(.neverRestarts) }
        return (record, record.violations())
    }

    func lines(_ timeline: Timeline, _ marker: Timeline.Marker) -> [Timeline.Line] {
        timeline.lines.filter { $0.marker == marker }
    }

    @Test("launches, terminations, losses and violations stand out")
    func markers() {
        let (record, violations) = failingRun()
        let timeline = Timeline(record, violations: violations)
        #expect(lines(timeline, .launch).count == record.processes.count)
        #expect(
            lines(timeline, .termination).map(\.instant) == record.processes.compactMap(\.endedAt))
        let losses = record.log.filter { entry in
            switch entry.kind {
            case .dropped, .commitLost, .savedRecordChangeLost: true
            default: false
            }
        }
        #expect(lines(timeline, .loss).count == losses.count)
        #expect(
            lines(timeline, .violation).map(\.actor).sorted()
                == violations.map(\.invariant).sorted())
        #expect(!violations.isEmpty)
        let relaunch = timeline.lines.first { $0.marker == .launch && $0.actor == "process 2" }
        #expect(relaunch?.description.hasPrefix(">> 00:05:01.000  process 2 ") == true)
        #expect(timeline.text.contains("!! "))
    }

    @Test("the same run renders the same text, in time order")
    func deterministic() {
        let (first, firstViolations) = failingRun()
        let (second, secondViolations) = failingRun()
        let one = Timeline(first, violations: firstViolations).text
        #expect(one == Timeline(second, violations: secondViolations).text)
        let instants = Timeline(first, violations: firstViolations).lines.map(\.instant)
        #expect(instants == instants.sorted())
    }

    @Test("the compact mode folds routine lines and keeps every other line")
    func compact() {
        let (record, violations) = failingRun()
        let full = Timeline(record, violations: violations)
        let compact = Timeline(record, violations: violations, mode: .compact)
        #expect(compact.lines.count * 10 < full.lines.count, "far shorter")
        for marker in [Timeline.Marker.launch, .termination, .loss, .violation] {
            #expect(lines(compact, marker) == lines(full, marker))
        }
        let summaries = lines(compact, .summary)
        #expect(!summaries.isEmpty)
        #expect(summaries.allSatisfy { $0.text.hasPrefix("… ") && $0.text.contains(" until ") })
        #expect(summaries.contains { $0.text.contains("fixes delivered") })
    }
}
