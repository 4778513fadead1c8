// What the Info.plist must declare for the wakes that are not location events (R-H11): the
// `fetch` and `processing` background modes and `BGTaskSchedulerPermittedIdentifiers` for task
// requests, the `remote-notification` mode for a silent push to an app not in use. Capabilities
// that do not say (nil) check nothing, as before the rule.
import Simulation
import Testing

@testable import World

/// What `SubmittingEngine` learned: whether the system accepted each request.
final class SubmitResults {
    var accepted: [Bool] = []
}

/// An engine that submits an app refresh and a processing request at each launch and notes
/// whether the system accepted each.
final class SubmittingEngine: AppEngine {
    let results: SubmitResults
    init(results: SubmitResults) { self.results = results }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let refresh = services.submitAppRefresh(
            identifier: "com.example.refresh", earliestBegin: services.now + .seconds(30))
        let processing = services.submitProcessing(
            identifier: "com.example.processing", earliestBegin: services.now + .seconds(30))
        results.accepted = [refresh, processing]
    }
}

@Suite("Info.plist facts for wakes (R-H11)")
struct InfoPlistWakeRuleTests {
    func submitted(_ capabilities: AppCapabilities) -> (World, [Bool]) {
        let results = SubmitResults()
        let world = runWorld(
            capabilities: capabilities, route: parked, until: 120,
            actions: [(0, .open), (2, .leave)]
        ) { SubmittingEngine(results: results) }
        return (world, results.accepted)
    }

    @Test("R-H11: capabilities that say nothing permit every task request, as before")
    func undeclaredPermitsAll() {
        let (world, results) = submitted(AppCapabilities())
        #expect(results == [true, true])
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "30.0 app refresh com.example.refresh background",
                "30.0 processing com.example.processing background",
            ])
    }

    @Test("R-H11: without the fetch and processing modes, task requests are refused")
    func modesRequired() {
        let onlyFetch = AppCapabilities(
            backgroundModes: ["fetch"],
            permittedTaskIdentifiers: ["com.example.refresh", "com.example.processing"])
        let (world, results) = submitted(onlyFetch)
        #expect(results == [true, false])
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "30.0 app refresh com.example.refresh background",
            ])
    }

    @Test("R-H11: an identifier missing from BGTaskSchedulerPermittedIdentifiers is refused")
    func identifiersRequired() {
        let capabilities = AppCapabilities(
            backgroundModes: ["fetch", "processing"],
            permittedTaskIdentifiers: ["com.example.processing"])
        let (_, results) = submitted(capabilities)
        #expect(results == [false, true])
    }

    @Test(
        "R-H11: without the remote-notification mode a silent push reaches only an app in the foreground"
    )
    func silentPushNeedsTheMode() {
        let withoutMode = AppCapabilities(backgroundModes: ["location"])
        let world = runWorld(
            capabilities: withoutMode, route: parked, until: 120,
            actions: [(0, .open), (10, .silentPush), (20, .leave), (60, .silentPush)]
        ) { WakeEngine() }
        #expect(
            world.wakeTimeline() == [
                "0.0 launch foreground", "10.0 remote notification foreground",
                "60.0 dropped remote notification R-H11",
            ])
        let withMode = runWorld(
            capabilities: AppCapabilities(backgroundModes: ["remote-notification"]),
            route: parked, until: 120, actions: [(0, .open), (20, .leave), (60, .silentPush)]
        ) { WakeEngine() }
        #expect(withMode.wakeTimeline().last == "60.0 remote notification background")
    }
}
