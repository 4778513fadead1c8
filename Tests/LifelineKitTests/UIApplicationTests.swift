// `UIApplication` and `UIApplicationDelegate` through the simulation: the lifecycle calls in
// UIKit's order with the application's state, `applicationWillTerminate`, and background
// tasks with their expiration handlers (R-F1).
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: UIApplication")
struct UIApplicationTests {
    @Test(
        "launch, leave, return and force-quit call the app delegate in UIKit's order, with applicationState"
    )
    func lifecycleOrder() {
        let (_, journal) = runProbe(
            until: 60, actions: [(0, .open), (10, .leave), (12, .open), (20, .forceQuit)]
        ) { app, _ in }
        #expect(
            journal.notes == [
                "willFinishLaunching inactive", "didFinishLaunching inactive",
                "didBecomeActive active",
                "willResignActive active", "didEnterBackground background",
                "willEnterForeground background", "didBecomeActive active",
                "willTerminate active",
            ])
    }

    @Test(
        "R-F1: an expiration handler runs when background time is up; ending the task there avoids the watchdog"
    )
    func expirationHandlerEndsTask() {
        let (world, journal) = runProbe(until: 120, actions: [(0, .open), (5, .leave)]) {
            app, application in
            app.task = application.beginBackgroundTask(withName: "upload") {
                app.journal.note("expired")
                application.endBackgroundTask(app.task)
                app.task = .invalid
            }
        }
        #expect(journal.notes.contains("expired"))
        #expect(
            !world.log.contains { if case .killed(.watchdog) = $0.kind { true } else { false } })
    }

    @Test("R-F1: a task held past its expiration handler gets the app killed by the watchdog")
    func taskNeverEnded() {
        let (world, _) = runProbe(until: 120, actions: [(0, .open), (5, .leave)]) {
            _, application in
            _ = application.beginBackgroundTask(withName: "forgotten", expirationHandler: nil)
        }
        #expect(world.log.contains { if case .killed(.watchdog) = $0.kind { true } else { false } })
    }

    @Test("endBackgroundTask(.invalid) is ignored; identifiers are never .invalid")
    func invalidIdentifier() {
        let (world, journal) = runProbe(until: 30, actions: [(0, .open)]) { app, application in
            let task = application.beginBackgroundTask(expirationHandler: nil)
            app.journal.note(task == .invalid ? "invalid" : "valid")
            application.endBackgroundTask(.invalid)
            application.endBackgroundTask(task)
        }
        #expect(journal.notes.contains("valid"))
        #expect(!world.log.contains { if case .crashed = $0.kind { true } else { false } })
    }
}
