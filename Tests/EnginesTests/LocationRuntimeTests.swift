// LocationRuntime, source A's exercise: restorations as a pure function, the saved record of
// features, and the runtime restored at relaunches, held exactly as the features need (R-A14),
// never started undetermined (R-A13), waiting for the first unlock (R-D9).
import Simulation
import Testing
import World

@testable import Engines

let home = Coordinate(latitude: 51.5007, longitude: -0.1246)
/// Source A's watched place: a 100 m circle around where the route starts.
let office = WatchedPlace(identifier: "office", center: home, radiusMeters: 100)

/// A drive east at `speed` m/s from `home`, after `parkedFor`.
func drive(_ speed: Double, parkedFor: VirtualDuration = .zero) -> Route {
    Route(
        start: home, headingDegrees: 90,
        segments: [
            .init(.park, parkedFor), .init(.drive, .hours(2), speedMetersPerSecond: speed),
        ])
}

/// A device that never moves.
let parked = Route(start: home, headingDegrees: 90, segments: [.init(.park, .hours(2))])

/// A world run with every runtime the factory made (one per launch) and the trace's app
/// requests.
struct RuntimeRun {
    var world: World
    var runtimes: [LocationRuntime]
    /// Each batch of location requests the app sent, with its second and process.
    var requests: [(seconds: Double, generation: Int, requests: [AppRequest])]

    /// The batches of process `generation`.
    func requests(ofProcess generation: Int) -> [[AppRequest]] {
        requests.filter { $0.generation == generation }.map(\.requests)
    }

    /// Seconds of every launch, with its context.
    var launches: [(seconds: Double, context: LaunchContext)] {
        world.log.compactMap { entry in
            guard case .launch(let context) = entry.kind else { return nil }
            return ((entry.instant - .start).seconds, context)
        }
    }

    var terminations: [TerminationCause] {
        world.log.compactMap { if case .killed(let cause) = $0.kind { cause } else { nil } }
    }

    /// The features on the device's disk now.
    var savedFeatures: LocationFeatures? {
        guard case .string(let text) = world.savedRecordOnDisk[LocationRuntime.featuresKey]
        else { return nil }
        return LocationFeatures(savedText: text)
    }
}

/// Runs a world until `end` with `actions` at the given seconds, a new `LocationRuntime`
/// with `settings` at every launch (`prepare` sees each before it runs).
func runRuntime(
    authorization: Authorization = .always, route: Route = drive(15),
    settings: LocationRuntimeSettings, until end: Double, actions: [(Double, UserAction)],
    prepare: @escaping (LocationRuntime) -> Void = { _ in }
) -> RuntimeRun {
    let trace = MemoryTrace<WorldMessage>()
    var runtimes: [LocationRuntime] = []
    var world = World(
        WorldConfiguration(authorization: authorization, route: route), trace: trace
    ) {
        let runtime = LocationRuntime(settings: settings)
        prepare(runtime)
        runtimes.append(runtime)
        return runtime
    }
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + VirtualDuration(seconds: end))
    let requests = trace.records.compactMap { record -> (Double, Int, [AppRequest])? in
        guard case .requests(let requests, let generation) = record.message else { return nil }
        return ((record.instant - .start).seconds, generation, requests)
    }
    return RuntimeRun(
        world: world, runtimes: runtimes,
        requests: requests.map { (seconds: $0.0, generation: $0.1, requests: $0.2) })
}

/// The first requests of each kind R-A14 orders, as the names of what they make.
func restorationRequests(_ batch: [AppRequest]) -> [String] {
    batch.compactMap { request in
        switch request {
        case .beginServiceSessionRequiring(_, let requirement, _):
            "service session \(requirement.rawValue)"
        case .beginBackgroundActivitySession: "background activity session"
        case .startLiveUpdates(_, let configuration): "live updates \(configuration.rawValue)"
        case .openMonitor(let name): "monitor \(name)"
        case .startSignificantChanges: "significant changes"
        default: nil
        }
    }
}

/// True for a request that starts a location service or session.
func startsSomething(_ request: AppRequest) -> Bool {
    switch request {
    case .beginServiceSession, .beginServiceSessionRequiring, .beginBackgroundActivitySession,
        .startLiveUpdates, .startUpdatingLocation, .startSignificantChanges, .openMonitor,
        .addCondition, .addMonitorCondition, .startMonitoringRegion, .startVisits:
        true
    default: false
    }
}

@Suite("LocationRuntime")
struct LocationRuntimeTests {
    static let workoutAndOffice = LocationFeatures(recordingWorkout: true, watchedPlaces: [office])
    static let active = SessionDiagnostic(isActive: true)

    // MARK: - The pure function and the saved text

    @Test(
        "R-A14: restorations mirror source A: a workout and one place with Always give the service session (Always), the background activity session and the Places monitor, in that order; nothing saved gives nothing"
    )
    func restorationsOfSourceA() throws {
        let restored = try #require(
            LocationFeatures(savedText: Self.workoutAndOffice.savedText))
        #expect(restored == Self.workoutAndOffice)
        #expect(
            restorations(for: restored, authorizedAlways: true) == [
                .serviceSession(always: true), .backgroundActivitySession,
                .monitor(name: "Places"),
            ])
        #expect(restorations(for: LocationFeatures(), authorizedAlways: true).isEmpty)
    }

    @Test(
        "R-A14, R-B9: a session is Always only when a feature needs it and Always is granted; significant change comes last"
    )
    func restorationsChooseTheServiceSession() {
        let commute = LocationFeatures(commuteDetection: true)
        #expect(
            restorations(for: commute, authorizedAlways: false)
                == [.serviceSession(always: false), .significantChanges])
        let workout = LocationFeatures(recordingWorkout: true)
        #expect(
            restorations(for: workout, authorizedAlways: true)
                == [.serviceSession(always: false), .backgroundActivitySession])
        let everything = LocationFeatures(
            recordingWorkout: true, watchedPlaces: [office], commuteDetection: true)
        #expect(
            restorations(for: everything, authorizedAlways: true) == [
                .serviceSession(always: true), .backgroundActivitySession,
                .monitor(name: "Places"), .significantChanges,
            ])
    }

    @Test(
        "R-A14: the saved text reads back exactly (escaped identifiers, exact doubles), and is read defensively"
    )
    func savedTextIsDefensive() throws {
        let odd = WatchedPlace(
            identifier: "a,b;c|d=e%f", center: Coordinate(latitude: -33.8688, longitude: 151.2093),
            radiusMeters: 150.25)
        let features = LocationFeatures(
            recordingWorkout: false, watchedPlaces: [office, odd], commuteDetection: true)
        #expect(LocationFeatures(savedText: features.savedText) == features)
        // Not a features text: unreadable.
        #expect(LocationFeatures(savedText: "") == nil)
        #expect(LocationFeatures(savedText: "features/2|workout=1") == nil)
        // A bad place (too few parts, a latitude past 90°, a repeated identifier) is left out;
        // an unknown key is ignored; a flag other than 1 is off.
        let good = try #require(
            LocationFeatures(savedText: LocationFeatures(watchedPlaces: [office]).savedText))
        let placesField = try #require(good.savedText.split(separator: "|").last)
        let badLatitude = SavedText.bits(91)
        let text =
            "features/1|workout=yes|colour=blue|commute=1|"
            + "\(placesField);x,1;y,\(badLatitude),0,\(SavedText.bits(10));\(placesField.dropFirst(7))"
        let read = try #require(LocationFeatures(savedText: text))
        #expect(read == LocationFeatures(watchedPlaces: [office], commuteDetection: true))
    }

    // MARK: - Source A's exercise

    @Test(
        "000_ exercise, R-A14, R-B4, R-B10, R-B9: a runtime recreated from its saved record at a relaunch after a force-quit holds the service session (Always), the background activity session and the Places monitor, in that order, each session active"
    )
    func exerciseRelaunchAfterForceQuit() throws {
        let run = runRuntime(
            settings: LocationRuntimeSettings(initialFeatures: Self.workoutAndOffice), until: 75,
            actions: [(0, .open), (5, .leave), (60, .forceQuit)])
        #expect(run.terminations == [.forceQuit])
        #expect(run.launches.count == 2 && run.runtimes.count == 2)
        let relaunch = try #require(run.launches.last)
        #expect(relaunch.context.state == .background)
        #expect(relaunch.seconds > 60 && relaunch.seconds < 62, "R-B4: within about 1 s")
        // The first process started its features; it restored nothing.
        #expect(run.runtimes[0].restored.isEmpty)

        let runtime = run.runtimes[1]
        #expect(runtime.features == Self.workoutAndOffice)
        #expect(
            runtime.restored == [
                .serviceSession(always: true), .backgroundActivitySession,
                .monitor(name: "Places"),
            ])
        let service = try #require(runtime.serviceSession)
        let activity = try #require(runtime.backgroundActivitySession)
        #expect(service.authorization == .always && !service.isInvalidated)
        #expect(service.diagnostic?.isActive == true)
        #expect(activity.diagnostic?.isActive == true)
        #expect(runtime.significantChangeManager == nil, "commute detection was not saved")
        let record = try #require(runtime.placesMonitor?.record(for: office.identifier))
        #expect(record.condition == CircularGeographicCondition(center: home, radius: 100))
        // The launch callback's requests: sessions first, in R-A14's order, and the monitor
        // reopened by name without adding its condition again (it outlives the process).
        let launchBatch = try #require(run.requests(ofProcess: 2).first)
        #expect(
            restorationRequests(launchBatch) == [
                "service session always", "background activity session", "live updates fitness",
                "monitor Places",
            ])
        #expect(!launchBatch.contains { if case .addMonitorCondition = $0 { true } else { false } })
        // R-B13, R-B14: the workout goes on recording in the relaunched process.
        let state = runtime.state(at: .start + .seconds(75))
        #expect(state.enabled && state.sessionEngineActive)
        #expect(state.lastAcceptedFixAge.map { $0 <= .seconds(1) } == true)
        #expect(
            runtime.events.contains(.resumed(launchedIn: .background))
                && runtime.events.contains(.runtime(.restored(runtime.restored))))
        #expect(
            runtime.events.contains(.runtime(.sessionDiagnostic(.service, Self.active)))
                && runtime.events.contains(
                    .runtime(.sessionDiagnostic(.backgroundActivity, Self.active)))
        )
    }

    @Test(
        "000_ exercise, R-A14, R-B3, R-A12: purged for memory while suspended, the runtime relaunched by the drive restores its sessions and monitor, and the Places monitor then reports the office exit to it"
    )
    func exerciseRelaunchAfterMemoryPurge() throws {
        // Parked: the workout's live updates pause after 2 min (R-C2) and the app is
        // suspended; purged at 200 s; the drive from 300 s relaunches it (R-B3), and at 15 m/s
        // it is 300 m out (radius and cushion) at 320 s, so the exit comes 85 s later.
        let run = runRuntime(
            route: drive(15, parkedFor: .seconds(300)),
            settings: LocationRuntimeSettings(initialFeatures: Self.workoutAndOffice), until: 420,
            actions: [(0, .open), (1, .leave), (200, .memoryPressure)])
        #expect(run.terminations == [.memory])
        #expect(run.launches.count == 2)
        let runtime = try #require(run.runtimes.last)
        #expect(
            runtime.restored == [
                .serviceSession(always: true), .backgroundActivitySession,
                .monitor(name: "Places"),
            ])
        #expect(runtime.serviceSession?.diagnostic?.isActive == true)
        #expect(runtime.backgroundActivitySession?.diagnostic?.isActive == true)
        let places = runtime.events.compactMap { event -> MonitorEvent? in
            if case .runtime(.place(let place)) = event { place } else { nil }
        }
        #expect(places.map(\.state) == [.unsatisfied])
        #expect(places.first?.identifier == office.identifier)
        let exitSeconds = try #require(places.first?.date.map { ($0 - .start).seconds })
        #expect(abs(exitSeconds - 405) < 0.1)
        #expect(
            runtime.placesMonitor?.record(for: office.identifier)?.lastEvent == places.first)
    }

    // MARK: - R-A13 and nothing saved

    @Test(
        "R-A13: undetermined, the runtime starts nothing, asks for When In Use, starts at the answer, and moves its service session to Always when Always is granted"
    )
    func undeterminedStartsNothingUntilAnswered() throws {
        let answerDelaySeconds = AuthorizationAnswers().responseDelay.seconds
        let run = runRuntime(
            authorization: .notDetermined,
            settings: LocationRuntimeSettings(initialFeatures: Self.workoutAndOffice), until: 10,
            actions: [(0, .open)])
        let runtime = try #require(run.runtimes.first)
        #expect(run.runtimes.count == 1)
        let starts = run.requests.filter { $0.requests.contains(where: startsSomething) }
        #expect(!starts.isEmpty)
        #expect(starts.allSatisfy { $0.seconds >= answerDelaySeconds }, "nothing before")
        #expect(starts.first?.seconds == answerDelaySeconds)
        #expect(
            restorationRequests(try #require(starts.first).requests) == [
                "service session when-in-use", "background activity session",
                "live updates fitness", "monitor Places",
            ])
        #expect(
            Array(runtime.events.prefix(3)) == [
                .runtime(.featuresSaved(Self.workoutAndOffice)),
                .permissionMissing(.notDetermined),
                .runtime(.authorizationRequested(.whenInUse)),
            ])
        #expect(runtime.events.contains(.runtime(.authorizationRequested(.always))))
        // Both prompts answered (When In Use, then Always): the session requires Always now.
        let service = try #require(runtime.serviceSession)
        #expect(service.authorization == .always && service.diagnostic?.isActive == true)
        #expect(runtime.state(at: .start + .seconds(10)).sessionEngineActive)
        #expect(runtime.placesMonitor?.record(for: office.identifier) != nil)
        #expect(runtime.restored.isEmpty, "first-open features are started, not restored")
    }

    @Test(
        "R-A13, R-A14: a place saved while undetermined and never registered is added by the next process that may start it, and a registered one is not added again"
    )
    func placeSavedUndeterminedIsAddedLater() throws {
        let places = LocationFeatures(watchedPlaces: [office])
        let run = runRuntime(
            authorization: .notDetermined, route: parked,
            settings: LocationRuntimeSettings(
                initialFeatures: places, requestsAuthorization: false),
            until: 70,
            actions: [
                (0, .open), (5, .leave), (30, .memoryPressure), (40, .setAuthorization(.always)),
                (50, .open), (55, .leave), (60, .open),
            ])
        #expect(run.terminations == [.memory])
        #expect(run.runtimes.count == 2)
        #expect(run.requests(ofProcess: 1).isEmpty, "undetermined: nothing at all")
        let adds = run.requests.flatMap { batch in
            batch.requests.compactMap { request -> (Int, String)? in
                guard case .addMonitorCondition(let monitor, let condition, _, _, _) = request
                else { return nil }
                return (batch.generation, "\(monitor)/\(condition)")
            }
        }
        #expect(adds.map(\.0) == [2] && adds.map(\.1) == ["Places/office"])
        let runtime = try #require(run.runtimes.last)
        #expect(runtime.restored == [.serviceSession(always: true), .monitor(name: "Places")])
        #expect(runtime.serviceSession?.diagnostic?.isActive == true)
        #expect(
            run.world.savedRecordOnDisk[LocationRuntime.registeredPlacesKey] == .string("office"))
    }

    @Test("R-A14: with nothing saved, the runtime starts nothing, foreground or background")
    func nothingSavedStartsNothing() throws {
        let run = runRuntime(
            settings: LocationRuntimeSettings(), until: 60,
            actions: [(0, .open), (5, .leave), (30, .open)])
        #expect(run.runtimes.count == 1)
        #expect(run.requests.allSatisfy { !$0.requests.contains(where: startsSomething) })
        #expect(run.requests.isEmpty, "no location request of any kind")
        let runtime = try #require(run.runtimes.first)
        #expect(runtime.restored.isEmpty && runtime.events.isEmpty)
        #expect(runtime.serviceSession == nil && runtime.placesMonitor == nil)
        #expect(run.world.savedRecordOnDisk[LocationRuntime.featuresKey] == nil)
        #expect(!runtime.state(at: .start + .seconds(60)).sessionEngineActive)
    }

    // MARK: - Holding exactly what the features need

    @Test(
        "R-A14: stopping a feature ends exactly its objects and saves the record: the workout its session and live updates, a place its condition, commute detection its significant change and, needing no session then, the service session"
    )
    func stoppingEndsExactlyItsObjects() throws {
        let everything = LocationFeatures(
            recordingWorkout: true, watchedPlaces: [office], commuteDetection: true)
        var foregrounds = 0
        let run = runRuntime(
            settings: LocationRuntimeSettings(initialFeatures: everything), until: 60,
            actions: [
                (0, .open), (5, .leave), (10, .open), (15, .leave), (20, .open), (25, .leave),
                (30, .open),
            ]
        ) { runtime in
            runtime.onForeground = { runtime, services in
                foregrounds += 1
                switch foregrounds {
                case 2: runtime.stopWorkout(services: services)
                case 3: runtime.unwatch(identifier: office.identifier, services: services)
                case 4: runtime.setCommuteDetection(false, services: services)
                default: break
                }
            }
        }
        #expect(foregrounds == 4)
        let runtime = try #require(run.runtimes.first)
        let batches = run.requests(ofProcess: 1)
        let launch = try #require(batches.first)
        let ids = launch.compactMap { request -> ObjectID? in
            switch request {
            case .beginServiceSessionRequiring(let id, _, _),
                .beginBackgroundActivitySession(let id),
                .startLiveUpdates(let id, _):
                id
            default: nil
            }
        }
        #expect(ids.count == 3)
        let (service, activity, live) = (ids[0], ids[1], ids[2])
        let at = { (seconds: Double) in
            run.requests.filter { $0.seconds == seconds }.map(\.requests)
        }
        #expect(
            at(10) == [[.invalidateBackgroundActivitySession(activity), .stopLiveUpdates(live)]])
        #expect(at(20) == [[.removeCondition(monitor: "Places", condition: office.identifier)]])
        #expect(at(30) == [[.stopSignificantChanges, .invalidateServiceSession(service)]])
        #expect(
            runtime.serviceSession == nil && runtime.backgroundActivitySession == nil
                && runtime.placesMonitor == nil && runtime.significantChangeManager == nil)
        #expect(run.savedFeatures == LocationFeatures())
        #expect(runtime.events.contains(.stopped))
        #expect(
            runtime.events.contains(
                .runtime(
                    .featuresSaved(LocationFeatures(watchedPlaces: [], commuteDetection: true)))
            ))
    }

    @Test(
        "R-A14: a relaunch after the workout stopped restores only what is left: the service session (Always) and the Places monitor"
    )
    func relaunchRestoresWhatIsLeft() throws {
        var stopped = false
        let run = runRuntime(
            settings: LocationRuntimeSettings(initialFeatures: Self.workoutAndOffice), until: 120,
            actions: [(0, .open), (5, .leave), (10, .open), (15, .forceQuit), (20, .open)]
        ) { runtime in
            runtime.onForeground = { runtime, services in
                if !stopped && services.now == .start + .seconds(10) {
                    stopped = true
                    runtime.stopWorkout(services: services)
                }
            }
        }
        #expect(run.launches.count == 2)
        // No live updates after the stop, so no session relaunch (R-B4): the user opens it.
        #expect(run.launches.last?.context.state == .foreground)
        let runtime = try #require(run.runtimes.last)
        #expect(runtime.restored == [.serviceSession(always: true), .monitor(name: "Places")])
        #expect(runtime.backgroundActivitySession == nil)
        #expect(runtime.serviceSession?.diagnostic?.isActive == true)
        #expect(runtime.state(at: .start + .seconds(120)).sessionEngineActive)
        #expect(!runtime.state(at: .start + .seconds(120)).enabled)
    }

    // MARK: - R-D9

    @Test(
        "R-D9: relaunched after a reboot before the first unlock, the runtime does not take the empty record for nothing saved: it waits, and restores at the unlock"
    )
    func waitsForFirstUnlock() throws {
        let features = LocationFeatures(watchedPlaces: [office], commuteDetection: true)
        let unlockSeconds = 75.0
        let run = runRuntime(
            route: parked, settings: LocationRuntimeSettings(initialFeatures: features),
            until: 100, actions: [(0, .open), (10, .reboot), (unlockSeconds, .unlock)])
        #expect(run.terminations.first == .reboot)
        #expect(run.launches.count == 2)
        let relaunch = try #require(run.launches.last)
        #expect(!relaunch.context.protectedDataAvailable)
        #expect(relaunch.seconds < unlockSeconds)
        let runtime = try #require(run.runtimes.last)
        #expect(runtime.events.first == .waitingForFirstUnlock)
        let process2 = run.requests.filter { $0.generation == 2 }
        #expect(process2.allSatisfy { $0.seconds >= unlockSeconds }, "nothing before the unlock")
        #expect(
            restorationRequests(try #require(process2.first).requests) == [
                "service session always", "monitor Places", "significant changes",
            ])
        #expect(
            runtime.restored == [
                .serviceSession(always: true), .monitor(name: "Places"), .significantChanges,
            ])
        #expect(runtime.features == features)
        #expect(runtime.serviceSession?.diagnostic?.isActive == true)
        // The record was never overwritten with "nothing".
        #expect(run.savedFeatures == features)
    }
}
