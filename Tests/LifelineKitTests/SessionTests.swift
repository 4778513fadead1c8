// `CLBackgroundActivitySession` and `CLServiceSession` through the simulation.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: sessions")
struct SessionTests {
    /// The APIs the app called that the modelled iOS lacks, for an app that makes `make`.
    func unavailable(on policy: IOSPolicy, _ make: @escaping @Sendable () -> AnyObject) -> [String]
    {
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

@Suite("LifelineKit: session diagnostics")
struct SessionDiagnosticsTests {
    /// The diagnostics an Always-requiring service session's iteration reads in an app opened
    /// with When In Use, where the user grants Always at 20 s.
    @Test("a service session's diagnostics follow the world's: Always wanted, then granted")
    func serviceSessionDiagnostics() {
        let (_, journal) = runProbe(
            authorization: .whenInUse, until: 60,
            actions: [(0, .open), (20, .setAuthorization(.always))]
        ) { app, _ in
            let session = CLServiceSession(authorization: .always)
            app.keptDelegates.append(session)
            let journal = app.journal
            Task {
                for try await diagnostic in session.diagnostics {
                    journal.note("diagnostic always-denied=\(diagnostic.alwaysAuthorizationDenied)")
                }
                journal.note("diagnostics ended")
            }
        }
        let diagnostics = journal.notes.filter { $0.hasPrefix("diagnostic") }
        #expect(
            diagnostics == ["diagnostic always-denied=true", "diagnostic always-denied=false"],
            "\(journal.notes)")
    }

    @Test("invalidating a session ends its diagnostics' iterations")
    func invalidateEndsTheSequence() {
        let (_, journal) = runProbe(
            authorization: .always, until: 30, actions: [(0, .open)]
        ) { app, _ in
            let session = CLBackgroundActivitySession()
            app.keptDelegates.append(session)
            let journal = app.journal
            Task {
                for try await diagnostic in session.diagnostics {
                    journal.note("diagnostic denied=\(diagnostic.authorizationDenied)")
                    session.invalidate()
                }
                journal.note("diagnostics ended")
            }
        }
        #expect(
            journal.notes.filter { $0.hasPrefix("diagnostic") }
                == ["diagnostic denied=false", "diagnostics ended"], "\(journal.notes)")
    }

    @Test("a session made outside a simulated process has no diagnostics")
    func detachedDiagnostics() async throws {
        let session = CLServiceSession(authorization: .whenInUse)
        session.invalidate()
        var count = 0
        for try await _ in session.diagnostics { count += 1 }
        #expect(count == 0)
    }
}
