// Authorization requests answered by the scenario (`AuthorizationAnswers`), per ios-facts'
// Always request rules: a prompt only in the foreground, Always requested once, and a request
// from not determined for Always gives When in Use.
import Simulation
import Testing

@testable import World

/// Makes the requests `requests` at each launch (by a manager when `throughManager`) and logs
/// nothing else: the authorization callbacks are in the world's log.
final class RequestingEngine: AppEngine {
    enum Request: Sendable { case whenInUse, always }
    private let requests: [Request]
    private let throughManager: Bool
    init(_ requests: [Request], throughManager: Bool = false) {
        self.requests = requests
        self.throughManager = throughManager
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = throughManager ? services.makeLocationManager() : nil
        for request in requests {
            switch (request, manager) {
            case (.whenInUse, let manager?): manager.requestWhenInUseAuthorization()
            case (.always, let manager?): manager.requestAlwaysAuthorization()
            case (.whenInUse, nil): services.requestWhenInUseAuthorization()
            case (.always, nil): services.requestAlwaysAuthorization()
            }
        }
    }
}

func authorizationsSeen(
    from start: Authorization, answers: AuthorizationAnswers = AuthorizationAnswers(),
    actions: [(Double, UserAction)] = [(0, .open)], engine: @escaping () -> any AppEngine
) -> [(seconds: Double, Authorization)] {
    let configuration = WorldConfiguration(
        authorization: start, route: parked, authorizationAnswers: answers)
    var world = World(configuration, engine: engine)
    for (seconds, action) in actions {
        world.schedule(action, at: .start + VirtualDuration(seconds: seconds))
    }
    world.run(until: .start + .seconds(120))
    return world.log.compactMap { entry in
        if case .authorization(let value) = entry.kind {
            ((entry.instant - .start).seconds, value)
        } else {
            nil
        }
    }
}

@Suite("Authorization requests")
struct AuthorizationRequestTests {
    static let delay = AuthorizationAnswers().responseDelay.seconds

    @Test(
        "When in Use from not determined: the user's answer arrives after the response delay",
        arguments: [Authorization.whenInUse, .denied], [false, true])
    func whenInUseAnswered(answer: Authorization, throughManager: Bool) {
        let seen = authorizationsSeen(
            from: .notDetermined, answers: AuthorizationAnswers(whenInUse: answer)
        ) { RequestingEngine([.whenInUse], throughManager: throughManager) }
        #expect(seen.map(\.seconds) == [Self.delay])
        #expect(seen.map(\.1) == [answer])
    }

    @Test("Always from not determined gives When in Use (the provisional Always is not modelled)")
    func alwaysFromNotDetermined() {
        let seen = authorizationsSeen(from: .notDetermined) { RequestingEngine([.always]) }
        #expect(seen.map(\.1) == [.whenInUse])
    }

    @Test(
        "Always from When in Use shows the Always prompt, answered by the scenario",
        arguments: [Authorization.always, .whenInUse])
    func alwaysUpgrade(answer: Authorization) {
        let seen = authorizationsSeen(
            from: .whenInUse, answers: AuthorizationAnswers(always: answer)
        ) { RequestingEngine([.always]) }
        #expect(seen.map(\.1) == (answer == .always ? [.always] : []))
    }

    @Test("Always can be requested only once: a second request, at the next launch, is ignored")
    func alwaysOnlyOnce() {
        let seen = authorizationsSeen(
            from: .notDetermined, actions: [(0, .open), (10, .forceQuit), (20, .open)]
        ) { RequestingEngine([.always]) }
        // The first request gave When in Use; the second, from When in Use, would otherwise
        // show the Always prompt, which the default answers grant.
        #expect(seen.map(\.1) == [.whenInUse])
        #expect(seen.map(\.seconds) == [Self.delay])
    }

    @Test("A request once determined, or from the background, shows no prompt")
    func ignoredRequests() {
        let determined = authorizationsSeen(from: .denied) { RequestingEngine([.whenInUse]) }
        #expect(determined.isEmpty)
        var relaunched = 0
        let fromBackground = authorizationsSeen(
            from: .notDetermined, actions: [(0, .open), (5, .leave)]
        ) {
            relaunched += 1
            return ScriptedEngine { _, _ in }.requestingOnBackground()
        }
        #expect(relaunched == 1)
        #expect(fromBackground.isEmpty)
    }
}

extension ScriptedEngine {
    /// The engine, requesting When in Use each time it reaches the background.
    func requestingOnBackground() -> ScriptedEngine {
        onLifecycle = { state, services in
            if state == .background { services.requestWhenInUseAuthorization() }
        }
        return self
    }
}
