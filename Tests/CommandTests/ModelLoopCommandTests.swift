// A loop in Lifeline's own model reaches the command line as Lifeline's error: the tool's own
// exit status (70), the rule named and "not the app's fault", never exit 1 (a failure of the
// app) or 2 (bad input).
import Engines
import Foundation
import Simulation
import Testing
import World

@testable import LifelineCommands

/// An app that submits an undated app refresh request when opened and again inside each
/// handler, completing each at once (`TaskRequestIntervalTests`' app, as a tracking engine).
final class ResubmittingTracker: TrackingEngine {
    private func submit(_ services: LocationServices) {
        _ = services.submitAppRefresh(identifier: "refresh", earliestBegin: nil)
    }
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        if launch.state == .foreground { submit(services) }
    }
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        submit(services)
        services.completeWake(task, success: true)
    }
    func start(services: LocationServices) {}
    func stop(services: LocationServices) {}
    func state(at now: Instant) -> EngineState {
        EngineState(enabled: true, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }
    var events: [TrackingEvent] { [] }
}

let resubmitting = CustomEngine(name: "resubmitting", summary: "resubmits app refresh") { _ in
    ResubmittingTracker()
}

@Suite("A loop in Lifeline's model on the command line")
struct ModelLoopCommandTests {
    @Test("run: a policy that runs undated requests at once loops; exit 70, Lifeline's error")
    func runExitsWithLifelinesStatus() throws {
        let folder = try TemporaryFolder()
        // taskRequestIntervalMin=0s: the model as it was before R-H15, which looped.
        let scenario = try folder.write(
            "loop.scenario",
            [
                "engine resubmitting", "policy iOS18 taskRequestIntervalMin=0s",
                "authorization when-in-use", "horizon 2m", "route", "  park 2m", "events",
                "  0s open", "  2s leave", "end",
            ].joined(separator: "\n") + "\n")
        let result = runTool(["run", scenario], engines: [resubmitting])
        #expect(result.code == 70)
        #expect(result.error.contains("not the app's fault"), "\(result.error)")
        #expect(result.error.contains("R-H1"), "\(result.error)")
    }

    @Test("run: the same app under iOS's interval (R-H15) runs to its horizon, exit 0")
    func runUnderTheIntervalPasses() throws {
        let folder = try TemporaryFolder()
        let scenario = try folder.write(
            "interval.scenario",
            [
                "engine resubmitting", "policy iOS18", "authorization when-in-use",
                "horizon 2m", "route", "  park 2m", "events", "  0s open", "  2s leave", "end",
            ].joined(separator: "\n") + "\n")
        let result = runTool(["run", scenario], engines: [resubmitting])
        #expect(result.error.contains("looped") == false, "\(result.error)")
        #expect(result.code != 70)
    }
}
