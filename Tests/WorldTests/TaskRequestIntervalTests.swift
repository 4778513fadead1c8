// The system runs an app's task requests at its discretion, never back to back (R-H15): an app
// refresh request with no date, submitted again inside its own handler, runs again only
// `taskRequestIntervalMin` later; a loop the model still falls into is `ModelLoop`, Lifeline's
// error, never a verdict on the app.
import Simulation
import Testing

@testable import World

/// An engine that submits an undated app refresh (or processing) request at its first launch
/// and again inside each handler, as many trackers do, completing each task at once.
final class ResubmittingEngine: AppEngine {
    let processing: Bool
    init(processing: Bool = false) { self.processing = processing }

    private func submit(_ services: LocationServices) {
        if processing {
            services.submitProcessing(identifier: "refresh", earliestBegin: nil)
        } else {
            services.submitAppRefresh(identifier: "refresh", earliestBegin: nil)
        }
    }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        if launch.state == .foreground { submit(services) }
    }
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        submit(services)
        services.completeWake(task, success: true)
    }
}

/// Runs the resubmitting app, opened at 0 s and left at 2 s, to `end` seconds within a small
/// delivery bound: a model that wakes it at one instant for ever reaches the bound.
private func resubmittingWorld(
    policy: IOSPolicy = .measured, processing: Bool = false, until end: Double
) -> (World, RunOutcome) {
    var world = World(
        WorldConfiguration(policy: policy, authorization: .whenInUse, route: parked)
    ) { ResubmittingEngine(processing: processing) }
    world.schedule(.open, at: .start)
    world.schedule(.leave, at: .start + .seconds(2))
    let outcome = world.run(until: .start + VirtualDuration(seconds: end), eventCountMax: 100_000)
    return (world, outcome)
}

@Suite("Task requests at the system's discretion (R-H15)")
struct TaskRequestIntervalTests {
    @Test("R-H15: an undated refresh submitted again in its handler runs once per interval")
    func undatedRefreshResubmittedRunsPerInterval() {
        let (world, outcome) = resubmittingWorld(until: 40 * 60)
        #expect(outcome.exitReason == .horizonReached)
        #expect(world.modelLoop == nil)
        let refreshes = world.wakeTimeline().filter { $0.contains("app refresh") }
        // Due at once, it waits for the background (R-H1), then 15 minutes between runs.
        #expect(
            refreshes == [
                "3.5 app refresh refresh background", "903.5 app refresh refresh background",
                "1803.5 app refresh refresh background",
            ])
    }

    @Test("R-H15: the interval is the policy's taskRequestIntervalMin")
    func intervalIsThePolicys() {
        var policy = IOSPolicy.measured
        policy.taskRequestIntervalMin = .minutes(5)
        let (world, _) = resubmittingWorld(policy: policy, until: 11 * 60)
        let refreshes = world.wakeTimeline().filter { $0.contains("app refresh") }
        #expect(refreshes.count == 3)
        #expect(refreshes.last == "603.5 app refresh refresh background")
    }

    @Test("R-H15, R-H10: an undated processing request submitted again in its handler waits too")
    func undatedProcessingResubmittedRunsPerInterval() {
        let (world, outcome) = resubmittingWorld(processing: true, until: 20 * 60)
        #expect(outcome.exitReason == .horizonReached)
        let runs = world.wakeTimeline().filter { $0.contains("processing refresh") }
        #expect(runs.count == 2)
    }

    @Test("a model that begins a wake over and over at one instant stops with ModelLoop")
    func loopStopsWithModelLoop() {
        var policy = IOSPolicy.measured
        policy.taskRequestIntervalMin = .zero  // the model as it was: undated runs at once
        let (world, outcome) = resubmittingWorld(policy: policy, until: 60)
        #expect(outcome.exitReason == .stopRequested)
        let loop = world.modelLoop
        #expect(loop != nil)
        #expect(loop?.rule == "R-H1")
        #expect(loop?.what == "app refresh refresh began")
        #expect(loop?.description.contains("not the app's fault") == true)
    }
}
