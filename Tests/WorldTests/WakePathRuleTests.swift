// The wakes that are not location events (R-H1–R-H4): an app refresh request comes due and
// runs the app in the background for `appRefreshRuntime`; a silent push runs it for
// `remoteNotificationRuntime`; neither reaches an app the user force-quit.
import Simulation
import Testing

@testable import World

/// An engine that submits an app refresh at its first launch and completes its wakes as told.
final class WakeEngine: AppEngine {
    /// Seconds from the launch to the refresh's earliest begin date (nil: submits none).
    var refreshAfter: Double?
    /// Completes a wake when it begins.
    var completesAtOnce = true
    /// Completes an app refresh in its expiration call.
    var completesAtExpiry = true

    init(refreshAfter: Double? = nil, completesAtOnce: Bool = true, completesAtExpiry: Bool = true)
    {
        self.refreshAfter = refreshAfter
        self.completesAtOnce = completesAtOnce
        self.completesAtExpiry = completesAtExpiry
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard let refreshAfter, launch.state == .foreground else { return }
        services.submitAppRefresh(
            identifier: "refresh",
            earliestBegin: services.now + VirtualDuration(seconds: refreshAfter))
    }
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        if completesAtOnce { services.completeWake(task, success: true) }
    }
    func wakeWillExpire(_ task: WakeTaskID, services: LocationServices) {
        if completesAtExpiry { services.completeWake(task, success: false) }
    }
}

extension World {
    /// Each log entry as "seconds kind", for the entries `keep` selects.
    func wakeTimeline() -> [String] {
        log.compactMap { entry in
            let seconds = PlainText.fixed((entry.instant - .start).seconds, digits: 1)
            switch entry.kind {
            case .launch(let context): return "\(seconds) launch \(context.state.rawValue)"
            case .wake(_, let kind): return "\(seconds) \(kind) \(entry.processState.rawValue)"
            case .wakeExpiring: return "\(seconds) expiring"
            case .killed(let cause): return "\(seconds) killed \(cause.rawValue)"
            case .dropped(.wake(_, let kind), let reason):
                return "\(seconds) dropped \(kind) \(reason.rule)"
            default: return nil
            }
        }
    }
}

@Suite("Wake paths (R-H1–R-H4)")
struct WakePathRuleTests {
    @Test(
        "R-H1: a suspended app is resumed in the background for its refresh, no earlier than its date"
    )
    func refreshResumesSuspendedApp() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave)]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 app refresh refresh background",
            ])
    }

    @Test(
        "R-H1: an ended app is launched in the background for its refresh, whatever its authorization"
    )
    func refreshLaunchesEndedApp() {
        let world = runWorld(
            authorization: .whenInUse, route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (20, .memoryPressure)]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "20.0 killed memory", "60.0 launch background",
                "60.0 app refresh refresh background",
            ])
    }

    @Test("R-H1: a refresh due while the app is in the foreground waits for the background")
    func refreshWaitsForBackground() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (70, .leave)]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "71.5 app refresh refresh background",
            ])
    }

    @Test("R-H2: after a force-quit the refresh does not run")
    func noRefreshAfterForceQuit() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave), (20, .forceQuit)]
        ) { WakeEngine(refreshAfter: 60) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "20.0 killed force-quit",
                "60.0 dropped app refresh refresh R-H2",
            ])
    }

    @Test("R-H3: a refresh not completed gets its expiration call at 30 s, then the watchdog")
    func refreshNotCompletedIsKilled() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave)]
        ) { WakeEngine(refreshAfter: 60, completesAtOnce: false, completesAtExpiry: false) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 app refresh refresh background", "90.0 expiring",
                "91.0 killed watchdog",
            ])
    }

    @Test("R-H3: a refresh completed in its expiration call ends without a kill")
    func refreshCompletedAtExpiry() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave)]
        ) { WakeEngine(refreshAfter: 60, completesAtOnce: false) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "60.0 app refresh refresh background", "90.0 expiring",
            ])
    }

    @Test("R-H4: a silent push resumes a suspended app; not completed in 30 s, it is killed")
    func silentPushNotCompleted() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave), (40, .silentPush)]
        ) { WakeEngine(completesAtOnce: false) }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "40.0 remote notification background",
                "70.0 killed watchdog",
            ])
    }

    @Test("R-H4: a silent push launches an ended app in the background; completed, it lives on")
    func silentPushLaunchesEndedApp() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (20, .memoryPressure), (40, .silentPush)]
        ) { WakeEngine() }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "20.0 killed memory", "40.0 launch background",
                "40.0 remote notification background",
            ])
    }

    @Test("R-H2: a silent push does not reach an app the user force-quit, until the user opens it")
    func noSilentPushAfterForceQuit() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [
                (0, .open), (10, .forceQuit), (20, .silentPush), (30, .open), (32, .leave),
                (50, .silentPush),
            ]
        ) { WakeEngine() }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "10.0 killed force-quit",
                "20.0 dropped remote notification R-H2", "30.0 launch foreground",
                "50.0 remote notification background",
            ])
    }

    @Test("a world whose app never submits a refresh nor gets a push runs as before")
    func nothingWithoutWakes() {
        let world = runWorld(
            route: parked, until: 120, actions: [(0, .open), (2, .leave)]
        ) { WakeEngine() }
        #expect(world.wakeTimeline() == ["0.0 launch foreground"])
    }
}

extension PolicyScenario {
    /// An app refresh due at 60 s whose engine never completes it: its expiration and kill.
    static let refreshNeverCompleted = PolicyScenario(name: "app refresh never completed") {
        policy in
        runWorld(
            policy: policy, route: parked, until: 120, actions: [(0, .open), (2, .leave)]
        ) { WakeEngine(refreshAfter: 60, completesAtOnce: false, completesAtExpiry: false) }
        .wakeTimeline()
    }

    /// A silent push at 40 s to a suspended app that never calls its completion handler.
    static let silentPushNeverCompleted = PolicyScenario(name: "silent push never completed") {
        policy in
        runWorld(
            policy: policy, route: parked, until: 120,
            actions: [(0, .open), (2, .leave), (40, .silentPush)]
        ) { WakeEngine(completesAtOnce: false) }
        .wakeTimeline()
    }
}
