// R-B9, one behaviour each (docs/rules.md): a service session (`CLServiceSession`,
// iOS 18+) declares a standing authorization need and keeps the grant across suspension and
// termination. What the model does with it: with live updates it arms the relaunch of an app
// that ended, a force-quit one included (R-B4), and a memory-killed one (R-B3); it does not
// exist before iOS 18; its diagnostic says whether its requirement is met. The standing
// authorization prompt, and what a session keeps across a lapse of authorization, are not
// modelled (docs/rules.md, R-B9).
import Simulation
import Testing

@testable import World

/// The session objects each process made, kept across launches by the test.
final class ServiceSessionRecorder {
    var serviceSessions: [(generation: Int, session: ServiceSession)] = []
    var launches = 0
}

/// Source B's session engine: at every launch, synchronously (R-B10), a service session
/// requiring `requirement` (none if nil), a background activity session if `activitySession`,
/// and live updates.
func serviceSessionEngine(
    _ recorder: ServiceSessionRecorder, requirement: ServiceSessionRequirement?,
    activitySession: Bool = true
) -> () -> any AppEngine {
    {
        SessionEngine { _, services, engine in
            recorder.launches += 1
            if let requirement {
                let session = ServiceSession(services: services, authorization: requirement)
                recorder.serviceSessions.append((recorder.launches, session))
            }
            if activitySession {
                engine.objects.append(BackgroundActivitySession(services: services))
            }
            _ = services.startLiveUpdates()
        }
    }
}

extension World {
    /// Seconds of every fix a process of generation `generation` received.
    func fixSeconds(ofGeneration generation: Int) -> [Double] {
        log.filter { entry in
            guard entry.generation == generation, case .location(let update) = entry.kind else {
                return false
            }
            return update.fix != nil
        }.map { ($0.instant - .start).seconds }
    }
}

@Suite("Service session rules")
struct ServiceSessionRuleTests {
    /// The device is parked until `driveSeconds`, then drives at 15 m/s.
    static let driveSeconds = 100.0
    static let route = drive(15, parkedFor: VirtualDuration(seconds: driveSeconds))
    static let tolerance = 0.01

    @Test(
        "R-B9, R-B4: a force-quit app with live updates and a service session is relaunched when the device moves; the same app without the service session is not"
    )
    func forceQuitRelaunchNeedsServiceSession() throws {
        let policy = IOSPolicy.measured
        #expect(policy.forceQuitRelaunchBySession)
        for withServiceSession in [true, false] {
            let recorder = ServiceSessionRecorder()
            let world = runWorld(
                policy: policy, authorization: .always, route: Self.route, until: 160,
                actions: [(0, .open), (2, .leave), (60, .forceQuit)],
                engine: serviceSessionEngine(
                    recorder, requirement: withServiceSession ? .always : nil))
            #expect(world.terminations == [.forceQuit])
            if withServiceSession {
                // Parked at the force-quit: nothing until the device moves, then the session's
                // relaunch latency (R-B4: about 1 s).
                let relaunch = try #require(world.launches.dropFirst().first)
                #expect(world.launches.count == 2)
                #expect(
                    abs(
                        relaunch.seconds
                            - (Self.driveSeconds + policy.relaunchLatencySession.seconds))
                        < Self.tolerance)
                #expect(relaunch.context.state == .background)
                // The recreated session continues the grant: active at once, and the
                // relaunched process gets fixes in the background.
                let recreated = try #require(recorder.serviceSessions.last)
                #expect(recreated.generation == 2)
                #expect(recreated.session.diagnostic == SessionDiagnostic(isActive: true))
                let fixes = world.fixSeconds(ofGeneration: 2)
                #expect(
                    fixes.first.map { $0 - relaunch.seconds <= policy.fixInterval.seconds } == true)
                #expect(fixes.last.map { $0 > 150 } == true, "fixes go on for the whole drive")
            } else {
                #expect(world.launches.count == 1, "R-B4: no service session, no relaunch")
                #expect(world.fixSeconds(ofGeneration: 2).isEmpty)
            }
        }
    }

    @Test(
        "R-B9, R-B4, R-F5: a When In Use app holding both sessions keeps its grant across a force-quit and is relaunched, where R-F5 relaunches no When In Use app"
    )
    func whenInUseGrantKeptAcrossForceQuit() throws {
        let policy = IOSPolicy.measured
        let actions: [(Double, UserAction)] = [(0, .open), (2, .leave), (60, .forceQuit)]
        let recorder = ServiceSessionRecorder()
        let world = runWorld(
            policy: policy, authorization: .whenInUse, route: Self.route, until: 160,
            actions: actions, engine: serviceSessionEngine(recorder, requirement: .whenInUse))
        let relaunch = try #require(world.launches.dropFirst().first)
        #expect(
            abs(relaunch.seconds - (Self.driveSeconds + policy.relaunchLatencySession.seconds))
                < Self.tolerance)
        // Recreated within the rejoin window (R-B10), the background activity session keeps the
        // When In Use app's location running in the background: fixes for the whole drive.
        let recreated = try #require(recorder.serviceSessions.last)
        #expect(recreated.generation == 2)
        #expect(recreated.session.diagnostic == SessionDiagnostic(isActive: true))
        #expect(world.fixSeconds(ofGeneration: 2).count > 50)
        // Without the service session the same When In Use app is not relaunched (R-B4).
        let withoutService = runWorld(
            policy: policy, authorization: .whenInUse, route: Self.route, until: 160,
            actions: actions,
            engine: serviceSessionEngine(ServiceSessionRecorder(), requirement: nil))
        #expect(withoutService.launches.count == 1)
        // Significant change, which relaunches an Always app that exits (R-A10), relaunches no
        // When In Use app (R-F5): the session's grant is what the When In Use app keeps.
        for (authorization, relaunched) in [(Authorization.always, true), (.whenInUse, false)] {
            let plain = runWorld(
                policy: policy, authorization: authorization, route: Self.route, until: 160,
                actions: [(0, .open), (2, .leave), (60, .exit)],
                engine: significantChangeEngine(rejoins: true))
            #expect((plain.launches.count == 2) == relaunched, "\(authorization)")
        }
    }

    @Test(
        "R-B9, R-B4: three force-quits in a row while driving, three relaunches about 1 s after each"
    )
    func threeForceQuitsInARow() {
        let policy = IOSPolicy.measured
        let recorder = ServiceSessionRecorder()
        let kills = [20.0, 40.0, 60.0]
        let world = runWorld(
            policy: policy, authorization: .always, route: drive(15), until: 80,
            actions: [(0, .open), (2, .leave)] + kills.map { ($0, UserAction.forceQuit) },
            engine: serviceSessionEngine(recorder, requirement: .always))
        #expect(world.terminations == [.forceQuit, .forceQuit, .forceQuit])
        let relaunches = world.launches.dropFirst().map(\.seconds)
        let expected = kills.map { $0 + policy.relaunchLatencySession.seconds }
        #expect(relaunches.count == expected.count)
        for (seen, due) in zip(relaunches, expected) { #expect(abs(seen - due) < Self.tolerance) }
        #expect(recorder.serviceSessions.map(\.generation) == [1, 2, 3, 4])
    }

    @Test(
        "R-B9: on iOS 17 there is no service session: the call is an error in the app's log and does nothing, and the force-quit app is not relaunched"
    )
    func noServiceSessionBeforeIOS18() {
        var forcedOn = IOSPolicy.iOS17
        forcedOn.forceQuitRelaunchBySession = true
        // The preset, and the preset with the force-quit flag on: the flag alone relaunches
        // nothing, because the session the app asked for does not exist.
        for policy in [IOSPolicy.iOS17, forcedOn] {
            #expect(!CoreLocationAPI.serviceSession.isAvailable(onVersion: policy.systemVersion))
            let recorder = ServiceSessionRecorder()
            let world = runWorld(
                policy: policy, authorization: .always, route: Self.route, until: 160,
                actions: [(0, .open), (2, .leave), (60, .forceQuit)],
                engine: serviceSessionEngine(recorder, requirement: .always))
            let unavailable = world.log.filter {
                if case .unavailableAPI(.serviceSession) = $0.kind { true } else { false }
            }
            #expect(unavailable.count == 1, "\(policy.forceQuitRelaunchBySession)")
            #expect(recorder.serviceSessions.first?.session.diagnostic == nil, "never answered")
            #expect(
                world.sessionDiagnostics.allSatisfy {
                    $0.session != recorder.serviceSessions.first?.session.id
                })
            #expect(world.launches.count == 1, "\(policy.forceQuitRelaunchBySession)")
        }
    }

    @Test(
        "R-B9: a service session requiring Always is inactive with alwaysAuthorizationDenied under When In Use, active once Always is granted, denied again when it is taken back; one requiring When In Use stays active"
    )
    func requirementFollowsAuthorization() throws {
        var always: ServiceSession?
        var whenInUse: ServiceSession?
        let grant = 10.0
        let takeBack = 15.0
        let world = runWorld(
            authorization: .whenInUse, until: 20,
            actions: [
                (0, .open), (grant, .setAuthorization(.always)),
                (takeBack, .setAuthorization(.whenInUse)),
            ]
        ) {
            SessionEngine { _, services, _ in
                always = ServiceSession(services: services, authorization: .always)
                whenInUse = ServiceSession(services: services, authorization: .whenInUse)
            }
        }
        let alwaysID = try #require(always?.id)
        let whenInUseID = try #require(whenInUse?.id)
        let denied = SessionDiagnostic(isActive: false, alwaysAuthorizationDenied: true)
        let active = SessionDiagnostic(isActive: true)
        let told = world.sessionDiagnostics
        #expect(
            told.filter { $0.session == alwaysID }.map { [$0.seconds: $0.2] }
                == [[0: denied], [grant: active], [takeBack: denied]])
        #expect(
            told.filter { $0.session == whenInUseID }.map { [$0.seconds: $0.2] } == [[0: active]],
            "told once: its requirement is met throughout")
        #expect(always?.diagnostic == denied)
        #expect(whenInUse?.diagnostic == active)
    }

    @Test(
        "R-B9, R-B3: killed for memory while suspended and parked, the app with live updates and a service session is relaunched when the device moves, its session active at once"
    )
    func memoryKillRelaunch() throws {
        let policy = IOSPolicy.measured
        let purge = 200.0
        let driveStart = 300.0
        let recorder = ServiceSessionRecorder()
        let world = runWorld(
            policy: policy, authorization: .whenInUse,
            route: drive(15, parkedFor: VirtualDuration(seconds: driveStart)), until: 400,
            actions: [(0, .open), (1, .leave), (purge, .memoryPressure)],
            engine: serviceSessionEngine(recorder, requirement: .whenInUse))
        // Parked, live updates pause (R-C2) and the app is suspended: memory pressure ends
        // only a suspended app (R-F3), so a memory termination says it was.
        #expect(world.terminations == [.memory])
        let relaunch = try #require(world.launches.dropFirst().first)
        #expect(world.launches.count == 2)
        #expect(
            abs(relaunch.seconds - (driveStart + policy.relaunchLatencySession.seconds))
                < Self.tolerance)
        let recreated = try #require(recorder.serviceSessions.last)
        #expect(recreated.generation == 2)
        #expect(recreated.session.diagnostic == SessionDiagnostic(isActive: true))
        #expect(world.fixSeconds(ofGeneration: 2).count > 90)
    }

    @Test(
        "R-B9: an Always app's service session keeps the grant on its own: with live updates and no background activity session, it is relaunched after a memory kill and after a force-quit; a When In Use app is not (R-A3)"
    )
    func serviceSessionAloneKeepsAlwaysGrant() throws {
        let policy = IOSPolicy.measured
        let driveStart = 300.0
        let route = drive(15, parkedFor: VirtualDuration(seconds: driveStart))
        // Without a keep-alive the app is suspended soon after leaving; memory pressure at
        // 200 s ends it (R-F3), a force-quit at 60 s ends it too.
        for (authorization, requirement) in [
            (Authorization.always, ServiceSessionRequirement.always), (.whenInUse, .whenInUse),
        ] {
            for (seconds, ending) in [(200.0, UserAction.memoryPressure), (60, .forceQuit)] {
                let label = "\(authorization), \(ending)"
                let recorder = ServiceSessionRecorder()
                let world = runWorld(
                    policy: policy, authorization: authorization, route: route, until: 400,
                    actions: [(0, .open), (2, .leave), (seconds, ending)],
                    engine: serviceSessionEngine(
                        recorder, requirement: requirement, activitySession: false))
                #expect(world.terminations.count == 1, "\(label)")
                guard authorization == .always else {
                    #expect(world.launches.count == 1, "\(label)")
                    continue
                }
                let relaunch = try #require(world.launches.dropFirst().first, "\(label)")
                #expect(world.launches.count == 2, "\(label)")
                #expect(
                    abs(relaunch.seconds - (driveStart + policy.relaunchLatencySession.seconds))
                        < Self.tolerance, "\(label)")
                #expect(
                    recorder.serviceSessions.last?.session.diagnostic
                        == SessionDiagnostic(isActive: true), "\(label)")
                #expect(!world.fixSeconds(ofGeneration: 2).isEmpty, "\(label)")
            }
        }
    }

    @Test(
        "R-B9, R-B7: a service session does not outlive a reboot: rebooted while driving, the app is not relaunched"
    )
    func notAcrossReboot() {
        let recorder = ServiceSessionRecorder()
        let world = runWorld(
            policy: .measured, authorization: .always, route: drive(15), until: 200,
            actions: [(0, .open), (2, .leave), (60, .reboot), (70, .unlock)],
            engine: serviceSessionEngine(recorder, requirement: .always))
        #expect(world.terminations == [.reboot])
        #expect(world.launches.count == 1)
    }
}
