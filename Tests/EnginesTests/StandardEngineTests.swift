// The standard engine (source D) in the world: what it asks of Core Location (R-D1), its
// recording clock (R-D4), the parked region (R-D5), a swipe-away (R-D6, R-D7), a reboot (R-D9),
// missing permission (R-D10), reduced accuracy (R-D11) and stopOnTerminate (R-B11).
import Simulation
import Testing
import World

@testable import Engines

let origin = Coordinate(latitude: 51.5007, longitude: -0.1246)

/// A route east from `origin`: the segments in order.
func route(_ segments: [Route.Segment]) -> Route {
    Route(start: origin, headingDegrees: 90, segments: segments)
}

/// Keeps every engine the world makes, one per launch, in launch order.
final class EngineLog {
    var engines: [StandardEngine] = []
}

/// A world running a `StandardEngine`, with its trace and its engines.
struct StandardRun {
    var world: World
    let trace: MemoryTrace<WorldMessage>
    let engineLog: EngineLog
    var engines: [StandardEngine] { engineLog.engines }

    init(
        settings: StandardEngine.Settings = StandardEngine.Settings(),
        policy: IOSPolicy = .measured, authorization: Authorization = .always,
        capabilities: AppCapabilities = AppCapabilities(), route: Route,
        until end: Double, actions: [(Double, UserAction)]
    ) {
        let trace = MemoryTrace<WorldMessage>()
        let engineLog = EngineLog()
        var world = World(
            WorldConfiguration(
                policy: policy, capabilities: capabilities, authorization: authorization,
                route: route),
            trace: trace
        ) {
            let engine = StandardEngine(settings: settings)
            engineLog.engines.append(engine)
            return engine
        }
        for (seconds, action) in actions {
            world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
        }
        world.run(until: .start + VirtualDuration(seconds: end))
        self.world = world
        self.trace = trace
        self.engineLog = engineLog
    }

    /// The stored fixes, in commit order.
    var storedFixes: [Fix] {
        world.storedRows.filter { $0.key == FixRecorder.fixRowKey }.compactMap(\.fix)
    }

    /// Seconds of each stored fix.
    var storedSeconds: [Double] { storedFixes.map { ($0.instant - .start).seconds } }

    /// Every request the app sent the location daemon, with its instant in seconds.
    var requests: [(seconds: Double, request: AppRequest)] {
        trace.records.flatMap { record -> [(seconds: Double, request: AppRequest)] in
            guard record.actor == world.daemon, case .requests(let requests, _) = record.message
            else { return [] }
            return requests.map { ((record.instant - .start).seconds, $0) }
        }
    }

    /// Seconds of every launch, with its state and whether data was readable.
    var launches: [(seconds: Double, context: LaunchContext)] {
        world.log.compactMap { entry in
            guard case .launch(let context) = entry.kind else { return nil }
            return ((entry.instant - .start).seconds, context)
        }
    }

    /// The accepted fixes of every engine, in order.
    var acceptedCount: Int {
        engines.flatMap(\.events).count { if case .fixAccepted = $0 { true } else { false } }
    }
}

/// `seconds` after the start.
func at(_ seconds: Double) -> Instant { .start + VirtualDuration(seconds: seconds) }

@Suite("Standard engine (source D)")
struct StandardEngineTests {
    let policy = IOSPolicy.measured
    let settings = StandardEngine.Settings()

    @Test(
        "R-D1: one manager runs standard updates with background allowed, no automatic pause, no distance filter, automotive, and significant change"
    )
    func standardUpdatesTheWholeTime() {
        let run = StandardRun(
            route: route([.init(.drive, .minutes(15), speedMetersPerSecond: 20)]), until: 600,
            actions: [(0, .open), (5, .leave)])
        let texts = run.requests.map(\.request)
        #expect(
            texts.contains {
                if case .setAllowsBackgroundLocationUpdates(_, true) = $0 { true } else { false }
            })
        #expect(
            texts.contains {
                if case .setPausesLocationUpdatesAutomatically(_, false) = $0 {
                    true
                } else {
                    false
                }
            })
        #expect(
            texts.contains {
                if case .setActivityType(_, .automotiveNavigation) = $0 { true } else { false }
            })
        #expect(
            texts.contains { if case .setDistanceFilter(_, let m) = $0 { m < 0 } else { false } })
        #expect(texts.contains(.startSignificantChanges))
        #expect(texts.count { if case .startUpdatingLocation = $0 { true } else { false } } == 1)
        #expect(!texts.contains { if case .stopUpdatingLocation = $0 { true } else { false } })
        // Never suspended: one fix per interval in the background, from the first epoch.
        let expected = Int(600 / settings.interval.seconds)
        #expect(run.storedFixes.count == expected)
        #expect(run.world.log.allSatisfy { $0.processState != .suspended })
        let state = run.engines[0].state(at: at(600))
        #expect(state.enabled && state.sessionEngineActive)
        #expect(state.lastAcceptedFixAge == at(600) - run.storedFixes.last!.instant)
    }

    @Test(
        "R-D1, R-A9: without the location background mode the engine does not set background updates, and does not crash"
    )
    func noBackgroundModeNoCrash() {
        let run = StandardRun(
            capabilities: AppCapabilities(locationBackgroundMode: false),
            route: route([.init(.drive, .minutes(5), speedMetersPerSecond: 20)]), until: 120,
            actions: [(0, .open)])
        #expect(!run.world.log.contains { if case .crashed = $0.kind { true } else { false } })
        #expect(
            !run.requests.contains {
                if case .setAllowsBackgroundLocationUpdates = $0.request { true } else { false }
            })
        #expect(run.storedFixes.count == 2)
    }

    @Test(
        "R-D4: interval 60 s: 3 km between fixes, the configured accuracy 15 s before each, GNSS fixes one interval apart"
    )
    func lowPowerBetweenFixes() {
        let run = StandardRun(
            route: route([.init(.drive, .minutes(15), speedMetersPerSecond: 20)]), until: 600,
            actions: [(0, .open), (5, .leave)])
        let fixes = run.storedFixes
        #expect(fixes.count >= 9)
        for (earlier, later) in zip(fixes, fixes.dropFirst()) {
            #expect(later.instant - earlier.instant == settings.interval)
        }
        #expect(
            fixes.allSatisfy {
                $0.source == .gnss && $0.horizontalAccuracyMeters == policy.gnssAccuracyMeters
            })
        let accuracies = run.requests.compactMap { entry -> (Double, Double)? in
            if case .setDesiredAccuracy(_, let meters) = entry.request {
                (entry.seconds, meters)
            } else {
                nil
            }
        }
        // Alternates 3 km after each fix, the configured accuracy 15 s before the next (the
        // first fix needs no switch: `desiredAccuracy` starts at best).
        let best = settings.accuracy.desiredAccuracyMeters
        for (earlier, later) in zip(accuracies, accuracies.dropFirst()) {
            #expect(earlier.1 != later.1)
        }
        #expect(
            accuracies.allSatisfy { $0.1 == best || $0.1 == settings.betweenFixesAccuracyMeters })
        let rests = accuracies.filter { $0.1 == settings.betweenFixesAccuracyMeters }.map(\.0)
        #expect(rests == run.storedSeconds)
        let switches = accuracies.filter { $0.1 == best }.map(\.0)
        let first = run.storedSeconds[0]
        let step = settings.interval.seconds
        let lead = settings.warmUpLead.seconds
        #expect(switches == (1...fixes.count).map { first + Double($0) * step - lead })
        // Between fixes the GPS rests: the app gets cell fixes.
        let cellFixes = run.world.log.count {
            if case .location(let update) = $0.kind { update.fix?.source == .cell } else { false }
        }
        #expect(cellFixes > fixes.count * 30)
    }

    @Test("R-D4: below 60 s the configured accuracy stays on the whole time")
    func noSwitchBelowSixtySeconds() {
        var settings = StandardEngine.Settings()
        settings.interval = .seconds(30)
        settings.accuracy = .balanced  // one request then, since `desiredAccuracy` starts at best
        let run = StandardRun(
            settings: settings,
            route: route([.init(.drive, .minutes(15), speedMetersPerSecond: 20)]), until: 300,
            actions: [(0, .open), (5, .leave)])
        let accuracies = run.requests.compactMap { entry -> Double? in
            if case .setDesiredAccuracy(_, let meters) = entry.request { meters } else { nil }
        }
        #expect(accuracies == [settings.accuracy.desiredAccuracyMeters])
        #expect(run.storedFixes.count == 10)
        for (earlier, later) in zip(run.storedFixes, run.storedFixes.dropFirst()) {
            #expect(later.instant - earlier.instant == settings.interval)
        }
        #expect(
            !run.world.log.contains {
                if case .location(let update) = $0.kind {
                    update.fix?.source != .gnss
                } else {
                    false
                }
            })
    }

    @Test("R-D4: the low preset records Wi-Fi fixes (1 km asked), balanced GNSS (100 m)")
    func presets() {
        for (preset, source) in [
            (StandardEngine.AccuracyPreset.low, FixSource.wifi), (.balanced, .gnss),
        ] {
            var settings = StandardEngine.Settings()
            settings.accuracy = preset
            let run = StandardRun(
                settings: settings,
                route: route([.init(.drive, .minutes(5), speedMetersPerSecond: 20)]), until: 200,
                actions: [(0, .open)])
            #expect(run.storedFixes.count == 4)
            #expect(run.storedFixes.allSatisfy { $0.source == source })
        }
    }

    /// Drives 5 min, parks 20 min, drives on; returns the run and the parked position.
    func parkedRun(stopRadiusMeters: Double) -> StandardRun {
        var settings = StandardEngine.Settings()
        settings.stopRadiusMeters = stopRadiusMeters
        return StandardRun(
            settings: settings,
            route: route([
                .init(.drive, .minutes(5), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
                .init(.drive, .minutes(5), speedMetersPerSecond: 10),
            ]), until: 1800, actions: [(0, .open), (5, .leave)])
    }

    @Test(
        "R-D5: parked, a region of radius max(100, 2 × stop radius) around the parked position; removed when moving again"
    )
    func parkedRegion() {
        for stopRadius in [30.0, 80.0] {
            let run = parkedRun(stopRadiusMeters: stopRadius)
            let regions = run.requests.compactMap { entry -> (Double, CircularRegion)? in
                if case .startMonitoringRegion(_, let region) = entry.request {
                    (entry.seconds, region)
                } else {
                    nil
                }
            }
            try? #require(regions.count == 1)
            guard let (seconds, region) = regions.first else { continue }
            #expect(region.radiusMeters == max(100, 2 * stopRadius))
            // Parked at 300 s; counted parked after `parkedAfter` of still fixes.
            let parkStart = 300.0
            let driveOff = 1500.0
            #expect(seconds >= parkStart + settings.parkedAfter.seconds)
            #expect(seconds <= parkStart + settings.parkedAfter.seconds + settings.interval.seconds)
            let truePark = route([.init(.drive, .minutes(5), speedMetersPerSecond: 10)])
                .position(at: at(parkStart))
            #expect(region.center.distance(to: truePark) <= policy.gnssAccuracyMeters)
            let removals = run.requests.filter {
                if case .stopMonitoringRegion(_, StandardEngine.regionIdentifier) = $0.request {
                    $0.seconds > seconds
                } else {
                    false
                }
            }.map(\.seconds)
            // Removed by the first moving fix after the drive-off.
            #expect(removals.count == 1)
            #expect(removals.allSatisfy { $0 >= driveOff && $0 <= driveOff + 2 })
        }
    }

    /// Drives at `speed` for an hour; swiped away at `quit`.
    func swipeWhileDriving(policy: IOSPolicy, quit: Double, openAgain: Double? = nil)
        -> StandardRun
    {
        var actions: [(Double, UserAction)] = [(0, .open), (5, .leave), (quit, .forceQuit)]
        if let openAgain { actions.append((openAgain, .open)) }
        return StandardRun(
            policy: policy, route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]),
            until: 1800, actions: actions)
    }

    @Test(
        "R-D6, R-D7: measured: a swipe-away while driving loses fixes until a region exit relaunches the app; tracking resumes without the user"
    )
    func swipeWhileDrivingMeasured() {
        let quit = 600.0
        let speed = 10.0
        let run = swipeWhileDriving(policy: .measured, quit: quit)
        #expect(run.world.log.contains { if case .willTerminate = $0.kind { true } else { false } })
        // The region around the last position (the last precise fix, a second old).
        let left = run.requests.filter { $0.seconds == quit }.compactMap {
            entry -> CircularRegion? in
            if case .startMonitoringRegion(_, let region) = entry.request { region } else { nil }
        }
        #expect(left.count == 1)
        #expect(left.first?.radiusMeters == settings.parkedRegionRadiusMeters)
        #expect(
            run.requests.contains { $0.seconds == quit && $0.request == .startSignificantChanges })
        let relaunches = run.launches.filter { $0.seconds > quit }
        try? #require(relaunches.count == 1)
        guard let relaunch = relaunches.first else { return }
        #expect(relaunch.context.state == .background)
        let exitDistance = settings.parkedRegionRadiusMeters + policy.regionExitCushionMeters
        let expected =
            quit + exitDistance / speed + policy.regionExitLatency.seconds
            + policy.relaunchLatencyRegion.seconds
        #expect(abs(relaunch.seconds - expected) <= 2)
        // Lost between the swipe and the relaunch; recorded again at once, then every interval.
        #expect(!run.storedSeconds.contains { $0 > quit && $0 < relaunch.seconds })
        let after = run.storedSeconds.filter { $0 >= relaunch.seconds }
        #expect(after.first.map { $0 - relaunch.seconds <= 2 } == true)
        #expect(after.count >= Int((1800 - relaunch.seconds) / settings.interval.seconds))
        #expect(run.engines.last?.events.contains(.resumed(launchedIn: .background)) == true)
        #expect(run.engines.last?.events.contains(.started) == false)
    }

    @Test(
        "R-D6, R-B6: iOS26: after a swipe-away while driving nothing relaunches the app until the user opens it"
    )
    func swipeWhileDrivingIOS26() {
        let quit = 600.0
        let open = 1500.0
        let run = swipeWhileDriving(policy: .iOS26, quit: quit, openAgain: open)
        #expect(run.launches.map(\.seconds) == [0, open])
        #expect(!run.storedSeconds.contains { $0 > quit && $0 < open })
        #expect(run.storedSeconds.contains { $0 >= open && $0 <= open + 2 })
        #expect(run.engines.last?.events.contains(.resumed(launchedIn: .foreground)) == true)
    }

    @Test(
        "R-D5, R-D7: a swipe-away while parked: the parked region relaunches the app once the device drives off"
    )
    func swipeWhileParked() {
        let quit = 400.0
        let driveOff = 600.0
        let speed = 10.0
        let run = StandardRun(
            route: route([
                .init(.park, .minutes(10)),
                .init(.drive, .minutes(20), speedMetersPerSecond: speed),
            ]), until: 1200, actions: [(0, .open), (5, .leave), (quit, .forceQuit)])
        let relaunches = run.launches.filter { $0.seconds > quit }
        try? #require(relaunches.count == 1)
        guard let relaunch = relaunches.first else { return }
        let expected =
            driveOff + (settings.parkedRegionRadiusMeters + policy.regionExitCushionMeters) / speed
            + policy.regionExitLatency.seconds + policy.relaunchLatencyRegion.seconds
        #expect(abs(relaunch.seconds - expected) <= 2)
        // Before the swipe every stored fix is at the parked place: only parked fixes are lost
        // until the drive-off.
        #expect(
            run.storedFixes.filter { ($0.instant - .start).seconds < quit }.allSatisfy {
                $0.coordinate.distance(to: origin) <= policy.gnssAccuracyMeters
            })
        #expect(run.storedSeconds.contains { $0 >= relaunch.seconds && $0 <= relaunch.seconds + 2 })
        #expect(run.engines.last?.events.contains(.resumed(launchedIn: .background)) == true)
    }

    @Test(
        "R-D9: relaunched after a reboot before the first unlock, the engine waits and resumes at the unlock"
    )
    func rebootBeforeUnlock() {
        let reboot = 300.0
        let unlock = 900.0
        let run = StandardRun(
            route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]), until: 1200,
            actions: [(0, .open), (5, .leave), (reboot, .reboot), (unlock, .unlock)])
        let relaunch = run.launches.first { $0.seconds > reboot }
        #expect(relaunch?.seconds == reboot + policy.rebootRelaunchDelay.seconds)
        #expect(relaunch?.context.protectedDataAvailable == false)
        let engine = run.engines.last
        #expect(engine?.events.first == .waitingForFirstUnlock)
        #expect(engine?.events.contains(.resumed(launchedIn: .background)) == true)
        #expect(!run.storedSeconds.contains { $0 > reboot && $0 < unlock })
        #expect(run.storedSeconds.contains { $0 >= unlock && $0 <= unlock + 2 })
        #expect(run.launches.count == 2)  // the held process ran until the unlock
    }

    @Test(
        "R-D10: tracking enabled, permission denied at launch: logged, waits, resumes when granted")
    func permissionMissing() {
        let quit = 120.0
        let open = 600.0
        let grant = 700.0
        let run = StandardRun(
            route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]), until: 900,
            actions: [
                (0, .open), (5, .leave), (quit, .forceQuit), (quit + 1, .setAuthorization(.denied)),
                (open, .open), (grant, .setAuthorization(.always)),
            ])
        let engine = run.engines.last
        #expect(run.launches.last?.seconds == open)
        #expect(engine?.events.first == .permissionMissing(.denied))
        #expect(engine?.events.contains(.started) == false)
        #expect(engine?.events.contains(.resumed(launchedIn: .foreground)) == true)
        #expect(!run.storedSeconds.contains { $0 > quit && $0 < grant })
        #expect(run.storedSeconds.contains { $0 >= grant && $0 <= grant + 2 })
    }

    @Test(
        "R-A13: switched on while undetermined and swiped away before the answer: nothing starts, not even at termination"
    )
    func undeterminedSwipeStartsNothing() {
        let answer = AuthorizationAnswers().responseDelay.seconds
        let quit = answer / 2
        let run = StandardRun(
            authorization: .notDetermined,
            route: route([.init(.drive, .minutes(10), speedMetersPerSecond: 10)]), until: 600,
            actions: [(0, .open), (quit, .forceQuit)])
        #expect(run.engines.first?.events == [.started, .permissionMissing(.notDetermined)])
        let starts = run.requests.filter { item in
            switch item.request {
            case .startSignificantChanges, .startMonitoringRegion, .startUpdatingLocation: true
            default: false
            }
        }
        #expect(starts.isEmpty, "started before any authorization: \(starts)")
        #expect(run.launches.count == 1)
    }

    @Test("R-A13, R-D10: switched on while undetermined, the engine begins when the answer arrives")
    func undeterminedBeginsAtTheAnswer() {
        let answer = AuthorizationAnswers().responseDelay.seconds
        let run = StandardRun(
            authorization: .notDetermined,
            route: route([.init(.drive, .minutes(10), speedMetersPerSecond: 10)]), until: 60,
            actions: [(0, .open)])
        let firstSignificantChange = run.requests.first { $0.request == .startSignificantChanges }
        #expect(firstSignificantChange?.seconds == answer)
        #expect(run.storedSeconds.first.map { $0 >= answer && $0 <= answer + 2 } == true)
    }

    @Test(
        "R-D11: reduced accuracy: fixes are filtered, and the overdue rule records the best one half an interval late"
    )
    func reducedAccuracyOverdue() {
        let reduce = 300.0
        // A reduced fix every epoch, as before issue 25, so that every interval has fixes to
        // filter: the rule is the engine's; the daemon's rate (three an hour, R-F10) is pinned
        // in `ModelQuestionTests`.
        var dense = policy
        dense.reducedAccuracyUpdateInterval = dense.fixInterval
        let run = StandardRun(
            policy: dense,
            route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]), until: 900,
            actions: [(0, .open), (5, .leave), (reduce, .setAccuracy(.reduced))])
        let events = run.engines[0].events
        var rejectedSinceAccepted: [Fix] = []
        var overdue: [Fix] = []
        var rejectedCount = 0
        for event in events {
            switch event {
            case .fixRejected(let fix, let reason) where reason.hasSuffix("R-D11"):
                rejectedSinceAccepted.append(fix)
                rejectedCount += 1
            case .fixRejected:
                break  // not due yet (R-D4): not a candidate of the overdue rule
            case .fixAccepted(let fix) where (fix.instant - .start).seconds > reduce:
                // The best of the fixes filtered since it was due.
                let best = rejectedSinceAccepted.map(\.horizontalAccuracyMeters).min()
                #expect(fix.horizontalAccuracyMeters == best)
                #expect(rejectedSinceAccepted.contains(fix))
                #expect(fix.horizontalAccuracyMeters >= policy.reducedAccuracyMetersMin)
                overdue.append(fix)
                rejectedSinceAccepted = []
            default: rejectedSinceAccepted = []
            }
        }
        #expect(overdue.count >= 9)
        #expect(rejectedCount > overdue.count * 10)
        // The k-th is the best fix of its window: from its due instant (one interval on from
        // the last accurate fix, then one interval each) to `overdueDelay` later.
        let firstDue =
            run.storedFixes.last { ($0.instant - .start).seconds <= reduce }!.instant
            + settings.interval
        for (k, fix) in overdue.enumerated() {
            let due = firstDue + settings.interval * Int64(k)
            #expect(fix.instant >= due && fix.instant <= due + settings.overdueDelay)
        }
    }

    /// Drives an hour; the app crashes at 600 s (no `applicationWillTerminate`), so significant
    /// change relaunches it.
    func crashRun(stopOnTerminate: Bool) -> StandardRun {
        var settings = StandardEngine.Settings()
        settings.launchRules.stopOnTerminate = stopOnTerminate
        return StandardRun(
            settings: settings, route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]),
            until: 1200, actions: [(0, .open), (5, .leave), (600, .crash)])
    }

    @Test(
        "R-B11: stopOnTerminate true: the relaunch after a crash clears the flag before any resume")
    func stopOnTerminateTrue() {
        let run = crashRun(stopOnTerminate: true)
        #expect(run.launches.count == 2)
        let engine = run.engines.last
        #expect(engine?.events.first == .disabledAtLaunch(reason: "stopOnTerminate, R-B11"))
        #expect(engine?.events.contains(.resumed(launchedIn: .background)) == false)
        #expect(!run.storedSeconds.contains { $0 > 600 })
        #expect(engine?.state(at: at(1200)).enabled == false)
    }

    @Test("R-B11: stopOnTerminate false: the relaunch after a crash resumes tracking")
    func stopOnTerminateFalse() {
        let run = crashRun(stopOnTerminate: false)
        #expect(run.launches.count == 2)
        guard let relaunch = run.launches.last?.seconds else { return }
        #expect(relaunch > 600)
        #expect(run.engines.last?.events.contains(.resumed(launchedIn: .background)) == true)
        #expect(run.storedSeconds.contains { $0 >= relaunch && $0 <= relaunch + 2 })
    }

    @Test(
        "R-B11, R-D7: stopOnTerminate true: a swipe-away leaves nothing to relaunch the app; opening it starts again"
    )
    func stopOnTerminateSwipe() {
        var settings = StandardEngine.Settings()
        settings.launchRules.stopOnTerminate = true
        let quit = 600.0
        let open = 1400.0
        let run = StandardRun(
            settings: settings, route: route([.init(.drive, .hours(1), speedMetersPerSecond: 10)]),
            until: 1500, actions: [(0, .open), (5, .leave), (quit, .forceQuit), (open, .open)])
        #expect(run.launches.map(\.seconds) == [0, open])
        #expect(
            run.requests.contains { $0.seconds == quit && $0.request == .stopSignificantChanges })
        #expect(
            run.engines.last?.events.prefix(2) == [
                .disabledAtLaunch(reason: "stopOnTerminate, R-B11"), .started,
            ])
        #expect(!run.storedSeconds.contains { $0 > quit && $0 < open })
        #expect(run.storedSeconds.contains { $0 >= open && $0 <= open + 2 })
    }

    @Test(
        "R-D13: every stored fix reaches the server once, across a swipe-away and the relaunch, each request inside a background task"
    )
    func uploadsEveryFixOnce() {
        let run = swipeWhileDriving(policy: .measured, quit: 600)
        let stored = run.world.storedRows.filter { $0.key == FixRecorder.fixRowKey }
        #expect(stored.count > 20)
        // Rows wait up to `batchWait` for a batch, and a request takes `uploadLatency`: those
        // stored that long before the end may not have gone yet; every earlier one has.
        let uploaded = run.world.server.acceptedRows.filter { $0.key == FixRecorder.fixRowKey }
        let settled =
            Instant.start
            + (.seconds(1800) - settings.uploader.batchWait - IOSPolicy.measured.uploadLatency)
        #expect(uploaded == Array(stored.prefix(uploaded.count)), "in order, each once")
        #expect(uploaded.count >= stored.count { $0.fix!.instant < settled })
        #expect(run.world.server.repeatedKeys.isEmpty)
        let tasks = run.trace.records.count { record in
            guard record.actor == run.world.operatingSystem,
                case .requests(let requests, _) = record.message
            else { return false }
            return requests.contains { if case .beginBackgroundTask = $0 { true } else { false } }
        }
        #expect(tasks >= 1)
    }
}
