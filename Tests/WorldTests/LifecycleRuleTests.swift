// The operating system's rules, one behaviour each, named by their ids in
// docs/rules.md: process states, suspension, terminations, background tasks.
import Simulation
import Testing

@testable import World

@Suite("Lifecycle rules")
struct LifecycleRuleTests {
    @Test(
        "R-A1, R-A2: a background app nothing keeps running is suspended; its fixes wait until it returns"
    )
    func suspensionQueues() {
        let world = runWorld(
            authorization: .always, until: 40, actions: [(0, .open), (2, .leave), (30, .open)]
        ) {
            ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
        }
        // In the background at 3.5 s, suspended 5 s later; the queued fixes arrive on return.
        let fixes = world.fixSeconds
        #expect(!fixes.contains { $0 > 8.6 && $0 < 30 }, "nothing reaches a suspended app")
        #expect(
            fixes.filter { $0 == 30 }.count >= 20,
            "the queued fixes are delivered when it runs again")
    }

    @Test(
        "R-A7: one manager allowed in the background keeps every location request of the app alive")
    func processWide() {
        let world = runWorld(until: 40, actions: [(0, .open), (2, .leave)]) {
            ScriptedEngine { _, services in
                let plain = services.makeManager()
                services.startUpdatingLocation(plain)
                let background = services.makeManager()
                services.setAllowsBackgroundLocationUpdates(background, true)
                services.startUpdatingLocation(background)
            }
        }
        let plainFixes = world.seconds { entry in
            if case .location(let update) = entry.kind {
                update.channel == .manager(ObjectID(1))
            } else {
                false
            }
        }
        #expect(plainFixes.last! > 39, "the plain manager keeps delivering past the grace")
        #expect(!world.log.contains { if case .failure = $0.kind { true } else { false } })
    }

    @Test(
        "R-A8: a manager starts with background updates off: a When In Use app loses it after the grace"
    )
    func defaultsOff() {
        let world = runWorld(
            until: 40, actions: [(0, .open), (2, .attachTestHost(true)), (2, .leave)]
        ) {
            ScriptedEngine { _, services in services.startUpdatingLocation(services.makeManager()) }
        }
        #expect(world.fixSeconds.last! < 14)
    }

    @Test("R-F3: memory pressure ends a suspended app with no callback; a running app stays")
    func memoryPressure() {
        let world = runWorld(
            until: 60,
            actions: [(0, .open), (5, .memoryPressure), (10, .leave), (30, .memoryPressure)]
        ) {
            ScriptedEngine { _, _ in }
        }
        #expect(world.terminations == [.memory])
        #expect(
            world.log.last { if case .killed = $0.kind { true } else { false } }!.instant == .start
                + .seconds(30))
    }

    @Test("R-F1: a background task keeps a backgrounded app running for its 30 s budget")
    func backgroundTask() {
        let world = runWorld(authorization: .always, until: 60, actions: [(0, .open), (2, .leave)])
        {
            let engine = ScriptedEngine { _, services in
                services.startUpdatingLocation(services.makeManager())
            }
            engine.onLifecycle = { state, services in
                if state == .background { _ = services.beginBackgroundTask() }
            }
            return engine
        }
        // Background at 3.5 s; the task runs to 33.5 s; suspension 5 s after it ends.
        let fixes = world.fixSeconds
        #expect(fixes.contains { $0 > 33 && $0 < 38.6 })
        #expect(!fixes.contains { $0 > 38.6 })
    }

    @Test(
        "R-F1: tasks begun one after another share the app's background time: chaining them keeps a backgrounded app running only for the 30 s budget"
    )
    func chainedTasksShareBackgroundTime() {
        let world = runWorld(
            authorization: .always, until: 120, actions: [(0, .open), (2, .leave)]
        ) {
            var held: BackgroundTaskID?
            let engine = ScriptedEngine { _, services in
                services.startUpdatingLocation(services.makeManager())
            }
            // Every fix ends the task held and begins a new one.
            engine.onUpdate = { _, services in
                if let task = held { services.endBackgroundTask(task) }
                held = services.beginBackgroundTask()
            }
            return engine
        }
        // Background at 3.5 s: the time is spent at 33.5 s, suspension 5 s after that.
        let fixes = world.fixSeconds
        #expect(fixes.contains { $0 > 33 && $0 < 38.6 })
        #expect(!fixes.contains { $0 > 38.6 })
        #expect(world.terminations.isEmpty)
    }

    @Test(
        "R-F1: a task held in the foreground does not expire; its time runs from the background on"
    )
    func foregroundTaskDoesNotExpire() {
        let world = runWorld(
            authorization: .always, until: 200, actions: [(0, .open), (100, .leave)]
        ) {
            let engine = ScriptedEngine { _, services in _ = services.beginBackgroundTask() }
            engine.onTaskExpiry = { _, _ in }
            return engine
        }
        // Background at 101.5 s; expiry at 131.5 s; the watchdog 1 s later.
        let killed = world.log.last { if case .killed = $0.kind { true } else { false } }
        #expect(world.terminations == [.watchdog])
        #expect(killed?.instant == .start + .milliseconds(132_500))
    }

    @Test("R-F1: an app that never ends its background task is killed")
    func backgroundTaskWatchdog() {
        let world = runWorld(authorization: .always, until: 60, actions: [(0, .open), (2, .leave)])
        {
            let engine = ScriptedEngine { _, _ in }
            engine.onLifecycle = { state, services in
                if state == .background { _ = services.beginBackgroundTask() }
            }
            engine.onTaskExpiry = { _, _ in }
            return engine
        }
        #expect(world.terminations == [.watchdog])
    }

    @Test("R-F1: with early expiry at 100 %, the system ends the task before its budget")
    func earlyExpiry() {
        var policy = IOSPolicy.measured
        policy.backgroundTaskEarlyExpiryPercent = 100
        let world = runWorld(
            policy: policy, authorization: .always, until: 60, actions: [(0, .open), (2, .leave)]
        ) {
            let engine = ScriptedEngine { _, services in
                services.startUpdatingLocation(services.makeManager())
            }
            engine.onLifecycle = { state, services in
                if state == .background { _ = services.beginBackgroundTask() }
            }
            return engine
        }
        #expect(world.fixSeconds.last! < 38.5)
    }

    @Test("R-A9: the assertion ends the process on the first set, and later calls are ignored")
    func assertion() {
        let world = runWorld(
            authorization: .always, capabilities: AppCapabilities(locationBackgroundMode: false),
            until: 10,
            actions: [(0, .open)]
        ) {
            ScriptedEngine { _, services in
                let manager = services.makeManager()
                services.setAllowsBackgroundLocationUpdates(manager, true)
                services.startUpdatingLocation(manager)
            }
        }
        #expect(world.terminations == [.crash])
        #expect(world.fixSeconds.isEmpty)
    }

    @Test(
        "R-A3: without the background mode, a held session does not keep a When In Use app's location running"
    )
    func sessionNeedsBackgroundMode() {
        let world = runWorld(
            capabilities: AppCapabilities(locationBackgroundMode: false), until: 40,
            actions: [(0, .open), (0, .attachTestHost(true)), (2, .leave)]
        ) {
            ScriptedEngine { _, services in
                _ = services.beginBackgroundActivitySession()
                _ = services.startLiveUpdates()
            }
        }
        #expect(world.fixSeconds.last! < 14)
    }

    @Test(
        "R-D9: an app launched before the first unlock cannot read its saved data; the unlock tells it"
    )
    func dataProtection() {
        var policy = IOSPolicy.measured
        policy.rebootRelaunchWithoutMovement = true
        let world = runWorld(
            policy: policy, authorization: .always, route: parked, until: 200,
            actions: [(0, .open), (5, .reboot), (100, .unlock)]
        ) {
            ScriptedEngine { launch, services in
                if launch.state == .foreground {
                    services.startMonitoringSignificantLocationChanges()
                }
            }
        }
        // The boot relaunch (65 s) reads nothing; it goes idle, and the registrations relaunch
        // the app at the unlock (100 s), data readable (issue 25).
        let relaunches = world.launches.dropFirst()
        #expect(relaunches.map(\.context.state) == [.background, .background])
        #expect(relaunches.map(\.context.protectedDataAvailable) == [false, true])
        #expect(
            world.seconds { if case .protectedDataAvailable = $0.kind { true } else { false } } == [
                100
            ] || world.terminations.last == .idle)
    }

    @Test("R-A1: returning to the app brings it to the foreground from background or suspension")
    func returning() {
        let world = runWorld(until: 30, actions: [(0, .open), (2, .leave), (20, .open)]) {
            ScriptedEngine { _, _ in }
        }
        let states = world.log.compactMap {
            if case .lifecycle(let state) = $0.kind { state } else { nil }
        }
        #expect(states == [.background, .foreground])
        #expect(world.launches.count == 1)
    }
}
