// Temporary full accuracy (ios-facts: Reduced accuracy): asked with a purpose key, answered by
// the scenario, refused in the background, and gone with the process.
import Simulation
import Testing

@testable import World

/// Updates on one manager with itself as delegate; at each launch it asks for temporary full
/// accuracy when `asksAtLaunch`, and in the background when `asksInBackground`.
final class FullAccuracyAsker: AppEngine, LocationManagerDelegate {
    let asksAtLaunch: Bool
    let asksInBackground: Bool
    private var manager: LocationManager?
    init(asksAtLaunch: Bool = true, asksInBackground: Bool = false) {
        self.asksAtLaunch = asksAtLaunch
        self.asksInBackground = asksInBackground
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = services.makeLocationManager()
        manager.delegate = self
        manager.startUpdatingLocation()
        self.manager = manager
        if asksAtLaunch {
            manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
        }
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        if state == .background && asksInBackground {
            manager?.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation")
        }
    }
}

@Suite("Temporary full accuracy")
struct TemporaryFullAccuracyTests {
    static let delay = AuthorizationAnswers().responseDelay

    /// The accuracy changes the app's delegates were told, in seconds from the start.
    static func accuracyChanges(
        granted: Bool = true, actions: [(Double, UserAction)] = [(0, .open)],
        until seconds: Int64 = 60, engine: @escaping () -> any AppEngine
    ) -> (changes: [(Double, AccuracyAuthorization)], world: World) {
        let configuration = WorldConfiguration(
            authorization: .whenInUse, accuracy: .reduced, route: parked,
            authorizationAnswers: AuthorizationAnswers(temporaryFullAccuracy: granted))
        var world = World(configuration, engine: engine)
        for (at, action) in actions {
            world.schedule(action, at: .start + VirtualDuration(seconds: at))
        }
        world.run(until: .start + .seconds(seconds))
        let changes = world.log.compactMap { entry -> (Double, AccuracyAuthorization)? in
            guard case .accuracyAuthorization(let value) = entry.kind else { return nil }
            return ((entry.instant - .start).seconds, value)
        }
        return (changes, world)
    }

    @Test("granted in the foreground: full accuracy after the answer, and GNSS fixes from then")
    func granted() {
        let (changes, world) = Self.accuracyChanges { FullAccuracyAsker() }
        #expect(changes.map(\.1) == [.full])
        #expect(changes.first?.0 == Self.delay.seconds)
        let fixes = world.log.compactMap { entry -> Fix? in
            if case .location(let update) = entry.kind { update.fix } else { nil }
        }
        let policy = IOSPolicy.measured
        let after = fixes.filter { $0.instant > .start + Self.delay + .seconds(1) }
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0.horizontalAccuracyMeters <= policy.gnssAccuracyMeters })
        let before = fixes.filter { $0.instant < .start + Self.delay }
        #expect(
            before.allSatisfy { $0.horizontalAccuracyMeters >= policy.reducedAccuracyMetersMin })
    }

    @Test("declined: accuracy stays reduced")
    func declined() {
        let (changes, _) = Self.accuracyChanges(granted: false) { FullAccuracyAsker() }
        #expect(changes.isEmpty)
    }

    @Test("asked in the background, the request fails: nothing changes")
    func inBackground() {
        let (changes, _) = Self.accuracyChanges(actions: [(0, .open), (5, .leave)]) {
            FullAccuracyAsker(asksAtLaunch: false, asksInBackground: true)
        }
        #expect(changes.isEmpty)
    }

    @Test("it lasts for the process: after a force-quit the next launch has reduced accuracy")
    func endsWithProcess() {
        let (asked, askedWorld) = Self.accuracyChanges(
            actions: [(0, .open), (10, .forceQuit), (20, .open)]
        ) { FullAccuracyAsker(asksAtLaunch: true) }
        // Granted in the first process; the second process's delegate is told it is reduced
        // again (the accuracy it missed), then granted once more when it asks.
        #expect(asked.map(\.1) == [.full, .reduced, .full])
        let launches = askedWorld.log.compactMap { entry -> AccuracyAuthorization? in
            if case .launch(let launch) = entry.kind { launch.accuracyAuthorization } else { nil }
        }
        #expect(launches == [.reduced, .reduced])
    }
}
