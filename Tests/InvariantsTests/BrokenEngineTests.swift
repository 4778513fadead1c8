// Each built-in invariant fails on a small engine with one deliberate mistake (`BrokenEngine`),
// at the instant the mistake shows, derived from the matrix's plan and the policy's numbers.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Invariants catch broken engines")
struct BrokenEngineTests {
    let matrix = MatrixRuns.matrix
    var policy: IOSPolicy { matrix.policy }

    /// Runs `scenario` of the matrix with a `BrokenEngine` of `flaw`.
    func run(
        _ flaw: BrokenEngine.Flaw, _ scenario: LifecycleMatrix.Scenario,
        rules: LaunchRules = LaunchRules(), change: (inout WorldConfiguration) -> Void = { _ in }
    ) -> RunRecord {
        let plan = matrix.plan(scenario)
        var configuration = MatrixRuns.configuration(plan)
        change(&configuration)
        return RunRecord.run(
            configuration: configuration,
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: MatrixRuns.horizon(plan), launchRules: rules
        ) { BrokenEngine(flaw, rules: rules) }
    }

    func clock(_ offset: VirtualDuration) -> String { TimeText.clock(.start + offset) }

    @Test(
        "the unbroken engine breaks no invariant",
        arguments: [
            LifecycleMatrix.Scenario.forceQuit, .memoryKill, .rebootParked,
        ])
    func unbrokenEngineHolds(_ scenario: LifecycleMatrix.Scenario) {
        let record = run(.none, scenario)
        let violations = Invariant.builtIn.flatMap { $0.check(record) }
        #expect(violations.isEmpty, "\(violations.map(\.description))")
    }

    @Test("no-fix-lost-after-restore: fixes inserted and never committed, lost at the force-quit")
    func neverCommits() {
        let violations = Invariant.noFixLostAfterRestore().check(run(.neverCommits, .forceQuit))
        let first = violations.first
        #expect(first?.instant == .start + policy.fixInterval, "the first fix accepted")
        #expect(
            first?.explanation.contains(
                "never committed: lost when the process was killed (force-quit) at "
                    + clock(matrix.parkAfter)) == true, "\(first?.explanation ?? "none")")
    }

    @Test("no-fix-lost-after-restore judges the disk, not the engine's word for a fix")
    func silentlyDropsFixes() {
        // Every second fix is dropped without a word: whether the engine meant to filter it
        // cannot be seen from outside, so no-fix-lost says nothing; a drop long enough to
        // matter is bounded-gaps' (see `neverRestarts`).
        let record = run(.silentlyDropsFixes, .backgrounded)
        #expect(Invariant.noFixLostAfterRestore().check(record).isEmpty)
        #expect(record.storedFixes.count > 0, "half the fixes are stored")
    }

    @Test("restore-exactly-what-was-running: live updates restarted before the sessions (R-B10)")
    func liveUpdatesBeforeSessions() {
        let violations = Invariant.restoreExactlyWhatWasRunning.check(
            run(.liveUpdatesBeforeSessions, .forceQuit))
        let relaunch = clock(matrix.parkAfter + policy.relaunchLatencySession)
        #expect(violations.count == 2, "the service session and the background activity session")
        #expect(violations.allSatisfy { TimeText.clock($0.instant) == relaunch })
        #expect(violations.allSatisfy { $0.explanation.contains("sessions come first (R-B10)") })
    }

    @Test("no-service-before-authorization (advice): services started while undetermined")
    func startsUndetermined() {
        let record = run(.startsUndetermined, .backgrounded) { $0.authorization = .notDetermined }
        let violations = Invariant.noServiceBeforeAuthorization.check(record)
        #expect(violations.count == 1)
        #expect(violations.first?.instant == .start, "at the open")
        #expect(violations.first?.explanation.contains("(R-A13)") == true)
        #expect(record.violations().isEmpty, "advice only: no rule is broken")
        let correct = Invariant.noServiceBeforeAuthorization.check(
            run(.none, .backgrounded) { $0.authorization = .notDetermined })
        #expect(correct.isEmpty)
    }

    @Test("foreground-rule-for-sessions: a background activity session begun on leaving")
    func sessionFromBackground() {
        let violations = Invariant.foregroundRuleForSessions.check(
            run(.sessionFromBackground, .backgrounded))
        let background = matrix.leaveAfter + policy.leavingTransition
        #expect(
            violations.map(\.instant) == [.start + background], "when it reached the background")
        #expect(violations.first?.explanation.contains("at \(clock(background))") == true)
    }

    @Test("no-capability-trap: background updates without the location mode crash it (R-A9)")
    func allowsBackgroundUpdatesWithoutMode() {
        let violations = Invariant.noCapabilityTrap.check(
            run(.allowsBackgroundUpdates, .backgrounded) {
                $0.capabilities = AppCapabilities(locationBackgroundMode: false)
            })
        #expect(violations.map(\.instant) == [.start], "at the open")
        #expect(violations.first?.explanation.contains("(R-A9)") == true)
        let withMode = Invariant.noCapabilityTrap.check(
            run(.allowsBackgroundUpdates, .backgrounded))
        #expect(withMode.isEmpty, "with the mode the same call is fine")
    }

    @Test("configuration-honoured: stopOnTerminate ignored at the relaunch after a force-quit")
    func ignoresStopOnTerminate() {
        let rules = LaunchRules(stopOnTerminate: true)
        let violations = Invariant.configurationHonoured.check(
            run(.ignoresStopOnTerminate, .forceQuit, rules: rules))
        let relaunch = matrix.parkAfter + policy.relaunchLatencySession
        #expect(violations.count == 1)
        #expect((violations.first?.instant ?? .start) > .start + relaunch)
        #expect(
            violations.first?.explanation.contains(
                "launched in the background at \(clock(relaunch))") == true)
        #expect(violations.first?.explanation.contains("stopOnTerminate is true (R-B11)") == true)
        #expect(Invariant.configurationHonoured.check(run(.none, .forceQuit, rules: rules)).isEmpty)
    }

    @Test("configuration-honoured and bounded-gaps: an engine that never restarts after a relaunch")
    func neverRestarts() {
        let record = run(.neverRestarts, .forceQuit)
        let relaunch = matrix.parkAfter + policy.relaunchLatencySession
        let configuration = Invariant.configurationHonoured.check(record)
        #expect(configuration.map(\.instant) == [.start + relaunch])
        #expect(
            configuration.first?.explanation.contains("asked for no location service") == true)
        let gaps = Invariant.boundedGaps().check(record)
        #expect(gaps.count == 1)
        #expect(
            gaps.first?.instant == .start + (matrix.parkAfter - policy.fixInterval),
            "from the last fix before the swipe")
    }

    @Test("uploaded-once: every fix uploaded under two keys")
    func uploadsTwice() {
        let record = run(.uploadsTwice, .backgrounded)
        let violations = Invariant.uploadedOnce().check(record)
        let firstAccepted = policy.fixInterval + policy.storeCommitDuration + policy.uploadLatency
        #expect(violations.first?.instant == .start + firstAccepted)
        #expect(violations.first?.explanation.contains("under two keys") == true)
        #expect(
            violations.count == record.storedFixes.count - 1
                || violations.count
                    == record.storedFixes.count,
            "once per fix accepted twice by the horizon")
    }

    @Test("uploaded-once: stored fixes never uploaded with the network up and the app running")
    func neverUploads() {
        let violations = Invariant.uploadedOnce().check(run(.neverUploads, .backgrounded))
        #expect(violations.count == 1, "one for the run")
        #expect(
            violations.first?.instant == .start + policy.fixInterval + policy.storeCommitDuration,
            "the first fix's commit")
        #expect(violations.first?.explanation.contains("never reached the server") == true)
        let plan = matrix.plan(.backgrounded)
        let down = RunRecord.run(
            configuration: MatrixRuns.configuration(plan),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) }
                + [ScheduledAction(.start + plan.fixesWantedFrom, .networkDown)],
            horizon: MatrixRuns.horizon(plan), launchRules: LaunchRules()
        ) { BrokenEngine(.neverUploads) }
        #expect(Invariant.uploadedOnce().check(down).isEmpty, "the network ends down: no check")
    }
}
