// The session engine's documented behaviours (source B, 001_…): the matrix column, stopOnTerminate,
// startOnBoot with a drifting clock, the first unlock, the order of restoration and the state.
import Engines
import Simulation
import Testing
import World

@Suite("Session engine")
struct SessionEngineTests {
    /// Always, a drive; the user opens the app at 0 s (the host app starts tracking) and
    /// leaves at 60 s.
    static func harness(
        _ settings: SessionEngine.Settings = SessionEngine.Settings(),
        policy: IOSPolicy = .measured,
        route: Route = testRoute([
            .init(.drive, .hours(1), speedMetersPerSecond: townSpeed)
        ]),
        actions: [(VirtualDuration, UserAction)]
    ) -> EngineHarness<SessionEngine> {
        EngineHarness(
            WorldConfiguration(policy: policy, authorization: .always, route: route),
            actions: [(.zero, .open), (.seconds(60), .leave)] + actions
        ) { SessionEngine(settings) }
    }

    @Test("R-B3, R-B4, R-B7, R-C2: under measured the matrix reproduces source B's column")
    func matrixColumn() {
        let policy = IOSPolicy.measured
        let matrix = LifecycleMatrix(policy: policy)
        let rows = Dictionary(
            uniqueKeysWithValues: LifecycleMatrix.Scenario.allCases.map {
                ($0, matrix.run(.session, $0))
            })
        // Backgrounded, and suspended while parked once moving: no gap, no relaunch.
        #expect(rows[.backgrounded]?.gapSeconds == 0)
        #expect(rows[.backgrounded]?.relaunchSeconds == nil)
        #expect(rows[.suspendedParked]?.gapSeconds == 0)
        #expect(rows[.suspendedParked]?.relaunchSeconds == nil)
        // Memory kill and force-quit: relaunched by the session, about a second lost.
        for scenario in [LifecycleMatrix.Scenario.memoryKill, .forceQuit] {
            #expect(rows[scenario]?.relaunchSeconds == policy.relaunchLatencySession.seconds)
            let gap = rows[scenario]?.gapSeconds ?? -1
            #expect(gap > 0 && gap <= 2, "\(scenario): about 1 s, got \(gap)")
        }
        // Rebooted while parked: back about a minute after the boot, with no movement.
        #expect(rows[.rebootParked]?.relaunchSeconds == policy.rebootRelaunchDelay.seconds)
        let rebootGap = rows[.rebootParked]?.gapSeconds ?? -1
        #expect(abs(rebootGap - policy.rebootRelaunchDelay.seconds) <= 2)
    }

    @Test(
        "R-B5, R-B7: under iOS26 the session engine still comes back from a force-quit; the reboot waits for the drive"
    )
    func matrixUnderIOS26() {
        let matrix = LifecycleMatrix(policy: .iOS26)
        let forceQuit = matrix.run(.session, .forceQuit)
        #expect(forceQuit.gapSeconds <= 2)
        let reboot = matrix.run(.session, .rebootParked)
        let driveOffAfterReboot = (matrix.parkedFor - matrix.killAfterParking).seconds
        #expect(reboot.relaunchSeconds.map { $0 >= driveOffAfterReboot } == true)
        #expect(reboot.gapSeconds >= driveOffAfterReboot)
    }

    @Test(
        "R-B11: stopOnTerminate false resumes at the relaunch after a force-quit; true clears the flag until the user opens the app",
        arguments: [false, true])
    func stopOnTerminate(stops: Bool) {
        var settings = SessionEngine.Settings()
        settings.launchRules.stopOnTerminate = stops
        let quit = VirtualDuration.minutes(5)
        let reopen = VirtualDuration.minutes(20)
        let run = Self.harness(
            settings, actions: [(quit, .forceQuit), (reopen, .open)])
        run.run(until: .minutes(30))
        let between = run.storedFixInstants.filter {
            $0 > .start + quit && $0 < .start + reopen
        }
        let afterReopen = run.storedFixInstants.filter { $0 > .start + reopen }
        let relaunches = run.launches.filter { $0.background && $0.instant > .start + quit }
        #expect(
            relaunches.count == 1,
            "one relaunch; a disabled engine leaves nothing to relaunch it again")
        if stops {
            #expect(between.isEmpty, "the relaunched process found tracking off")
            #expect(
                run.engines[1].events.contains(.disabledAtLaunch(reason: "stopOnTerminate, R-B11")))
            let events = run.engines[1].events
            let cleared = events.firstIndex(of: .disabledAtLaunch(reason: "stopOnTerminate, R-B11"))
            #expect(cleared.map { events[$0...].contains(.started) } == true, "started at the open")
        } else {
            #expect(between.count > 800, "tracking resumed in the background")
            #expect(run.engines[1].events.contains(.resumed(launchedIn: .background)))
        }
        #expect(afterReopen.count > 500, "the user's open starts it again either way")
    }

    @Test(
        "R-B12: startOnBoot false: a clock moved just under 60 s is the same boot; just over, a reboot that clears the flag",
        arguments: [(59, false), (61, true)] as [(Int64, Bool)])
    func bootTimeDrift(driftSeconds: Int64, detected: Bool) {
        let run = Self.harness(
            actions: [
                (.minutes(3), .adjustClock(by: .seconds(driftSeconds))), (.minutes(5), .forceQuit),
            ])
        run.run(until: .minutes(10))
        let relaunched = run.engines[1]
        #expect(relaunched.events.contains(.rebootDetected) == detected)
        #expect(relaunched.state(at: .start + .minutes(10)).enabled == !detected)
        let afterRelaunch = run.storedFixInstants.filter { $0 > .start + .minutes(5) + .seconds(2) }
        #expect(afterRelaunch.isEmpty == detected)
    }

    @Test(
        "R-B12: after a real reboot, startOnBoot true resumes and false leaves tracking off",
        arguments: [true, false])
    func reboot(startOnBoot: Bool) {
        var settings = SessionEngine.Settings()
        settings.launchRules.startOnBoot = startOnBoot
        let reboot = VirtualDuration.minutes(10)
        let run = Self.harness(
            settings,
            route: testRoute([
                .init(.drive, .minutes(5), speedMetersPerSecond: townSpeed),
                .init(.park, .hours(1)),
            ]),
            actions: [(reboot, .reboot), (reboot + .seconds(20), .unlock)])
        run.run(until: .minutes(15))
        let relaunched = run.engines.last!
        #expect(run.launches.count == 2)
        #expect(relaunched.events.contains(.rebootDetected))
        let stored = run.storedFixInstants.filter { $0 > .start + reboot }
        #expect(stored.isEmpty == !startOnBoot)
    }

    @Test("R-D9: relaunched before the first unlock it waits; it resumes at the unlock")
    func firstUnlock() {
        var settings = SessionEngine.Settings()
        settings.launchRules.startOnBoot = true
        let reboot = VirtualDuration.minutes(10)
        let policy = IOSPolicy.measured
        // The unlock comes 5 s after the relaunch, within the relaunched process's wake runtime
        // (R-F2), so that process is the one that resumes.
        let unlock = reboot + policy.rebootRelaunchDelay + .seconds(5)
        let run = Self.harness(
            settings, policy: policy,
            route: testRoute([
                .init(.drive, .minutes(5), speedMetersPerSecond: townSpeed),
                .init(.park, .hours(1)),
            ]),
            actions: [(reboot, .reboot), (unlock, .unlock)])
        run.run(until: .minutes(14))
        let relaunched = run.engines[1]
        #expect(relaunched.events.first == .waitingForFirstUnlock)
        #expect(relaunched.events.contains(.resumed(launchedIn: .background)))
        let stored = run.storedFixInstants.filter { $0 > .start + reboot }
        #expect(stored.first.map { $0 >= .start + unlock } == true, "nothing before the unlock")
        // It records again (only until the wake runtime ends: in the background it cannot
        // begin its activity session, R-C5, so the process is suspended while parked).
        #expect(!stored.isEmpty, "it records after the unlock")
    }

    @Test(
        "R-B10, R-B13: a relaunch recreates the service session, then the activity session, then the stream; all active"
    )
    func restorationOrderAndState() {
        let quit = VirtualDuration.minutes(5)
        let run = Self.harness(actions: [(quit, .forceQuit)])
        let checked = quit + .seconds(30)
        run.run(until: checked)
        let relaunched = run.engines[1]
        let service = relaunched.serviceSession?.id.value ?? -1
        let activity = relaunched.backgroundActivitySession?.id.value ?? -1
        let stream = relaunched.liveUpdates?.object.value ?? -1
        #expect(0 <= service && service < activity && activity < stream)
        #expect(relaunched.serviceSession?.diagnostic?.isActive == true)
        #expect(relaunched.backgroundActivitySession?.diagnostic?.isActive == true)
        let state = relaunched.state(at: .start + checked)
        #expect(state.sessionEngineActive && state.enabled)
        #expect(state.lastAcceptedFixAge.map { $0 <= .seconds(1) } == true)
    }

    @Test(
        "R-B13: the last accepted fix's age is none before the first fix, and read from the store after a relaunch"
    )
    func lastFixAgeAcrossProcesses() {
        let first = SessionEngine()
        #expect(first.state(at: .start).lastAcceptedFixAge == nil)
        // Killed while parked and suspended; relaunched by the drive-off, the new process
        // knows the last fix from before the park.
        let park = VirtualDuration.minutes(5)
        let run = Self.harness(
            route: testRoute([
                .init(.drive, park, speedMetersPerSecond: townSpeed),
                .init(.park, .minutes(20)),
                .init(.drive, .hours(1), speedMetersPerSecond: townSpeed),
            ]),
            actions: [(.minutes(15), .memoryPressure)])
        run.run(until: .minutes(25))  // the instant of the drive-off: relaunch 1 s later
        run.run(until: .minutes(25) + .seconds(1))
        let relaunched = run.engines[1]
        let age = relaunched.state(at: .start + .minutes(25)).lastAcceptedFixAge
        // The last fix before the park is the stationary one, within the pause delay of it.
        let pause = IOSPolicy.measured.stationaryPauseDelay
        #expect(age.map { $0 >= .minutes(20) - pause && $0 <= .minutes(20) + .seconds(1) } == true)
    }

    @Test(
        "R-B14, R-D13: every fix the engine stored across a force-quit reaches the server exactly once"
    )
    func uploadsAcrossForceQuit() {
        let run = Self.harness(actions: [(.minutes(5), .forceQuit), (.minutes(12), .open)])
        run.run(until: .minutes(20))
        let stored = run.world.storedRows.filter { $0.key == FixRecorder.fixRowKey }
        let accepted = run.world.server.acceptedRows
        #expect(stored.count > 1_000)
        #expect(
            run.world.server.repeatedKeys.isEmpty
                || accepted.count == Set(accepted.map(\.description)).count)
        let missing = stored.filter { row in !accepted.contains(row) }
        #expect(
            missing.count <= UploaderConfiguration().batchRowCountMax,
            "at most the batch in flight at the end")
        #expect(accepted.allSatisfy { stored.contains($0) })
    }
}
