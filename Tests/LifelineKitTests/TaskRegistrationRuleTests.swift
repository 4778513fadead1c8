// R-H14: a BGTaskScheduler launch handler registered after the app finished launching trips
// the system's assertion, and no-capability-trap reports the crash as the app's.
import Foundation
import Invariants
import LifelineKit
import Simulation
import Testing
import World

/// Registers its refresh handler in `didFinishLaunching`, or only once the app is active.
final class LateRegistrationApp: UIResponder, UIApplicationDelegate {
    let registersLate: Bool
    init(registersLate: Bool) { self.registersLate = registersLate }

    private func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) {
            $0.setTaskCompleted(success: true)
        }
    }
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        if !registersLate { registerRefresh() }
        return true
    }
    func applicationDidBecomeActive(_ application: UIApplication) {
        if registersLate { registerRefresh() }
    }
}

@Suite("LifelineKit: launch handlers registered in time (R-H14)")
struct TaskRegistrationRuleTests {
    /// The no-capability-trap violations of a run of the app, opened at the start.
    func trapViolations(registersLate: Bool) -> [Violation] {
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .iOS18, capabilities: AppCapabilities(sceneBased: false),
                authorization: .whenInUse, route: drive(20, parkedFor: .hours(1))),
            actions: [ScheduledAction(.start, .open)], horizon: .start + .minutes(2),
            launchRules: nil
        ) {
            ApplicationEngine(
                delegate: { _ in LateRegistrationApp(registersLate: registersLate) },
                setTracking: { _, _ in })
        }
        return record.violations(of: [.noCapabilityTrap])
    }

    @Test("registered after launch, the handler crashes the app and the invariant says why")
    func lateRegistrationCrashes() throws {
        let violation = try #require(trapViolations(registersLate: true).first)
        #expect(violation.explanation.contains("R-H14"), "\(violation.explanation)")
        #expect(violation.explanation.contains("registerForTaskWithIdentifier"))
    }

    @Test("registered in didFinishLaunching, the handler crashes nothing")
    func registrationAtLaunchIsQuiet() {
        #expect(trapViolations(registersLate: false).isEmpty)
    }
}
