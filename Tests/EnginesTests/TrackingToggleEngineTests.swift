// The host app's switch on the built-in engines, and their profiles: `tracking on` and
// `tracking off` reach `start()` and `stop()`, the switch is remembered so that opening the app
// does not undo it, and `TrackingStart.onUserToggle` waits for the switch.
import EngineMutants
import Engines
import Simulation
import Testing
import World

/// A world around engines made by a factory that returns `any TrackingEngine`, each launch's
/// kept (`EngineHarness` wants one concrete type).
final class AnyEngineHarness {
    private final class Made { var engines: [any TrackingEngine] = [] }
    private var world: World
    private let made = Made()
    var engines: [any TrackingEngine] { made.engines }
    var latest: (any TrackingEngine)? { made.engines.last }
    var storedFixInstants: [Instant] { world.storedRows.compactMap(\.fix).map(\.instant) }

    init(
        _ configuration: WorldConfiguration, actions: [(VirtualDuration, UserAction)],
        make: @escaping () -> any TrackingEngine
    ) {
        let made = made
        world = World(configuration) {
            let engine = make()
            made.engines.append(engine)
            return engine
        }
        for (offset, action) in actions { world.schedule(action, at: .start + offset) }
    }

    func run(until offset: VirtualDuration) { world.run(until: .start + offset) }
}

@Suite("Tracking switch on the engines")
struct TrackingToggleEngineTests {
    static let drive = testRoute([.init(.drive, .hours(1), speedMetersPerSecond: townSpeed)])

    static func configuration() -> WorldConfiguration {
        WorldConfiguration(authorization: .always, route: drive)
    }

    /// The enabled flag each launch's engine ends with.
    static func enabled(_ harness: AnyEngineHarness, at: Double) -> Bool? {
        harness.latest?.state(at: .start + VirtualDuration(seconds: at)).enabled
    }

    @Test(
        "A TrackingEngine's default answer to the switch is start() and stop()",
        arguments: BuiltInEngine.allCases)
    func defaultCallsStartAndStop(engine: BuiltInEngine) {
        let harness = AnyEngineHarness(
            Self.configuration(), actions: [(.zero, .open), (.seconds(120), .trackingOff)]
        ) { engine.make(launchRules: LaunchRules()) }
        harness.run(until: .seconds(100))
        #expect(Self.enabled(harness, at: 100) == true)
        harness.run(until: .seconds(200))
        #expect(Self.enabled(harness, at: 200) == false)
        #expect(harness.latest?.events.contains(.stopped) == true)
    }

    @Test(
        "After tracking off, opening the app again does not start it (the host app remembers)",
        arguments: [BuiltInEngine.session, .standard])
    func offSurvivesOpen(engine: BuiltInEngine) {
        let harness = AnyEngineHarness(
            Self.configuration(),
            actions: [
                (.zero, .open), (.seconds(60), .trackingOff), (.seconds(90), .leave),
                (.seconds(200), .open), (.seconds(400), .forceQuit), (.seconds(500), .open),
            ]
        ) { engine.make(launchRules: LaunchRules()) }
        harness.run(until: .seconds(600))
        #expect(Self.enabled(harness, at: 600) == false)
        #expect(harness.engines.count == 2)
        let lastFix = harness.storedFixInstants.last ?? .start
        #expect(lastFix <= .start + .seconds(60))
    }

    @Test(
        "onUserToggle: nothing is tracked until tracking on; then it is, across a relaunch",
        arguments: BuiltInEngine.allCases)
    func onUserToggleWaits(engine: BuiltInEngine) {
        let harness = AnyEngineHarness(
            Self.configuration(),
            actions: [
                (.zero, .open), (.seconds(30), .leave), (.seconds(300), .trackingOn),
                (.seconds(400), .leave), (.seconds(700), .forceQuit), (.seconds(800), .open),
            ]
        ) { engine.make(launchRules: LaunchRules(), trackingStart: .onUserToggle) }
        harness.run(until: .seconds(290))
        #expect(harness.storedFixInstants.isEmpty)
        #expect(Self.enabled(harness, at: 290) == false)
        harness.run(until: .seconds(900))
        #expect(Self.enabled(harness, at: 900) == true)
        #expect(harness.storedFixInstants.contains { $0 > .start + .seconds(800) })
    }

    @Test("LocationRuntime: a relaunch after tracking off restores its places, resumes no workout")
    func runtimeResumesNoWorkout() {
        let route = testRoute([
            .init(.park, .minutes(1)), .init(.drive, .minutes(7), speedMetersPerSecond: townSpeed),
        ])
        let harness = AnyEngineHarness(
            WorldConfiguration(authorization: .always, route: route),
            actions: [(.zero, .open), (.zero, .trackingOff), (.minutes(1), .exit)]
        ) { BuiltInEngine.locationRuntime.make(launchRules: LaunchRules()) }
        harness.run(until: .minutes(10))
        #expect(harness.engines.count == 2)
        let relaunched = harness.latest?.events ?? []
        #expect(relaunched.contains { if case .runtime(.restored) = $0 { true } else { false } })
        #expect(!relaunched.contains { if case .resumed = $0 { true } else { false } })
        #expect(harness.latest?.state(at: .start + .minutes(10)).enabled == false)
    }

    @Test("Profiles: built-in engines declare the mode; the capability mutant's app does not")
    func profiles() {
        for choice in EngineChoice.all {
            let declares = choice.profile.capabilities.locationBackgroundMode
            #expect(declares == (choice != .mutant(.backgroundWithoutCapability)), "\(choice)")
            #expect(choice.profile.trackingStart == .atFirstLaunch)
            #expect(choice.profile.launchRules == nil)
        }
        #expect(BuiltInEngine.standard.profile.authorization.moment == .atTrackingStart)
        #expect(BuiltInEngine.locationRuntime.profile.authorization.level == .whenInUseThenAlways)
    }

    @Test("A profile naming an unknown background mode is an error naming it")
    func unknownMode() {
        #expect(throws: AppProfileError.unknownBackgroundMode("locations")) {
            try AppProfile.capabilities(backgroundModes: ["fetch", "locations"])
        }
        let known = try? AppProfile.capabilities(backgroundModes: ["fetch", "location"])
        #expect(known?.locationBackgroundMode == true)
        #expect(
            "\(AppProfileError.unknownBackgroundMode("x"))".contains("expected one of audio"))
    }
}
