// Session objects with diagnostics (`BackgroundActivitySession`, `ServiceSession`) and `Monitor`
// objects with records: 000_…'s restoring exercise in small, R-C5, R-B9, R-F8 and R-A12.
import Simulation
import Testing

@testable import World

/// What the engines of every process made and were told, kept across launches by the test.
final class RuntimeRecorder: MonitorDelegate {
    struct Restored {
        var generation: Int
        var serviceSession: ServiceSession?
        var activitySession: BackgroundActivitySession?
        var monitor: Monitor?
    }
    var restored: [Restored] = []
    var launches = 0
    /// Every monitor event, with the process that got it and its record then.
    var events: [(generation: Int, event: MonitorEvent, record: MonitorRecord?)] = []

    func monitor(_ monitor: Monitor, didReceive event: MonitorEvent) {
        events.append((launches, event, monitor.record(for: event.identifier)))
    }
}

/// 000_…'s `LocationRuntime` in small. The saved record of features: a workout being recorded
/// and one watched place. At its first launch (in the foreground) it saves them and adds the
/// place to the "Places" monitor; at every launch it restores what the record asks for, sessions
/// first: a service session (Always when a place is watched and the app has Always), a
/// background activity session for the workout, and the "Places" monitor.
final class FeatureRuntime: AppEngine {
    static let recordingKey = "recordingWorkout"
    static let placesKey = "watchedPlaces"
    static let monitorName = "Places"
    static let place = "office"
    static let placeRadiusMeters = 100.0

    let recorder: RuntimeRecorder
    init(recorder: RuntimeRecorder) { self.recorder = recorder }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        recorder.launches += 1
        let saved = services.userDefaults
        let firstLaunch = launch.state == .foreground && saved.string(forKey: Self.placesKey) == nil
        if firstLaunch {
            saved.set(true, forKey: Self.recordingKey)
            saved.set(.string(Self.place), forKey: Self.placesKey)
        }
        var restored = RuntimeRecorder.Restored(generation: recorder.launches)
        let recording = saved.bool(forKey: Self.recordingKey)
        let watched = saved.string(forKey: Self.placesKey) != nil
        let always = services.authorizationStatus == .always
        if recording || watched {
            restored.serviceSession = ServiceSession(
                services: services, authorization: watched && always ? .always : .whenInUse)
        }
        if recording { restored.activitySession = BackgroundActivitySession(services: services) }
        if watched {
            let monitor = services.monitor(named: Self.monitorName)
            monitor.delegate = recorder
            if firstLaunch {
                monitor.add(
                    CircularGeographicCondition(center: home, radius: Self.placeRadiusMeters),
                    identifier: Self.place)
            }
            restored.monitor = monitor
        }
        recorder.restored.append(restored)
    }
}

/// An engine whose launch and lifecycle callbacks are closures, holding what they make.
final class SessionEngine: AppEngine {
    var onLaunch: (LaunchContext, LocationServices, SessionEngine) -> Void
    var onLifecycle: (ProcessState, LocationServices, SessionEngine) -> Void = { _, _, _ in }
    var objects: [AnyObject] = []

    init(onLaunch: @escaping (LaunchContext, LocationServices, SessionEngine) -> Void) {
        self.onLaunch = onLaunch
    }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        onLaunch(launch, services, self)
    }
    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        onLifecycle(state, services, self)
    }
}

extension World {
    /// The diagnostics handed to session objects, in order, with their seconds.
    var sessionDiagnostics: [(seconds: Double, session: ObjectID, SessionDiagnostic)] {
        log.compactMap { entry in
            guard case .sessionDiagnostic(let session, let diagnostic) = entry.kind else {
                return nil
            }
            return ((entry.instant - .start).seconds, session, diagnostic)
        }
    }
}

@Suite("Sessions and monitors")
struct SessionAndMonitorTests {
    /// The kill and the relaunch shared by the restoring tests: open at 0 s, leave at 2 s
    /// (suspended, nothing keeps it running), purged for memory at 60 s; on `outAndBack` the
    /// office condition's exit comes at 101 s (`RegionEntryTests.crossings`) and relaunches the
    /// Always app.
    static let killSeconds = 60.0
    static let exitSeconds = RegionEntryTests.crossings[0]
    static let tolerance = 0.05

    func restoringWorld(_ recorder: RuntimeRecorder, until end: Double = 110) -> World {
        runWorld(
            authorization: .always, route: outAndBack, until: end,
            actions: [(0, .open), (2, .leave), (Self.killSeconds, .memoryPressure)]
        ) { FeatureRuntime(recorder: recorder) }
    }

    @Test(
        "000_ exercise, R-A12, R-B10, R-B9: a runtime restored from its saved record at a relaunch holds a service session (Always), a background activity session and the Places monitor, each session's diagnostic active"
    )
    func restoredSessionsAreActive() throws {
        let recorder = RuntimeRecorder()
        let world = restoringWorld(recorder)
        #expect(world.terminations.first == .memory)
        let relaunch = try #require(world.launches.dropFirst().first)
        #expect(relaunch.context.state == .background)
        let restored = try #require(recorder.restored.last)
        #expect(restored.generation == 2)
        let service = try #require(restored.serviceSession)
        let activity = try #require(restored.activitySession)
        #expect(service.authorization == .always)
        #expect(service.diagnostic == SessionDiagnostic(isActive: true))
        #expect(activity.diagnostic == SessionDiagnostic(isActive: true))
        #expect(restored.monitor?.name == FeatureRuntime.monitorName)
        #expect(restored.monitor?.identifiers == [FeatureRuntime.place])
    }

    @Test(
        "R-A12, R-F8: the relaunched app that reopens the Places monitor by name gets the exit that woke it, and record(for:) gives that exit with its instant"
    )
    func relaunchedMonitorGetsExitAndRecord() throws {
        let recorder = RuntimeRecorder()
        _ = restoringWorld(recorder)
        // First the monitor's initial determination in the process that added the condition
        // (inside it: satisfied), then the exit in the relaunched process.
        #expect(recorder.events.count == 2)
        let initial = try #require(recorder.events.first)
        #expect(initial.generation == 1 && initial.event.state == .satisfied)
        let seen = try #require(recorder.events.last)
        #expect(seen.generation == 2)
        #expect(seen.event.identifier == FeatureRuntime.place)
        #expect(seen.event.state == .unsatisfied)
        let date = try #require(seen.event.date)
        #expect(abs((date - .start).seconds - Self.exitSeconds) < Self.tolerance)
        let monitor = try #require(recorder.restored.last?.monitor)
        let record = try #require(monitor.record(for: FeatureRuntime.place))
        #expect(record.lastEvent == seen.event)
        #expect(
            record.condition
                == CircularGeographicCondition(
                    center: home, radius: FeatureRuntime.placeRadiusMeters))
    }

    @Test(
        "R-C5: a background activity session begun in the background (not a relaunch) is insufficientlyInUse and inactive, and becomes active at the next foreground"
    )
    func sessionBegunInBackgroundIsInsufficientlyInUse() throws {
        var session: BackgroundActivitySession?
        var diagnosticInBackground: SessionDiagnostic?
        let world = runWorld(
            authorization: .whenInUse, until: 40,
            actions: [(0, .attachTestHost(true)), (0, .open), (2, .leave), (30, .open)]
        ) {
            let engine = SessionEngine { _, _, _ in }
            engine.onLifecycle = { state, services, _ in
                if state == .background {
                    let begun = BackgroundActivitySession(services: services)
                    begun.diagnosticHandler = {
                        diagnosticInBackground = diagnosticInBackground ?? $0
                    }
                    session = begun
                }
            }
            return engine
        }
        let begun = try #require(session)
        #expect(
            diagnosticInBackground
                == SessionDiagnostic(isActive: false, insufficientlyInUse: true))
        #expect(
            world.sessionDiagnostics.map(\.2) == [
                SessionDiagnostic(isActive: false, insufficientlyInUse: true),
                SessionDiagnostic(isActive: true),
            ])
        #expect(begun.diagnostic == SessionDiagnostic(isActive: true))
        #expect(world.sessionDiagnostics.map(\.seconds).last.map { $0 >= 30 } == true)
    }

    @Test(
        "R-B9: a service session requiring Always under When In Use reports alwaysAuthorizationDenied and is inactive until the user grants Always"
    )
    func serviceSessionRequiringAlwaysUnderWhenInUse() throws {
        var session: ServiceSession?
        let grantSeconds = 10.0
        let world = runWorld(
            authorization: .whenInUse, until: 20,
            actions: [(0, .open), (grantSeconds, .setAuthorization(.always))]
        ) {
            SessionEngine { _, services, _ in
                session = ServiceSession(services: services, authorization: .always)
            }
        }
        let diagnostics = world.sessionDiagnostics
        #expect(
            diagnostics.map(\.2) == [
                SessionDiagnostic(isActive: false, alwaysAuthorizationDenied: true),
                SessionDiagnostic(isActive: true),
            ])
        #expect(diagnostics.first?.seconds == 0)
        #expect(diagnostics.last?.seconds == grantSeconds)
        #expect(try #require(session).diagnostic == SessionDiagnostic(isActive: true))
    }

    @Test(
        "R-B9, R-F10: a service session requiring full accuracy under reduced accuracy reports fullAccuracyDenied; one requiring nothing is active; an invalidated session is told nothing more"
    )
    func fullAccuracyAndInvalidation() throws {
        var sessions: [ServiceSession] = []
        let leaveSeconds = 5.0
        let returnSeconds = 10.0
        let fullAccuracySeconds = 15.0
        let world = runWorld(
            authorization: .whenInUse, accuracy: .reduced, until: 20,
            actions: [
                (0, .open), (leaveSeconds, .leave), (returnSeconds, .open),
                (fullAccuracySeconds, .setAccuracy(.full)),
            ]
        ) {
            let engine = SessionEngine { _, services, _ in
                sessions = [
                    ServiceSession(
                        services: services, authorization: .whenInUse, fullAccuracy: true),
                    ServiceSession(
                        services: services, authorization: .whenInUse, fullAccuracy: true),
                    ServiceSession(services: services, authorization: .none),
                ]
            }
            // The second is invalidated on leaving: the accuracy change is not told to it.
            engine.onLifecycle = { state, _, _ in
                if state == .background { sessions[1].invalidate() }
            }
            return engine
        }
        #expect(sessions.count == 3)
        let told = world.sessionDiagnostics
        let denied = SessionDiagnostic(isActive: false, fullAccuracyDenied: true)
        let active = SessionDiagnostic(isActive: true)
        #expect(told.filter { $0.session == sessions[0].id }.map(\.2) == [denied, active])
        #expect(told.filter { $0.session == sessions[0].id }.last?.seconds == fullAccuracySeconds)
        #expect(told.filter { $0.session == sessions[1].id }.map(\.2) == [denied])
        #expect(told.filter { $0.session == sessions[2].id }.map(\.2) == [active])
        #expect(sessions[0].diagnostic == active)
        #expect(sessions[1].isInvalidated && sessions[1].diagnostic == denied)
    }

    @Test(
        "CLMonitor and CLServiceSession by version: on iOS 16 a Monitor's add does nothing and leaves no record, and a session object gets no diagnostic"
    )
    func objectsOnIOS16() {
        var monitor: Monitor?
        var session: ServiceSession?
        let world = runWorld(
            policy: .iOS16, authorization: .always, until: 10, actions: [(0, .open)]
        ) {
            SessionEngine { _, services, _ in
                let places = services.monitor(named: FeatureRuntime.monitorName)
                places.add(
                    CircularGeographicCondition(
                        center: home, radius: FeatureRuntime.placeRadiusMeters),
                    identifier: FeatureRuntime.place)
                monitor = places
                session = ServiceSession(services: services, authorization: .always)
            }
        }
        #expect(monitor?.record(for: FeatureRuntime.place) == nil)
        #expect(session?.diagnostic == nil)
        let unavailable = world.log.compactMap {
            if case .unavailableAPI(let api) = $0.kind { api } else { nil }
        }
        #expect(unavailable == [.monitor, .monitor, .serviceSession])
    }

    @Test(
        "R-A2, R-B9: a diagnostic that changes while the app is suspended is held by the mailbox and learned when the app runs again"
    )
    func diagnosticHeldWhileSuspended() throws {
        var session: ServiceSession?
        let grantSeconds = 20.0
        let returnSeconds = 40.0
        let world = runWorld(
            authorization: .whenInUse, route: parked, until: 50,
            actions: [
                (0, .open), (2, .leave), (grantSeconds, .setAuthorization(.always)),
                (returnSeconds, .open),
            ]
        ) {
            SessionEngine { _, services, _ in
                session = ServiceSession(services: services, authorization: .always)
            }
        }
        let handed = world.log.filter {
            if case .sessionDiagnostic = $0.kind { true } else { false }
        }
        // Each was handed to a running process: the second at the return, not at the grant.
        #expect(handed.allSatisfy { $0.processState.isRunning })
        #expect(handed.map { ($0.instant - .start).seconds } == [0, returnSeconds])
        #expect(try #require(session).diagnostic == SessionDiagnostic(isActive: true))
    }

    @Test("R-B9: a service session's requirement cannot be denied")
    func serviceSessionRequirementHasNoDenied() {
        #expect(
            ServiceSessionRequirement.allCases.map(\.rawValue) == ["none", "when-in-use", "always"])
    }

    @Test(
        "R-F8: record(for:) follows a condition's exit and then its entry, each with its instant"
    )
    func recordFollowsExitThenEntry() throws {
        let recorder = RuntimeRecorder()
        var monitor: Monitor?
        _ = runWorld(
            authorization: .always, route: outAndBack, until: 300,
            actions: [(0, .open), (0, .attachTestHost(true))]
        ) {
            SessionEngine { _, services, engine in
                let places = services.monitor(named: FeatureRuntime.monitorName)
                places.delegate = recorder
                places.add(
                    CircularGeographicCondition(
                        center: home, radius: FeatureRuntime.placeRadiusMeters),
                    identifier: FeatureRuntime.place, assuming: .satisfied)
                #expect(places.record(for: FeatureRuntime.place)?.lastEvent.state == .satisfied)
                #expect(services.monitor(named: FeatureRuntime.monitorName) === places)
                monitor = places
                engine.objects.append(places)
            }
        }
        #expect(recorder.events.map(\.event.state) == [.unsatisfied, .satisfied])
        let seconds = recorder.events.compactMap { $0.event.date.map { ($0 - .start).seconds } }
        #expect(seconds.count == 2)
        for (second, expected) in zip(seconds, RegionEntryTests.crossings) {
            #expect(abs(second - expected) < Self.tolerance)
        }
        // Each event reached the delegate with the record already following it.
        #expect(recorder.events.allSatisfy { $0.record?.lastEvent == $0.event })
        let last = try #require(recorder.events.last?.event)
        #expect(try #require(monitor).record(for: FeatureRuntime.place)?.lastEvent == last)
    }

    @Test(
        "R-F8: CLMonitor's first determination: a condition added assuming unknown (or the wrong state) gets the device's state at once; a right guess gets no event",
        arguments: [
            (ConditionState.unknown, [ConditionState.satisfied]), (.unsatisfied, [.satisfied]),
            (.satisfied, []),
        ])
    func initialDetermination(assumed: ConditionState, expected: [ConditionState]) {
        let recorder = RuntimeRecorder()
        var monitor: Monitor?
        _ = runWorld(authorization: .always, route: parked, until: 10, actions: [(0, .open)]) {
            SessionEngine { _, services, engine in
                let places = services.monitor(named: FeatureRuntime.monitorName)
                places.delegate = recorder
                places.add(
                    CircularGeographicCondition(
                        center: home, radius: FeatureRuntime.placeRadiusMeters),
                    identifier: FeatureRuntime.place, assuming: assumed)
                monitor = places
                engine.objects.append(places)
            }
        }
        #expect(recorder.events.map(\.event.state) == expected)
        #expect(recorder.events.allSatisfy { $0.event.date == .start })
        let state = monitor?.record(for: FeatureRuntime.place)?.lastEvent.state
        #expect(state == expected.last ?? assumed)
    }
}
