// The Core Location calls a tracker uses beyond updates and regions: `requestLocation()`, the
// system's cached `location`, `requestState(for:)`, `didStartMonitoringFor` and
// `monitoredRegions` across a relaunch (R-G1–R-G5), on the world's `LocationManager`.
import Simulation
import Testing
import World

/// What the delegates of every process were told, in order (it outlives each process).
final class CallNotes: @unchecked Sendable {
    var lines: [String] = []
    var launches = 0
}

/// One `LocationManager` per process, the engine its delegate; `setUp` runs at each launch.
final class CallEngine: AppEngine, LocationManagerDelegate {
    let notes: CallNotes
    let setUp: (LocationManager, CallNotes) -> Void
    private var manager: LocationManager?

    init(_ notes: CallNotes, setUp: @escaping (LocationManager, CallNotes) -> Void) {
        self.notes = notes
        self.setUp = setUp
        notes.launches += 1
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = LocationManager(services: services)
        manager.delegate = self
        self.manager = manager
        setUp(manager, notes)
    }

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        notes.lines.append("fixes \(locations.count)")
    }
    func locationManager(_ manager: LocationManager, didFailWithError error: LocationError) {
        notes.lines.append("failed \(error.rawValue)")
    }
    func locationManager(_ manager: LocationManager, didStartMonitoringFor regionIdentifier: String)
    {
        notes.lines.append("started \(regionIdentifier)")
    }
    func locationManager(
        _ manager: LocationManager, didDetermineState state: ConditionState,
        forRegion regionIdentifier: String
    ) {
        notes.lines.append("state \(regionIdentifier) \(state.rawValue)")
    }
    func locationManager(
        _ manager: LocationManager, monitoringDidFailFor regionIdentifier: String,
        withError error: LocationError
    ) {
        notes.lines.append("monitoring failed \(regionIdentifier)")
    }
}

/// A region of 100 m around `home`, or 0.1° north of it (about 11 km away) when `far`.
func region(_ identifier: String, far: Bool = false) -> CircularRegion {
    CircularRegion(
        identifier: identifier,
        center: Coordinate(
            latitude: home.latitude + (far ? 0.1 : 0), longitude: home.longitude),
        radiusMeters: 100)
}

@Suite("Core Location calls: requestLocation, location, requestState, monitoredRegions")
struct CoreLocationCallTests {
    func run(
        policy: IOSPolicy = .measured, route: Route = drive(20), until end: Double,
        actions: [(Double, UserAction)] = [(0, .open)],
        setUp: @escaping (LocationManager, CallNotes) -> Void
    ) -> (World, CallNotes) {
        let notes = CallNotes()
        let world = runWorld(
            policy: policy, authorization: .always, route: route, until: end, actions: actions
        ) { CallEngine(notes, setUp: setUp) }
        return (world, notes)
    }

    func fixCount(_ world: World) -> Int {
        world.log.filter {
            if case .location(let update) = $0.kind { update.fix != nil } else { false }
        }.count
    }

    @Test("R-G1: requestLocation() gives one fix to the delegate, then the request ends")
    func requestLocationGivesOneFix() {
        let (world, notes) = run(until: 60) { manager, _ in manager.requestLocation() }
        #expect(notes.lines == ["fixes 1"])
        #expect(fixCount(world) == 1, "a minute's drive, and the daemon made one fix for it")
    }

    @Test(
        "R-G1: no fix within requestLocationTimeout ends the request with locationUnknown, and no fix follows"
    )
    func requestLocationTimesOut() {
        // The fix grid's first epoch is 1 s after the launch: a 200 ms wait ends first.
        var policy = IOSPolicy.measured
        policy.requestLocationTimeout = .milliseconds(200)
        let (world, notes) = run(policy: policy, until: 60) { manager, _ in
            manager.requestLocation()
        }
        #expect(notes.lines == ["failed location-unknown"])
        #expect(fixCount(world) == 0)
    }

    @Test("R-G1: stopUpdatingLocation() cancels a pending requestLocation(): no fix, no error")
    func stopCancelsRequestLocation() {
        // The story: the app asks for one fix, then the user turns tracking off and the app
        // stops its manager before the fix comes (the fix grid's first epoch is 1 s in).
        let (world, notes) = run(until: 60) { manager, _ in
            manager.requestLocation()
            manager.stopUpdatingLocation()
        }
        #expect(notes.lines == [])
        #expect(fixCount(world) == 0)
    }

    @Test(
        "R-G2: a freshly launched process reads the system's last fix as location, before any fix of its own"
    )
    func cachedLocationOutlivesTheProcess() {
        let (world, notes) = run(
            until: 90, actions: [(0, .open), (30, .exit), (60, .open)]
        ) { manager, notes in
            let cached = manager.location.map { "\($0.instant)" } ?? "none"
            notes.lines.append("cached \(cached)")
            if notes.launches == 1 { manager.startUpdatingLocation() }
        }
        // The daemon's fixes: handed to the app, or dropped as the first process ended.
        let fixes = world.log.compactMap { entry -> Fix? in
            switch entry.kind {
            case .location(let update), .dropped(.location(let update), _): update.fix
            default: nil
            }
        }
        let launches = notes.lines.filter { $0.hasPrefix("cached") }
        #expect(fixes.count > 20)
        #expect(launches.count == 2)
        #expect(launches.first == "cached none", "no fix before the first")
        #expect(launches.last == "cached \(fixes.last!.instant)", "the first process's last fix")
    }

    @Test(
        "R-G3: requestState(for:) answers inside, outside, or unknown for a region not monitored"
    )
    func requestStateAnswers() {
        let (_, notes) = run(route: drive(20, parkedFor: .seconds(60)), until: 30) { manager, _ in
            manager.startMonitoring(for: region("home"))
            manager.startMonitoring(for: region("far", far: true))
            manager.requestState(for: region("home"))
            manager.requestState(for: region("far", far: true))
            manager.requestState(for: region("elsewhere"))
        }
        #expect(
            notes.lines == [
                "state home satisfied", "state far unsatisfied", "state elsewhere unknown",
            ])
    }

    @Test(
        "R-G4: didStartMonitoringFor follows a region the daemon accepted, not one over the limit"
    )
    func didStartMonitoringFor() {
        var policy = IOSPolicy.measured
        policy.regionCountMax = 1
        for reports in [true, false] {
            let (_, notes) = run(policy: policy, until: 30) { manager, _ in
                manager.reportsMonitoringStarts = reports
                manager.startMonitoring(for: region("home"))
                manager.startMonitoring(for: region("far", far: true))
            }
            #expect(
                notes.lines
                    == (reports
                        ? ["started home", "monitoring failed far"] : ["monitoring failed far"]))
        }
    }

    @Test(
        "R-G5: monitoredRegions survive a relaunch: what an earlier process registered, less what it stopped or the daemon refused"
    )
    func monitoredRegionsSurviveRelaunch() {
        var policy = IOSPolicy.measured
        policy.regionCountMax = 2
        let (_, notes) = run(
            policy: policy, until: 60, actions: [(0, .open), (10, .exit), (20, .open)]
        ) { manager, notes in
            let regions = manager.monitoredRegions.map(\.identifier).joined(separator: " ")
            notes.lines.append("regions [\(regions)]")
            guard notes.launches == 1 else { return }
            manager.startMonitoring(for: region("home"))
            manager.startMonitoring(for: region("far", far: true))
            manager.startMonitoring(for: region("third", far: true))  // over the limit
            manager.stopMonitoring(for: region("far", far: true))
        }
        #expect(
            notes.lines == ["regions []", "monitoring failed third", "regions [home]"],
            "the second process reads home; far was stopped, third refused")
    }
}
