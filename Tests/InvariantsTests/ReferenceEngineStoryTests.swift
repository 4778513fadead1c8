// The reference engines' failures in long fuzz runs, each rebuilt from its story and judged
// with every built-in invariant: the engines are what teams copy, so they must stay clean.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Reference engines' long-run stories")
struct ReferenceEngineStoryTests {
    /// A minute parked, then six minutes' drive east at 13.9 m/s.
    static let route = Route(
        start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
        segments: [
            .init(.park, .minutes(1)), .init(.drive, .minutes(6), speedMetersPerSecond: 13.9),
        ])

    static func violations(
        _ engine: BuiltInEngine, policy: IOSPolicy = .measured, route: Route = route,
        authorization: Authorization, accuracy: AccuracyAuthorization,
        rules: LaunchRules = LaunchRules(), horizon: VirtualDuration = .minutes(17),
        _ actions: [(VirtualDuration, UserAction)]
    ) -> [Violation] {
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: policy, authorization: authorization, accuracy: accuracy, route: route,
                seed: 1),
            actions: actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: .start + horizon, launchRules: rules
        ) { engine.make(launchRules: rules) }
        return Invariant.builtIn.flatMap { $0.check(record) }
    }

    @Test(
        "R-D11, R-F10: Precise Location turned off while the session engine runs: it keeps the approximate fixes"
    )
    func sessionPreciseLocationOffWhileRunning() {
        // `lifeline fuzz --engine session --seed 1`, case 17,921, shrunk: with stopOnTerminate
        // the relaunch clears the registrations through a manager made then; the engine must
        // still hear of the accuracy change that comes while it runs, or it rejects every
        // approximate fix as over its minimum accuracy and stores nothing for 26 minutes.
        let drive = Route(
            start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
            segments: [.init(.drive, .minutes(27), speedMetersPerSecond: 13.9)])
        let found = Self.violations(
            .session, policy: .iOS18, route: drive, authorization: .always, accuracy: .full,
            rules: LaunchRules(stopOnTerminate: true), horizon: .minutes(37),
            [
                (.zero, .open), (.zero, .forceQuit), (.minutes(1), .open),
                (.minutes(1), .setAccuracy(.reduced)),
            ])
        #expect(found.isEmpty, "\(found)")
    }

    @Test(
        "R-A3: denied at launch, in the background, When In Use granted in Settings without opening the app: no fix is wanted from the suspended app"
    )
    func standardGrantedWhenInUseInSettings() {
        // `lifeline fuzz --engine standard --seed 1`, case 17,647, shrunk: the engine halted
        // its updates at the denial (R-D10) and is suspended; iOS wakes no app for a change
        // made in Settings, and When In Use starts nothing in the background.
        let found = Self.violations(
            .standard, authorization: .always, accuracy: .reduced,
            [
                (.zero, .open), (.zero, .leave), (.zero, .setAuthorization(.denied)),
                (.minutes(1), .setAuthorization(.whenInUse)), (.minutes(1), .setAccuracy(.full)),
            ])
        #expect(found.isEmpty, "\(found)")
    }
}
