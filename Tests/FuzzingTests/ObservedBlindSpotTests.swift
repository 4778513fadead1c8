// Issue 21's blind spots, each closed: a small live-updates tracker (`PlainTracker`) with one
// mistake at a time, judged by the built-in rules from what it did. Each of these runs passed
// every rule before the rules judged the disk, the network and the OS instead of the engine's
// narration (the tracker narrates its fixes as the built-in engines do, which made no
// difference then either).
import Engines
import Fuzzing
import Invariants
import Scenarios
import Simulation
import Testing
import World

/// A tracker on live updates with both sessions, storing each fix through a `FixRecorder`,
/// with the enabled flag in the saved record; `mistake` plants one error.
final class PlainTracker: RecordingEngine {
    enum Mistake: Sendable { case none, dropsSessionsInBackground, rejectsApproximateFixes }
    enum Task: Sendable { case endsIt, holdsItForever }

    let mistake: Mistake
    let task: Task
    let recorder = FixRecorder()
    private(set) var events: [TrackingEvent] = []
    private var stream: LiveUpdatesID?
    private var service: ServiceSession?
    private var activity: BackgroundActivitySession?

    init(_ mistake: Mistake = .none, task: Task = .endsIt) {
        self.mistake = mistake
        self.task = task
    }

    func start(services: LocationServices) {
        TrackingRecord(services).isEnabled = true
        events.append(.started)
        startMachinery(services)
    }

    func stop(services: LocationServices) {
        TrackingRecord(services).isEnabled = false
        events.append(.stopped)
    }

    func state(at now: Instant) -> EngineState {
        EngineState(enabled: stream != nil, lastAcceptedFixAge: nil, sessionEngineActive: false)
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        recorder.resume(services: services)
        if TrackingRecord(services).isEnabled {
            events.append(.resumed(launchedIn: launch.state))
            startMachinery(services)
        } else if launch.state == .foreground {
            start(services: services)
        }
        if task == .holdsItForever { _ = services.beginBackgroundTask() }
    }

    func lifecycleChanged(to state: ProcessState, services: LocationServices) {
        guard state == .background, mistake == .dropsSessionsInBackground else { return }
        activity?.invalidate()
        activity = nil
    }

    func backgroundTaskWillExpire(_ task: BackgroundTaskID, services: LocationServices) {
        if self.task == .endsIt { recorder.backgroundTaskWillExpire(task, services: services) }
    }

    private func startMachinery(_ services: LocationServices) {
        let authorization = services.authorizationStatus
        guard authorization == .always || authorization == .whenInUse else { return }
        if service == nil {
            service = ServiceSession(services: services, authorization: .whenInUse)
        }
        if activity == nil { activity = BackgroundActivitySession(services: services) }
        if stream == nil { stream = services.startLiveUpdates() }
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let id = update.liveUpdates, id == stream, let fix = update.fix
        else { return }
        if mistake == .rejectsApproximateFixes && fix.horizontalAccuracyMeters > 100 {
            events.append(.fixRejected(fix, reason: "too coarse"))
            return
        }
        recorder.accept(fix, services: services)
        events.append(.fixAccepted(fix))
    }
}

@Suite("Blind spots closed: judged from what the app did")
struct ObservedBlindSpotTests {
    /// A 40-minute drive: the user opens the app and leaves it a minute later.
    static func drive(authorization: String, accuracy: String = "full") -> String {
        """
        engine session
        authorization \(authorization)
        accuracy \(accuracy)
        horizon 50m
        route
          drive 40m at 13.9 m/s
        events
          0s open
          1m leave
        """
    }

    static func violations(
        _ text: String, _ make: @escaping () -> any TrackingEngine
    ) throws -> [Violation] {
        let scenario = try Scenario(parsing: text, path: "blind-spot.scenario")
        let record = RunRecord.run(
            configuration: try scenario.worldConfiguration(),
            actions: scenario.events.map { ScheduledAction(.start + $0.at, $0.event) },
            horizon: .start + scenario.horizon, launchRules: LaunchRules(), engine: make)
        return record.violations()
    }

    @Test("When In Use: a tracker that drops its background session in the background fails")
    func whenInUseDropsSessions() throws {
        let text = Self.drive(authorization: "when-in-use")
        #expect(try Self.violations(text) { PlainTracker() }.isEmpty)
        let dropped = try Self.violations(text) { PlainTracker(.dropsSessionsInBackground) }
        #expect(dropped.map(\.invariant) == ["bounded-gaps"], "\(dropped)")
    }

    @Test("Precise Location off: a tracker that rejects every approximate fix fails (R-F10)")
    func reducedAccuracyRejected() throws {
        let text = Self.drive(authorization: "always", accuracy: "reduced")
        #expect(try Self.violations(text) { PlainTracker() }.isEmpty)
        let rejecting = try Self.violations(text) { PlainTracker(.rejectsApproximateFixes) }
        #expect(rejecting.map(\.invariant) == ["bounded-gaps"], "\(rejecting)")
        #expect(
            try Self.violations(text) { BuiltInEngine.session.make() }.isEmpty,
            "the session engine keeps approximate fixes")
    }

    @Test("R-F1: a tracker that never ends its background task is killed by iOS, and fails")
    func backgroundTaskNeverEnded() throws {
        let text = Self.drive(authorization: "always")
        let held = try Self.violations(text) { PlainTracker(task: .holdsItForever) }
        #expect(held.contains { $0.invariant == "no-watchdog-kill" }, "\(held)")
        #expect(try Self.violations(text) { PlainTracker(task: .endsIt) }.isEmpty)
    }
}
