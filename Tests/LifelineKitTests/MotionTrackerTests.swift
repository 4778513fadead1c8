// Examples/MotionTracker on the simulated device: it pauses its location updates while Core
// Motion says the device is stationary and resumes them when it moves; fuzzed clean, and a
// planted bug (a stationary spell turns everything off and waits for Core Motion, which never
// wakes a suspended app, R-M5) found and shrunk.
import Engines
import ExampleEngines
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import MotionTrackerExample
import Scenarios
import Simulation
import Testing
import World

@Suite("LifelineKit: the motion tracker example")
struct MotionTrackerTests {
    /// The tracker keeps its locations on the device (no uploader, its profile says so):
    /// every built-in invariant but `uploaded-once`.
    static let invariants = InvariantSelection().applied(
        to: Invariant.builtIn, profile: motionTracker.profile)

    /// The run of `events` on a 5-minute drive, a 30-minute park and a 20-minute drive, Always.
    static func record(_ engine: CustomEngine, _ events: String) throws -> RunRecord {
        let text = """
            engine \(engine.name)
            policy measured
            authorization always
            accuracy full
            capabilities location-background
            seed 1
            horizon 55m
            route from 51.5007,-0.1246 heading 90
              drive 5m at 13.9 m/s
              park 30m
              drive 20m at 13.9 m/s
            events
            \(events)
            end
            """
        let scenario = try Scenario(parsing: text, path: "motion.scenario", engines: [engine])
        return try scenario.record()
    }

    @Test("R-M3, R-M5: in the background its updates pause while parked and resume on the drive")
    func pausesWhileParkedAndResumes() throws {
        let record = try Self.record(motionTracker, "  0s open\n  1m leave")
        let model = MotionActivityModel.standard
        let parked = Instant.start + .minutes(5)
        let pausedFrom = parked + model.reportDelay + .seconds(1)
        let driving = Instant.start + .minutes(35)
        // The updates' fixes (GNSS): significant change stays on, and its cell fixes are kept.
        let instants = record.storedFixes.filter { $0.fix.source == .gnss }.map(\.fix.instant)
        #expect(instants.contains { $0 > parked && $0 < pausedFrom })
        #expect(!instants.contains { $0 > pausedFrom && $0 < driving })
        #expect(instants.contains { $0 > driving + .minutes(10) })
        #expect(record.violations(of: Self.invariants).map(\.description) == [])
    }

    @Test("the planted bug never resumes after the park: bounded-gaps")
    func everythingOffNeverResumes() throws {
        let record = try Self.record(everythingOffTracker, "  0s open\n  1m leave")
        let driving = Instant.start + .minutes(35)
        #expect(!record.storedFixes.contains { $0.fix.instant > driving })
        #expect(record.violations(of: Self.invariants).map(\.invariant) == ["bounded-gaps"])
    }

    @Test("fuzzed, the motion tracker holds every built-in invariant but uploaded-once")
    func fuzzedClean() {
        let report = fuzzLifecycle(
            of: .custom(motionTracker), checking: Self.invariants, seed: 1, cases: 20)
        #expect(report?.failure == nil)
    }

    @Test(
        "the fuzzer finds the tracker that never resumes after a stationary spell, and shrinks it")
    func everythingOffIsCaught() {
        var report: FuzzReport?
        withKnownIssue("the planted bug is reported as a Swift Testing issue") {
            report = fuzzLifecycle(
                of: .custom(everythingOffTracker), checking: Self.invariants, seed: 1,
                cases: 40)
        }
        #expect(report?.failure?.invariant == "bounded-gaps")
        let failure = report?.failure
        #expect((failure?.scenario.events.count ?? 99) <= (failure?.originalEventCount ?? 0))
    }
}
