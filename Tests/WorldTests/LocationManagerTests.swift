// The engine API's manager objects: `LocationManager` and its delegate, routed per manager by the
// app process (batches, pause and resume, authorization with accuracy, regions after a relaunch).
import Simulation
import Testing

@testable import World

/// What the delegates of every process saw, in order: one entry per callback.
final class DelegateRecorder {
    enum Call: Equatable {
        case locations(manager: ObjectID, [Fix])
        case paused(ObjectID)
        case resumed(ObjectID)
        case authorization(Authorization, AccuracyAuthorization)
        case exit(generation: Int, manager: ObjectID, region: String)
        case failed(ObjectID, LocationError)
    }
    var calls: [Call] = []
    var launches = 0

    /// The fix batches given to manager `id`'s delegate.
    func batches(of id: ObjectID) -> [[Fix]] {
        calls.compactMap {
            if case .locations(id, let fixes) = $0 { fixes } else { nil }
        }
    }
}

/// One delegate object per manager, recording what its manager is told.
final class RecordingDelegate: LocationManagerDelegate {
    let recorder: DelegateRecorder
    let generation: Int
    init(recorder: DelegateRecorder, generation: Int) {
        self.recorder = recorder
        self.generation = generation
    }

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        recorder.calls.append(.locations(manager: manager.id, locations))
    }
    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
        recorder.calls.append(.failed(manager.id, error))
    }
    func locationManagerDidPauseLocationUpdates(_ manager: LocationManager) {
        recorder.calls.append(.paused(manager.id))
    }
    func locationManagerDidResumeLocationUpdates(_ manager: LocationManager) {
        recorder.calls.append(.resumed(manager.id))
    }
    func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
        recorder.calls.append(
            .authorization(manager.authorizationStatus, manager.accuracyAuthorization))
    }
    func locationManager(_ manager: LocationManager, didExitRegion regionIdentifier: String) {
        recorder.calls.append(
            .exit(generation: generation, manager: manager.id, region: regionIdentifier))
    }
}

/// An engine in the manager-object style: `setUp` configures its managers at every launch; the
/// engine holds them and their delegates, and restarts updates when the app comes to the
/// foreground (if `restartsInForeground`).
final class ManagerEngine: AppEngine {
    let recorder: DelegateRecorder
    let setUp: (LaunchContext, LocationServices, ManagerEngine) -> Void
    var restartsInForeground = false
    var managers: [LocationManager] = []
    var delegates: [RecordingDelegate] = []

    init(
        recorder: DelegateRecorder,
        setUp: @escaping (LaunchContext, LocationServices, ManagerEngine) -> Void
    ) {
        self.recorder = recorder
        self.setUp = setUp
    }

    /// A new manager whose delegate records into `recorder`.
    func makeManager(_ services: LocationServices) -> LocationManager {
        let manager = LocationManager(services: services)
        let delegate = RecordingDelegate(recorder: recorder, generation: recorder.launches)
        manager.delegate = delegate
        managers.append(manager)
        delegates.append(delegate)
        return manager
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        recorder.launches += 1
        setUp(launch, services, self)
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        guard restartsInForeground, state == .foreground else { return }
        for manager in managers { manager.startUpdatingLocation() }
    }
}

/// The fixes the log shows handed to manager `id`, in order.
func loggedFixes(of world: World, manager id: ObjectID) -> [Fix] {
    world.log.compactMap { entry in
        guard case .location(let update) = entry.kind, update.channel == .manager(id) else {
            return nil
        }
        return update.fix
    }
}

@Suite("Location manager objects and delegates")
struct LocationManagerTests {
    @Test("a manager's delegate gets the fixes of its own manager only")
    func delegateGetsOwnManagersFixes() {
        let recorder = DelegateRecorder()
        let world = runWorld(authorization: .always, until: 20, actions: [(0, .open)]) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                let precise = engine.makeManager(services)
                let coarse = engine.makeManager(services)
                coarse.desiredAccuracy = LocationAccuracy.threeKilometers
                precise.startUpdatingLocation()
                coarse.startUpdatingLocation()
            }
        }
        let precise = ObjectID(1)
        let coarse = ObjectID(2)
        let preciseFixes = recorder.batches(of: precise).flatMap { $0 }
        let coarseFixes = recorder.batches(of: coarse).flatMap { $0 }
        #expect(preciseFixes.count > 10)
        #expect(preciseFixes == loggedFixes(of: world, manager: precise))
        #expect(coarseFixes == loggedFixes(of: world, manager: coarse))
        #expect(preciseFixes.allSatisfy { $0.source == .gnss })
        #expect(coarseFixes.allSatisfy { $0.source != .gnss })
    }

    @Test(
        "R-A2: a suspended app that runs again gets its manager's held fixes in one batch, in order"
    )
    func heldFixesArriveInOneBatch() {
        let recorder = DelegateRecorder()
        let world = runWorld(
            authorization: .always, until: 40, actions: [(0, .open), (2, .leave), (30, .open)]
        ) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                engine.makeManager(services).startUpdatingLocation()
            }
        }
        let manager = ObjectID(1)
        let heldAndHanded = world.log.compactMap { entry -> Fix? in
            guard entry.instant == .start + .seconds(30), case .location(let update) = entry.kind,
                let fix = update.fix, fix.instant < .start + .seconds(30)
            else { return nil }
            return fix
        }
        #expect(heldAndHanded.count > 1, "fixes were held while suspended")
        let batches = recorder.batches(of: manager).filter { $0.count > 1 }
        #expect(batches == [heldAndHanded], "one call with every held fix")
        let instants = heldAndHanded.map(\.instant)
        #expect(instants == instants.sorted(), "oldest first")
        #expect(
            recorder.batches(of: manager).flatMap { $0 }
                == loggedFixes(of: world, manager: manager),
            "every logged fix reached the delegate once")
    }

    @Test(
        "R-F4: the delegate is told of the automatic pause, and of the resume when the app restarts"
    )
    func pauseAndResume() throws {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
                .init(.drive, .minutes(5), speedMetersPerSecond: 10),
            ])
        let recorder = DelegateRecorder()
        let world = runWorld(
            authorization: .always, route: route, until: 1_400,
            actions: [(0, .open), (5, .leave), (1_200, .open)]
        ) {
            let engine = ManagerEngine(recorder: recorder) { _, services, engine in
                let manager = engine.makeManager(services)
                manager.allowsBackgroundLocationUpdates = true
                manager.startUpdatingLocation()
            }
            engine.restartsInForeground = true
            return engine
        }
        let manager = ObjectID(1)
        let pauseAndResume = recorder.calls.filter {
            switch $0 {
            case .paused, .resumed: true
            default: false
            }
        }
        #expect(pauseAndResume == [.paused(manager), .resumed(manager)])
        let pausedAt = world.seconds {
            if case .locationUpdatesPaused(manager) = $0.kind { true } else { false }
        }
        let resumedAt = world.seconds {
            if case .locationUpdatesResumed(manager) = $0.kind { true } else { false }
        }
        #expect(pausedAt.count == 1)
        let paused = try #require(pausedAt.first)
        let stillFor: Double = 60 + 15 * 60 - 1
        #expect(paused > stillFor && paused < 1_200, "15 min after stopping")
        #expect(resumedAt.map { $0.rounded() } == [1_200])
        let fixes = world.fixSeconds
        #expect(!fixes.contains { $0 > paused && $0 < 1_200 }, "no fix while paused")
        #expect(fixes.contains { $0 > 1_200 }, "fixes again once restarted")
    }

    @Test(
        "R-F10: didChangeAuthorization reports reduced accuracy when the user turns precise location off"
    )
    func accuracyChangeReachesDelegate() {
        let recorder = DelegateRecorder()
        let world = runWorld(
            authorization: .always, until: 30, actions: [(0, .open), (10, .setAccuracy(.reduced))]
        ) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                _ = engine.makeManager(services)
            }
        }
        #expect(recorder.calls == [.authorization(.always, .reduced)])
        #expect(
            world.seconds {
                if case .accuracyAuthorization(.reduced) = $0.kind { true } else { false }
            } == [10])
    }

    @Test("a manager whose delegate is set after an accuracy change is told of it")
    func missedAccuracyChangeIsToldToANewDelegate() {
        let recorder = DelegateRecorder()
        _ = runWorld(
            authorization: .always, until: 30,
            actions: [(0, .open), (5, .exit), (10, .setAccuracy(.reduced)), (20, .open)]
        ) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                _ = engine.makeManager(services)
            }
        }
        #expect(recorder.calls == [.authorization(.always, .reduced)])
    }

    @Test(
        "R-A9: setting allowsBackgroundLocationUpdates without the background mode ends the process"
    )
    func backgroundPropertyWithoutModeCrashes() {
        let recorder = DelegateRecorder()
        let world = runWorld(
            authorization: .always, capabilities: AppCapabilities(locationBackgroundMode: false),
            until: 20, actions: [(0, .open)]
        ) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                let manager = engine.makeManager(services)
                manager.allowsBackgroundLocationUpdates = true
                manager.startUpdatingLocation()
            }
        }
        let crashes = world.log.compactMap { entry -> String? in
            if case .crashed(let reason) = entry.kind { reason } else { nil }
        }
        #expect(crashes.count == 1)
        #expect(crashes.first?.contains("setAllowsBackgroundLocationUpdates") == true)
        #expect(world.terminations == [.crash])
        #expect(world.fixSeconds.isEmpty, "the calls after the assertion did nothing")
    }

    @Test(
        "R-A12, R-B6: a relaunched app's new manager gets the legacy region's exit through its delegate"
    )
    func relaunchedManagerGetsRegionExit() {
        let recorder = DelegateRecorder()
        let world = runWorld(
            policy: .iOS16, authorization: .always, route: drive(50, parkedFor: .seconds(60)),
            until: 200, actions: [(0, .open), (10, .forceQuit)]
        ) {
            ManagerEngine(recorder: recorder) { launch, services, engine in
                let manager = engine.makeManager(services)
                guard launch.state == .foreground else { return }
                manager.startMonitoring(
                    for: CircularRegion(identifier: "r0", center: home, radiusMeters: 100))
            }
        }
        #expect(world.launches.count == 2)
        #expect(recorder.calls == [.exit(generation: 2, manager: ObjectID(1), region: "r0")])
    }

    @Test("significant change reaches the delegate of the manager that started it, not the others")
    func significantChangeGoesToItsManager() {
        let recorder = DelegateRecorder()
        let world = runWorld(authorization: .always, until: 120, actions: [(0, .open)]) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                _ = engine.makeManager(services)
                engine.makeManager(services).startMonitoringSignificantLocationChanges()
            }
        }
        let changes = events(of: world, generation: 1).compactMap { entry -> Fix? in
            if case .significantChange(let fix) = entry.event { fix } else { nil }
        }
        #expect(!changes.isEmpty)
        #expect(recorder.batches(of: ObjectID(2)) == changes.map { [$0] })
        #expect(recorder.batches(of: ObjectID(1)).isEmpty)
    }

    @Test("R-F8: a legacy region's exit reaches every manager's delegate, in creation order")
    func regionExitGoesToEveryManager() {
        let recorder = DelegateRecorder()
        let world = runWorld(
            authorization: .always, route: drive(50, parkedFor: .seconds(60)), until: 200,
            actions: [(0, .open)]
        ) {
            ManagerEngine(recorder: recorder) { _, services, engine in
                engine.makeManager(services).startMonitoring(
                    for: CircularRegion(identifier: "r0", center: home, radiusMeters: 100))
                _ = engine.makeManager(services)
            }
        }
        #expect(events(of: world, generation: 1).map(\.event) == [.regionExit(identifier: "r0")])
        #expect(
            recorder.calls == [
                .exit(generation: 1, manager: ObjectID(1), region: "r0"),
                .exit(generation: 1, manager: ObjectID(2), region: "r0"),
            ])
    }

    @Test("R-F4: a first-form manager, which has no delegate, is sent no pause")
    func firstFormManagerGetsNoPause() {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
            ])
        let world = runWorld(
            authorization: .always, route: route, until: 1_300, actions: [(0, .open)]
        ) {
            ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
        }
        let pausedBy: Double = 60 + 15 * 60 + 1
        #expect(world.fixSeconds.last! < pausedBy, "paused all the same")
        #expect(
            world.seconds {
                if case .locationUpdatesPaused = $0.kind { true } else { false }
            }.isEmpty)
    }
}
