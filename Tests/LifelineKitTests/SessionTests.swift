// `CLBackgroundActivitySession` and `CLServiceSession` through the simulation.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: sessions")
struct SessionTests {
    /// The APIs the app called that the modelled iOS lacks, for an app that makes `make`.
    func unavailable(on policy: IOSPolicy, _ make: @escaping () -> AnyObject) -> [String] {
        let (world, _) = runProbe(policy: policy, until: 10, actions: [(0, .open)]) { app, _ in
            app.keptDelegates.append(make())
        }
        return world.log.compactMap {
            if case .unavailableAPI(let api) = $0.kind { "\(api)" } else { nil }
        }
    }

    @Test(
        "a CLBackgroundActivitySession reaches the world's session: iOS 16 lacks it, iOS 18 has it")
    func backgroundActivitySessionByVersion() {
        #expect(unavailable(on: .iOS16) { CLBackgroundActivitySession() }.count == 1)
        #expect(unavailable(on: .iOS18) { CLBackgroundActivitySession() }.isEmpty)
    }

    @Test("a CLServiceSession reaches the world's session: iOS 17 lacks it, iOS 18 has it")
    func serviceSessionByVersion() {
        #expect(unavailable(on: .iOS17) { CLServiceSession(authorization: .always) }.count == 1)
        #expect(unavailable(on: .iOS18) { CLServiceSession(authorization: .whenInUse) }.isEmpty)
    }

    @Test("sessions made outside a simulated process are detached and do nothing")
    func detached() {
        let activity = CLBackgroundActivitySession()
        activity.invalidate()
        let service = CLServiceSession(authorization: .always, fullAccuracyPurposeKey: "Trips")
        service.invalidate()
        #expect(CLServiceSession.AuthorizationRequirement.none != .always)
    }
}
