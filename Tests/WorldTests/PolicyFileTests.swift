// Policy files: a preset and overrides by property name; unknown keys, wrong types and
// impossible values are errors naming the file, the line and the key. Every key changes the
// outcome of a small world scenario (`PolicyEffect.table`).
import Simulation
import Testing

@testable import World

@Suite("Policy files")
struct PolicyFileTests {
    @Test("a preset and overrides are applied in that order")
    func overrides() throws {
        let policy = try IOSPolicy.parse(
            """
            {
              "whenInUseGrace": "5s",
              "preset": "iOS18",
              "regionExitCushionMeters": 150,
              "forceQuitRelaunchByRegion": false,
              "regionCountMax": 10
            }
            """, path: "p.json")
        #expect(policy.name == "iOS18")
        #expect(policy.whenInUseGrace == .seconds(5))
        #expect(policy.regionExitCushionMeters == 150)
        #expect(!policy.forceQuitRelaunchByRegion && policy.forceQuitRelaunchBySignificantChange)
        #expect(policy.regionCountMax == 10)
    }

    @Test("each key of a policy file names one property: no key appears twice")
    func keysAreUnique() {
        let keys = IOSPolicy.fields.map(\.key)
        #expect(
            keys.count == Set(keys).count,
            "repeated: \(keys.filter { key in keys.count(where: { $0 == key }) > 1 })")
    }

    @Test("every property of IOSPolicy but its preset name is a policy-file key")
    func everyPropertyHasAKey() {
        let properties = Mirror(reflecting: IOSPolicy()).children.compactMap(\.label)
        // In declaration order, as `fields` promises.
        #expect(properties.filter { $0 != "name" } == IOSPolicy.fields.map(\.key))
    }

    @Test("the effect table has exactly one row per policy-file key")
    func effectTableCoversEveryKey() {
        let rows = PolicyEffect.table.map(\.key)
        let keys = IOSPolicy.fields.map(\.key)
        #expect(rows.count == Set(rows).count, "a key has two rows")
        #expect(
            Set(keys).subtracting(rows).sorted() == [],
            "keys without a row: add one to PolicyEffect.table")
        #expect(
            Set(rows).subtracting(keys).sorted() == [], "rows for keys a policy file does not have")
    }

    @Test(
        "setting a key from a policy file changes what the app observes in its scenario",
        arguments: PolicyEffect.table.map(\.key))
    func keyChangesTheOutcome(key: String) throws {
        let row = try #require(PolicyEffect.table.first { $0.key == key })
        let changed = try IOSPolicy.parse("{\"\(key)\": \(row.value)}", path: "\(key).json")
        #expect(changed != .measured, "\(row.value) is the default of '\(key)'")
        let baseline = row.scenario.observe(.measured)
        let observed = row.scenario.observe(changed)
        #expect(
            observed != baseline,
            "'\(key)': \(row.value) left scenario '\(row.scenario.name)' unchanged: \(baseline)")
    }

    @Test(
        "bad files are errors naming the line and the key",
        arguments: [
            ("{\n  \"whenInUseGrac\": \"5s\"\n}", 2, "unknown key 'whenInUseGrac'"),
            ("{\n  \"whenInUseGrace\": 5\n}", 2, "'whenInUseGrace' expects a duration string"),
            ("{\n\n  \"regionExitLatency\": \"-5s\"\n}", 3, "(not negative), got \"-5s\""),
            ("{\"regionExitCushionMeters\": -1}", 1, "must be a number at least 0"),
            ("{\"forceQuitRelaunchByRegion\": 1}", 1, "expects true or false, got a number"),
            ("{\"regionCountMax\": 2.5}", 1, "must be a whole number"),
            ("{\"backgroundTaskEarlyExpiryPercent\": 101}", 1, "from 0 to 100"),
            ("{\"preset\": \"iOS99\"}", 1, "'preset' expects one of measured, iOS16"),
            ("{\"fixInterval\": \"0s\"}", 1, "'fixInterval' must be longer than 0s"),
            ("{\"wifiAccuracyMetersMin\": 90}", 1, "must not exceed 'wifiAccuracyMetersMax'"),
            ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, "appears twice"),
            ("{\n  \"whenInUseGrace\": \"5s\"", 2, "not a policy file"),
            ("[1, 2]", 1, "expected '{'"),
            ("{\"whenInUseGrace\": {\"seconds\": 5}}", 1, "not a nested object"),
        ] as [(String, Int, String)])
    func badFiles(text: String, line: Int, message: String) {
        #expect {
            try IOSPolicy.parse(text, path: "bad.json")
        } throws: { error in
            guard let error = error as? PolicyFileError else { return false }
            return error.path == "bad.json" && error.line == line
                && error.description.contains(message)
        }
    }

    @Test("presets differ where the sources say iOS generations differ")
    func presets() {
        #expect(IOSPolicy.presetNames.compactMap(IOSPolicy.preset(named:)).count == 5)
        #expect(
            [IOSPolicy.iOS16, .iOS17, .iOS18, .iOS26, .measured].map(\.systemVersion) == [
                16, 17, 18, 26, 27,
            ])
        #expect(
            IOSPolicy.iOS16.forceQuitRelaunchByRegion && !IOSPolicy.iOS26.forceQuitRelaunchByRegion)
        #expect(
            IOSPolicy.measured.rebootRelaunchWithoutMovement
                && !IOSPolicy.iOS26.rebootRelaunchWithoutMovement)
    }
}

// MARK: - Every key has an effect

/// A small world run under a policy, reduced to what the app could observe: a claim that a key
/// matters is only as good as a run in which changing it changes the outcome.
struct PolicyScenario: Sendable {
    var name: String
    var observe: @Sendable (IOSPolicy) -> [String]
}

/// One key of a policy file, a value other than its default (as JSON text), and the scenario
/// whose outcome that value changes.
struct PolicyEffect: Sendable {
    var key: String
    var value: String
    var scenario: PolicyScenario

    init(_ key: String, _ value: String, _ scenario: PolicyScenario) {
        self.key = key
        self.value = value
        self.scenario = scenario
    }

    /// One row per key of `IOSPolicy.fields`, in its order.
    static let table: [PolicyEffect] = [
        .init("leavingTransition", #""5s""#, .whenInUseAppLeaves),
        .init("suspensionDelay", #""20s""#, .suspendedAppQueues),
        .init("backgroundTaskBudget", #""10s""#, .backgroundTask(endsIt: true)),
        .init("backgroundTaskWatchdogDelay", #""5s""#, .backgroundTask(endsIt: false)),
        .init("backgroundTaskEarlyExpiryPercent", "100", .backgroundTask(endsIt: true)),
        .init("relaunchRecreateWindow", #""30s""#, .userOpenedAppIgnoresEvent),
        .init("backgroundWakeRuntime", #""30s""#, .significantChangeRelaunch()),
        .init("appRefreshRuntime", #""10s""#, .refreshNeverCompleted),
        .init("taskRequestIntervalMin", #""5m""#, .refreshResubmitted),
        .init("remoteNotificationRuntime", #""10s""#, .silentPushNeverCompleted),
        .init("endsIdleBackgroundLaunch", "false", .significantChangeRelaunch()),
        .init("relaunchLatencySession", #""3s""#, .sessionAppForceQuit),
        .init("relaunchLatencySignificantChange", #""4s""#, .significantChangeRelaunch()),
        .init("relaunchLatencyRegion", #""5s""#, .conditionRelaunch(after: .exit)),
        .init("relaunchLatencyVisit", #""5s""#, .visitRelaunch),
        .init("relaunchLatencyBoot", #""5s""#, .rebootRelaunch),
        .init(
            "legacyLaunchOptionsCarryLocation", "false",
            .significantChangeRelaunch(sceneBased: false)),
        .init("whenInUseGrace", #""5s""#, .whenInUseAppLeaves),
        .init("deniedSignalDelay", #""4s""#, .whenInUseAppLeaves),
        .init("requestLocationTimeout", #""200ms""#, .oneTimeLocation),
        .init("systemVersion", "16", .newerAPIs),
        .init("stationaryPauseDelay", #""5m""#, .liveUpdatesPark),
        .init("stationarySpeedMetersPerSecond", "20", .liveUpdatesPark),
        .init("sessionRejoinWindow", #""10s""#, .sessionRecreatedLate),
        .init("automaticPauseDelay", #""5m""#, .managerParks),
        .init("significantChangeDistanceMeters", "1000", .significantChanges),
        .init("significantChangeIntervalMin", #""10m""#, .significantChanges),
        .init("significantChangeLatency", #""30s""#, .significantChanges),
        .init("regionExitCushionMeters", "500", .conditionExit),
        .init("regionExitLatency", #""10s""#, .conditionExit),
        .init("regionEntryCushionMeters", "50", .conditionReentry),
        .init("regionEntryLatency", #""10s""#, .conditionReentry),
        .init("regionCountMax", "5", .sixRegions),
        .init("visitArrivalDwell", #""8m""#, .visits),
        .init("visitRadiusMeters", "1000", .visits),
        .init("visitDepartureLatency", #""1m""#, .visits),
        .init(
            "forceQuitRelaunchBySignificantChange", "true",
            .significantChangeRelaunch(after: .forceQuit)),
        .init("forceQuitRelaunchByRegion", "false", .conditionRelaunch(after: .forceQuit)),
        .init("forceQuitRelaunchBySession", "false", .sessionAppForceQuit),
        .init("willTerminateOnForceQuit", "false", .willTerminateAtForceQuit),
        .init("rebootRelaunchWithoutMovement", "false", .rebootRelaunch),
        .init("rebootRelaunchDelay", #""2m""#, .rebootRelaunch),
        .init("rebootRelaunchAgainAtFirstUnlock", "false", .rebootLateUnlock),
        .init("fixInterval", #""2s""#, .fixes(desiredAccuracyMeters: nil)),
        .init("gnssDesiredAccuracyMetersMax", "200", .fixes(desiredAccuracyMeters: 150)),
        .init("wifiDesiredAccuracyMetersMax", "5000", .fixes(desiredAccuracyMeters: 3_000)),
        .init("fixNoiseRadiusFraction", "0", .fixPositions),
        .init("gnssAccuracyMeters", "10", .fixes(desiredAccuracyMeters: nil)),
        .init("wifiAccuracyMetersMin", "60", .fixes(desiredAccuracyMeters: 500)),
        .init("wifiAccuracyMetersMax", "100", .fixes(desiredAccuracyMeters: 500)),
        .init("cellAccuracyMeters", "2000", .fixes(desiredAccuracyMeters: 3_000)),
        .init("reducedAccuracyMetersMin", "5000", .fixes(desiredAccuracyMeters: nil, .reduced)),
        .init("reducedAccuracyMetersMax", "30000", .fixes(desiredAccuracyMeters: nil, .reduced)),
        .init(
            "reducedAccuracyUpdateInterval", #""5s""#,
            .fixes(desiredAccuracyMeters: nil, .reduced)),
        .init("queuedUpdateCountMax", "5", .suspendedAppQueues),
        .init("storeCommitDuration", #""1s""#, .dataKilledAfterHalfASecond),
        .init("savedRecordWriteDelay", #""100ms""#, .dataKilledAfterHalfASecond),
        .init("uploadLatency", #""10s""#, .uploads),
        .init("networkFailurePercent", "50", .uploads),
        .init("serverErrorPercent", "50", .uploads),
        .init("serverRetryAfter", #""10s""#, .serverDown),
        .init("backgroundTransferDuration", #""30s""#, .backgroundUpload),
        .init("backgroundTransferDiscretionaryDelay", #""1m""#, .discretionaryUpload),
        .init("backgroundSessionEventsRuntime", #""10s""#, .eventsHandlerNeverCalled),
        .init("processingTaskRuntime", #""1m""#, .processingNotCompleted),
    ]
}

extension PolicyScenario {
    /// An app that submits an undated refresh again in its handler, left at 2 s: when its
    /// refreshes run in 20 minutes (R-H15).
    static let refreshResubmitted = PolicyScenario(name: "refresh submitted again") { policy in
        runWorld(
            policy: policy, route: parked, until: 1_200, actions: [(0, .open), (2, .leave)]
        ) { ResubmittingEngine() }.wakeTimeline()
    }

    /// An app force-quit in the foreground at 20 s: whether `applicationWillTerminate` ran.
    static let willTerminateAtForceQuit = PolicyScenario(name: "force-quit in the foreground") {
        policy in
        runWorld(
            policy: policy, route: parked, until: 60, actions: [(0, .open), (20, .forceQuit)]
        ) { TerminatingEngine(registers: false) }.log.map(\.kind.description)
    }

    /// A When In Use app updating a plain manager under a test host leaves at 2 s: when it
    /// reaches the background, its last fix (the grace) and its `denied` error.
    static let whenInUseAppLeaves = PolicyScenario(name: "When In Use app leaves") { policy in
        let world = runWorld(
            policy: policy, until: 30,
            actions: [(0, .attachTestHost(true)), (0, .open), (2, .leave)], engine: plainManagerApp)
        return world.timeline { kind in
            switch kind {
            case .lifecycle(let state): state.rawValue
            case .failure(let error, _): error.rawValue
            default: nil
            }
        } + [world.fixSummary]
    }

    /// An Always app updating a plain manager leaves at 2 s and returns at 30 s: the fixes it
    /// got live, those held while suspended and delivered at 30 s, and those dropped.
    static let suspendedAppQueues = PolicyScenario(name: "suspended app queues fixes") { policy in
        let world = runWorld(
            policy: policy, authorization: .always, until: 40,
            actions: [(0, .open), (2, .leave), (30, .open)], engine: plainManagerApp)
        return [
            "live until \(world.fixSeconds.last { $0 < 30 } ?? -1)",
            "\(world.fixSeconds.filter { $0 == 30 }.count) delivered at 30 s",
            "\(drops(of: world).filter { $0.reason == .queueFull }.count) dropped, queue full",
        ]
    }

    /// An Always app updating a plain manager begins a background task when it reaches the
    /// background (3.5 s); its expiry handler ends the task, or not: the expiry, the end of the
    /// process and the last fix.
    static func backgroundTask(endsIt: Bool) -> PolicyScenario {
        PolicyScenario(name: endsIt ? "background task ended" : "background task never ended") {
            policy in
            let world = runWorld(
                policy: policy, authorization: .always, until: 60,
                actions: [(0, .open), (2, .leave)]
            ) {
                let engine = ScriptedEngine { _, services in
                    services.startUpdatingLocation(services.makeManager())
                }
                engine.onLifecycle = { state, services in
                    if state == .background { _ = services.beginBackgroundTask() }
                }
                if !endsIt { engine.onTaskExpiry = { _, _ in } }
                return engine
            }
            return world.timeline { kind in
                switch kind {
                case .backgroundTaskExpiring: "task expiring"
                case .killed(let cause): "killed \(cause.rawValue)"
                default: nil
                }
            } + [world.fixSummary]
        }
    }

    /// An Always app starts significant change in the foreground and ends (or is force-quit)
    /// at 10 s; parked 60 s, the drive at 50 m/s sends the event at 84 s: the relaunch, its
    /// launch options, and the end of a relaunched app that recreates nothing.
    static func significantChangeRelaunch(
        after ending: UserAction = .exit, sceneBased: Bool = true
    ) -> PolicyScenario {
        PolicyScenario(
            name: "significant change relaunch after \(ending)\(sceneBased ? "" : ", legacy app")"
        ) { policy in
            runWorld(
                policy: policy, authorization: .always,
                capabilities: AppCapabilities(sceneBased: sceneBased),
                route: drive(50, parkedFor: .seconds(60)), until: 150,
                actions: [(0, .open), (10, ending)], engine: significantChangeEngine(rejoins: false)
            ).processHistory
        }
    }

    /// An Always app with live updates, a background activity session and a service session,
    /// driving at 15 m/s, is force-quit at 60 s: whether and when it is relaunched.
    static let sessionAppForceQuit = PolicyScenario(name: "session app force-quit") { policy in
        runWorld(
            policy: policy, authorization: .always, route: drive(15), until: 120,
            actions: [(0, .open), (5, .leave), (60, .forceQuit)]
        ) {
            ScriptedEngine { _, services in
                _ = services.beginServiceSession(authorization: .always)
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }.processHistory
    }

    /// An Always app adds a 100 m monitor condition around home in the foreground and ends
    /// (or is force-quit) at 10 s; parked 60 s, then 50 m/s, the exit comes at 151 s: whether
    /// and when it is relaunched.
    static func conditionRelaunch(after ending: UserAction) -> PolicyScenario {
        PolicyScenario(name: "condition exit relaunch after \(ending)") { policy in
            runWorld(
                policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
                until: 200, actions: [(0, .open), (10, ending)]
            ) {
                ScriptedEngine { launch, services in
                    services.openMonitor("Places")
                    if launch.state == .foreground {
                        services.addCondition(
                            monitor: "Places", condition: "home", center: home, radiusMeters: 100)
                    }
                }
            }.processHistory
        }
    }

    /// An Always app monitoring visits ends at 10 s; it parks from 120 s and the arrival
    /// (420 s) relaunches it.
    static let visitRelaunch = PolicyScenario(name: "visit arrival relaunch") { policy in
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(2), speedMetersPerSecond: 15), .init(.park, .hours(1)),
            ])
        return runWorld(
            policy: policy, authorization: .always, route: route, until: 600,
            actions: [(0, .open), (10, .exit)]
        ) {
            ScriptedEngine { launch, services in
                _ = services.makeManager()
                if launch.state == .foreground { services.startMonitoringVisits() }
            }
        }.processHistory
    }

    /// A parked Always app with significant change reboots at 10 s: whether and when it is
    /// relaunched without movement.
    static let rebootRelaunch = PolicyScenario(name: "reboot relaunch, parked") { policy in
        runWorld(
            policy: policy, authorization: .always, route: parked, until: 300,
            actions: [(0, .open), (10, .reboot)], engine: significantChangeEngine(rejoins: true)
        ).processHistory
    }

    /// A reboot parked, the first unlock 5 minutes later: an app that starts significant
    /// change only when its data is readable (as an engine that must read its saved state).
    static let rebootLateUnlock = PolicyScenario(name: "reboot, late first unlock") { policy in
        runWorld(
            policy: policy, authorization: .always, route: parked, until: 600,
            actions: [(0, .open), (10, .reboot), (310, .unlock)]
        ) {
            ScriptedEngine { launch, services in
                if launch.protectedDataAvailable {
                    services.startMonitoringSignificantLocationChanges()
                }
            }
        }.processHistory
    }

    /// An app calls every API newer than iOS 16 at launch: which calls the version lacks, and
    /// how many live updates arrive.
    static let newerAPIs = PolicyScenario(name: "newer APIs at launch") { policy in
        let world = runWorld(policy: policy, until: 3, actions: [(0, .open)]) {
            ScriptedEngine { _, services in
                _ = services.startLiveUpdates()
                _ = services.beginBackgroundActivitySession()
                _ = services.beginServiceSession(authorization: .whenInUse)
                services.openMonitor("Places")
            }
        }
        return world.timeline { kind in
            if case .unavailableAPI(let api) = kind { api.rawValue } else { nil }
        } + [world.fixSummary]
    }

    /// A When In Use app with live updates and a session leaves at 5 s; it drives 1 minute at
    /// 10 m/s, parks 10 minutes, drives again: its stationary update and the fixes it gets.
    static let liveUpdatesPark = PolicyScenario(name: "live updates park") { policy in
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(10)),
                .init(.drive, .minutes(1), speedMetersPerSecond: 10),
            ])
        let world = runWorld(
            policy: policy, route: route, until: 800, actions: [(0, .open), (5, .leave)]
        ) {
            ScriptedEngine { _, services in
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }
        return world.timeline { kind in
            if case .location(let update) = kind, update.stationary { "stationary" } else { nil }
        } + [world.fixSummary]
    }

    /// An Always session app is purged while parked and relaunched when the drive starts
    /// (301 s); the new process begins its session only after 5 live updates, about 5 s after
    /// the launch: the fixes it gets in the background.
    static let sessionRecreatedLate = PolicyScenario(name: "session recreated 5 s after relaunch") {
        policy in
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(15, parkedFor: .seconds(300)),
            until: 400, actions: [(0, .open), (1, .leave), (200, .memoryPressure)]
        ) { LateSessionEngine(updatesBeforeSession: 5) }
        let relaunched = world.fixSeconds.filter { $0 > 300 }
        return world.processHistory + [
            "relaunched process: \(relaunched.count) fixes, the last at \(relaunched.last ?? -1)"
        ]
    }

    /// An Always app updating a plain manager drives 1 minute, parks 20 minutes, drives 5: the
    /// fixes it gets before the automatic pause.
    static let managerParks = PolicyScenario(name: "manager parks") { policy in
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
                .init(.drive, .minutes(5), speedMetersPerSecond: 10),
            ])
        return [
            runWorld(
                policy: policy, authorization: .always, route: route, until: 1_600,
                actions: [(0, .open)], engine: plainManagerApp
            ).fixSummary
        ]
    }

    /// An Always app with significant change under a test host drives at 50 m/s for 25
    /// minutes: when each event comes, and its accuracy.
    static let significantChanges = PolicyScenario(name: "significant changes on a drive") {
        policy in
        runWorld(
            policy: policy, authorization: .always, route: drive(50), until: 1_500,
            actions: [(0, .open), (0, .attachTestHost(true))],
            engine: significantChangeEngine(rejoins: true)
        ).timeline { kind in
            if case .event(.significantChange(let fix)) = kind {
                "±\(fix.horizontalAccuracyMeters) m"
            } else {
                nil
            }
        }
    }

    /// An Always app under a test host adds a 100 m condition around home; parked 30 s, it
    /// drives at 10 m/s: when the exit comes.
    static let conditionExit = PolicyScenario(name: "condition exit") { policy in
        runWorld(
            policy: policy, authorization: .always, route: drive(10, parkedFor: .seconds(30)),
            until: 400, actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            ScriptedEngine { _, services in
                services.openMonitor("Places")
                services.addCondition(
                    monitor: "Places", condition: "home", center: home, radiusMeters: 100)
            }
        }.timeline { kind in if case .event(let event) = kind { "\(event)" } else { nil } }
    }

    /// An Always app under a test host adds a 100 m condition around home, drives 3 km east
    /// and back: when the exit and the entry come.
    static let conditionReentry = PolicyScenario(name: "condition exit and re-entry") { policy in
        runWorld(
            policy: policy, authorization: .always, route: outAndBack, until: 400,
            actions: [(0, .open), (0, .attachTestHost(true))], engine: homeConditionApp
        ).timeline { kind in if case .event(let event) = kind { "\(event)" } else { nil } }
    }

    /// A parked app monitors six legacy regions: which fail.
    static let sixRegions = PolicyScenario(name: "six legacy regions") { policy in
        monitoringFailures(
            of: runWorld(
                policy: policy, authorization: .always, route: parked, until: 5,
                actions: [(0, .open)], engine: legacyRegionApp(regions: 6)))
    }

    /// An Always app monitoring visits under a test host drives 2 minutes, parks 10, drives
    /// 10: when the arrival and the departure come.
    static let visits = PolicyScenario(name: "visit arrival and departure") { policy in
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(2), speedMetersPerSecond: 10), .init(.park, .minutes(10)),
                .init(.drive, .minutes(10), speedMetersPerSecond: 10),
            ])
        return runWorld(
            policy: policy, authorization: .always, route: route, until: 1_500,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            ScriptedEngine { _, services in services.startMonitoringVisits() }
        }.timeline { kind in
            switch kind {
            case .event(.visitArrival): "arrival"
            case .event(.visitDeparture): "departure"
            default: nil
            }
        }
    }

    /// An Always app starts significant change at its first launch only and exits at 10 s;
    /// the user opens it again at 50 s; the 84 s event finds no listener: when it is dropped.
    /// An app asks for one location at launch (`requestLocation()`, R-G1): what its delegate
    /// is told, a fix or `locationUnknown` (the first fix comes 1 s after the launch).
    static let oneTimeLocation = PolicyScenario(name: "one-time location") { policy in
        let notes = CallNotes()
        _ = runWorld(policy: policy, authorization: .always, until: 30, actions: [(0, .open)]) {
            CallEngine(notes) { manager, _ in manager.requestLocation() }
        }
        return notes.lines
    }

    static let userOpenedAppIgnoresEvent = PolicyScenario(name: "event with no listener") {
        policy in
        let launches = Counter()
        return runWorld(
            policy: policy, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 150, actions: [(0, .open), (10, .exit), (50, .open)]
        ) {
            launches.value += 1
            let first = launches.value == 1
            return ScriptedEngine { _, services in
                if first { services.startMonitoringSignificantLocationChanges() }
            }
        }.timeline { kind in
            if case .dropped(let item, let reason) = kind {
                "dropped \(item): \(reason)"
            } else {
                nil
            }
        }
    }

    /// An app commits a row to its store and sets a flag in its saved record at launch, and is
    /// force-quit half a second later: what reached the disk, and what was lost.
    /// A foreground app stores a fix a second for 10 s and uploads them (`UploadingEngine`):
    /// when the server accepted each batch, the failed requests, and what the server holds.
    static let uploads = PolicyScenario(name: "uploads") { policy in
        let world = runWorld(policy: policy, until: 120, actions: [(0, .open)]) {
            UploadingEngine(recordUntil: .start + .seconds(10))
        }
        return world.server.acceptedBatches.map { "\($0.key) accepted at \($0.instant)" }
            + world.uploadResults.compactMap { entry in
                if case .failed(let error) = entry.result {
                    "\(error) at \(entry.seconds)"
                } else {
                    nil
                }
            } + ["\(world.server.acceptedRows.count) rows on the server"]
    }

    /// The same app with its server down for maintenance from the start (R-N41): what each
    /// request was answered, with the `Retry-After` the server gave.
    static let serverDown = PolicyScenario(name: "server down") { policy in
        let world = runWorld(policy: policy, until: 120, actions: [(0, .open), (0, .serverDown)]) {
            UploadingEngine(recordUntil: .start + .seconds(10))
        }
        return world.uploadResults.map { "\($0.result) at \($0.seconds)" }
    }

    static let dataKilledAfterHalfASecond = PolicyScenario(name: "data killed after 0.5 s") {
        policy in
        let world = runWorld(
            policy: policy, route: parked, until: 5, actions: [(0, .open), (0.5, .crash)]
        ) {
            ScriptedEngine { _, services in
                services.userDefaults.set(true, forKey: "enabled")
                guard let store = try? services.openStore() else { return }
                store.insert(StoredRow(key: "row"))
                store.commit()
            }
        }
        return [
            "\(world.storedRows.count) rows stored",
            "saved record \(world.savedRecordOnDisk.keys.sorted())",
        ]
            + world.timeline { kind in
                switch kind {
                case .commitLost, .savedRecordChangeLost: "\(kind)"
                default: nil
                }
            }
    }

    /// An Always app in the foreground updates a manager for 5 s while driving: where each fix
    /// lies.
    static let fixPositions = PolicyScenario(name: "fix positions") { policy in
        runWorld(
            policy: policy, authorization: .always, route: drive(10), until: 5,
            actions: [(0, .open)]
        ) {
            ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
        }.timeline { kind in
            if case .location(let update) = kind, let fix = update.fix {
                "\(fix.coordinate)"
            } else {
                nil
            }
        }
    }

    /// An Always app in the foreground updates a manager with `desiredAccuracyMeters` (the
    /// default, best, if nil) for 10 s while driving: each fix's source and accuracy.
    static func fixes(
        desiredAccuracyMeters: Double?, _ accuracy: AccuracyAuthorization = .full
    ) -> PolicyScenario {
        PolicyScenario(
            name: "fixes at desired accuracy \(desiredAccuracyMeters.map { "\($0) m" } ?? "best"), "
                + "\(accuracy.rawValue) accuracy"
        ) { policy in
            runWorld(
                policy: policy, authorization: .always, accuracy: accuracy, route: drive(10),
                until: 10, actions: [(0, .open)]
            ) {
                ScriptedEngine { _, services in
                    let manager = services.makeManager()
                    if let desiredAccuracyMeters {
                        services.setDesiredAccuracy(manager, meters: desiredAccuracyMeters)
                    }
                    services.startUpdatingLocation(manager)
                }
            }.timeline { kind in
                if case .location(let update) = kind, let fix = update.fix {
                    "\(fix.source.rawValue) ±\((fix.horizontalAccuracyMeters * 100).rounded() / 100) m"
                } else {
                    nil
                }
            }
        }
    }
}

/// Starts updating a plain manager at every launch.
private func plainManagerApp() -> any AppEngine {
    ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
}

/// Starts live updates at every launch; begins a background activity session at once in the
/// foreground, and, launched in the background, only after `updatesBeforeSession` updates.
final class LateSessionEngine: AppEngine {
    private let updatesBeforeSession: Int
    private var updatesUntilSession: Int?

    init(updatesBeforeSession: Int) { self.updatesBeforeSession = updatesBeforeSession }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        _ = services.startLiveUpdates()
        if launch.state == .foreground {
            _ = services.beginBackgroundActivitySession()
        } else {
            updatesUntilSession = updatesBeforeSession
        }
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let remaining = updatesUntilSession else { return }
        if remaining <= 1 {
            updatesUntilSession = nil
            _ = services.beginBackgroundActivitySession()
        } else {
            updatesUntilSession = remaining - 1
        }
    }
}

extension World {
    /// "<seconds> <label>" for every log entry that `label` names, in order.
    func timeline(_ label: (AppLogEntry.Kind) -> String?) -> [String] {
        log.compactMap { entry in
            label(entry.kind).map {
                "\(((entry.instant - .start).seconds * 1_000).rounded() / 1_000) \($0)"
            }
        }
    }

    /// Each launch (its state and launch options) and each end of a process.
    var processHistory: [String] {
        timeline { kind in
            switch kind {
            case .launch(let context):
                "launch \(context.state.rawValue) [\(context.launchOptions.joined(separator: ","))]"
            case .killed(let cause): "killed \(cause.rawValue)"
            default: nil
            }
        }
    }

    /// How many fixes the app received, and when the last one came.
    var fixSummary: String {
        "\(fixSeconds.count) fixes, the last at \(fixSeconds.last.map { "\($0)" } ?? "none")"
    }
}

/// A count shared by the engines of one run (made anew at every launch).
final class Counter: @unchecked Sendable {
    var value = 0
}
