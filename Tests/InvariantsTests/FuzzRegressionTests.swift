// Scenarios the fuzzer shrank on a correct built-in engine, pinned as tests: each ran into a
// real bug (fixed in the engine) and must now break no invariant.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Fuzz regressions on the correct engines")
struct FuzzRegressionTests {
    @Test(
        "R-A13: standard engine, authorization not determined, opened and swiped away at 0 s: nothing starts (lifeline fuzz --engine standard --seed 3)"
    )
    func standardUndeterminedSwipe() {
        let route = Route(
            start: BuiltInEngine.hostHome, headingDegrees: 90,
            segments: [.init(.park, .minutes(1))])
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .measured, authorization: .notDetermined, route: route),
            actions: [ScheduledAction(.start, .open), ScheduledAction(.start, .forceQuit)],
            horizon: .start + .minutes(11), launchRules: LaunchRules(),
            engine: { BuiltInEngine.standard.make(launchRules: LaunchRules()) })
        #expect(record.processes.count == 1)
        let told = record.events(of: 1).map(\.event)
        #expect(told == [.started, .permissionMissing(.notDetermined)])
        #expect(record.violations().isEmpty, "\(record.violations())")
    }

    @Test(
        "session engine, rebooted as it opened, woken by a silent push before the unlock, then opened: it starts (lifeline fuzz --engine session --long --seed 1)"
    )
    func sessionOpenedAfterLockedWake() {
        let route = Route(
            start: BuiltInEngine.hostHome, headingDegrees: 90,
            segments: [.init(.drive, .hours(1), speedMetersPerSecond: 13.9)])
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .measured, authorization: .always, route: route),
            actions: [
                ScheduledAction(.start, .open), ScheduledAction(.start, .leave),
                ScheduledAction(.start, .reboot),
                ScheduledAction(.start + .minutes(2), .silentPush),
                ScheduledAction(.start + .minutes(3), .open),
            ],
            horizon: .start + .minutes(70), launchRules: LaunchRules(),
            engine: { BuiltInEngine.session.make(launchRules: LaunchRules()) })
        // The enabled flag never reached the disk (the reboot ended the first process within
        // the write delay), and the push launched the app into the background, locked: the
        // user's open at 3 min comes before the unlock's callback, and must start tracking.
        #expect(record.storedFixes.contains { $0.fix.instant > .start + .minutes(3) })
        #expect(record.violations().isEmpty, "\(record.violations())")
    }

    @Test(
        "location runtime, crashed as it opened, relaunched in the background, then opened: it starts (lifeline fuzz --engine location-runtime --seed 3)"
    )
    func runtimeOpenedAfterBackgroundLaunch() {
        let route = Route(
            start: BuiltInEngine.hostHome, headingDegrees: 90,
            segments: [.init(.drive, .minutes(7), speedMetersPerSecond: 13.9)])
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .measured, authorization: .always, route: route),
            actions: [
                ScheduledAction(.start, .open), ScheduledAction(.start, .crash),
                ScheduledAction(.start + .minutes(1), .open),
            ],
            horizon: .start + .minutes(17), launchRules: nil,
            engine: { BuiltInEngine.locationRuntime.make(launchRules: LaunchRules()) })
        // The first-open features never reached the disk (the crash ended the first process
        // within the write delay: a swipe, a normal end, would have written them, R-S3); a
        // significant change launched the app into the
        // background, and the user's open at 1 min must take the first-open features.
        #expect(record.processes.count == 3)
        #expect(record.storedFixes.contains { $0.fix.instant > .start + .minutes(1) })
        #expect(record.violations().isEmpty, "\(record.violations())")
    }
}
