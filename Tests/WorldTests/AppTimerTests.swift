// The app's own timer (`LocationServices.scheduledTimer(after:)`): it fires through the
// mailbox only while the process runs, late after a suspension, and ends with the process.
import Simulation
import Testing

@testable import World

/// Schedules, at its first launch only, a timer `delay` ahead, and a second timer that it
/// invalidates at once when `invalidateSecond` is set. Records the handles of timers fired.
final class TimerEngine: AppEngine {
    final class Record: @unchecked Sendable {
        var scheduled: [TimerID] = []
        var fired: [TimerID] = []
        var launches = 0
    }
    private let record: Record
    private let delay: VirtualDuration
    private let invalidateSecond: Bool

    init(_ record: Record, delay: VirtualDuration, invalidateSecond: Bool = false) {
        self.record = record
        self.delay = delay
        self.invalidateSecond = invalidateSecond
        record.launches += 1
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard record.launches == 1 else { return }
        record.scheduled.append(services.scheduledTimer(after: delay))
        if invalidateSecond {
            let second = services.scheduledTimer(after: delay)
            record.scheduled.append(second)
            services.invalidateTimer(second)
        }
    }

    func timerDidFire(_ timer: TimerID, services: LocationServices) {
        record.fired.append(timer)
    }
}

extension World {
    /// Seconds at which the engine's timers fired.
    var timerFiredSeconds: [Double] {
        seconds { if case .timerFired = $0.kind { true } else { false } }
    }

    /// The timers that ended with their process, and how it ended.
    var timersEnded: [(ObjectID, TerminationCause)] {
        log.compactMap { entry in
            if case .timerEnded(let timer, let cause) = entry.kind { (timer, cause) } else { nil }
        }
    }
}

@Suite("App timer")
struct AppTimerTests {
    static let delay = VirtualDuration(seconds: 60)

    @Test("A timer fires at its due instant while the app runs in the foreground")
    func firesWhileRunning() {
        let record = TimerEngine.Record()
        let world = runWorld(route: parked, until: 120, actions: [(0, .open)]) {
            TimerEngine(record, delay: Self.delay)
        }
        #expect(world.timerFiredSeconds == [Self.delay.seconds])
        #expect(record.fired == record.scheduled)
        #expect(world.timersEnded.isEmpty)
    }

    @Test("A timer due while the app is suspended fires when it runs again, not before")
    func firesLateAfterSuspension() {
        let record = TimerEngine.Record()
        let reopen = 200.0
        let world = runWorld(
            route: parked, until: 300, actions: [(0, .open), (5, .leave), (reopen, .open)]
        ) { TimerEngine(record, delay: Self.delay) }
        #expect(world.timerFiredSeconds == [reopen])
        #expect(record.fired == record.scheduled)
        #expect(world.launches.count == 1)
    }

    @Test(
        "A pending timer ends with its process and never fires in the next one",
        arguments: [UserAction.forceQuit, .crash, .reboot])
    func endsWithProcess(ending: UserAction) {
        let record = TimerEngine.Record()
        let world = runWorld(
            route: parked, until: 300, actions: [(0, .open), (20, ending), (30, .open)]
        ) { TimerEngine(record, delay: Self.delay) }
        #expect(world.timerFiredSeconds.isEmpty)
        #expect(record.fired.isEmpty)
        #expect(world.timersEnded.map(\.0) == record.scheduled.map(\.object))
        #expect(world.terminations.count == 1)
        #expect(world.timersEnded.map(\.1) == world.terminations)
    }

    @Test("R-F3: a timer that came due while suspended is dropped with the purge, never fired")
    func heldTimerDroppedByPurge() {
        let record = TimerEngine.Record()
        let world = runWorld(
            route: parked, until: 300, actions: [(0, .open), (5, .leave), (100, .memoryPressure)]
        ) { TimerEngine(record, delay: Self.delay) }
        #expect(record.fired.isEmpty)
        let drops = world.log.compactMap { entry in
            if case .dropped(.timerFired(let timer), let reason) = entry.kind {
                (timer, reason.rule)
            } else {
                nil
            }
        }
        #expect(drops.map(\.0) == record.scheduled.map(\.object))
        #expect(drops.map(\.1) == ["R-F3"])
        #expect(world.timersEnded.isEmpty)
    }

    @Test("An invalidated timer never fires; the other still does")
    func invalidatedTimerNeverFires() {
        let record = TimerEngine.Record()
        let world = runWorld(route: parked, until: 120, actions: [(0, .open)]) {
            TimerEngine(record, delay: Self.delay, invalidateSecond: true)
        }
        #expect(record.scheduled.count == 2)
        #expect(record.fired == [record.scheduled[0]])
        #expect(world.timerFiredSeconds == [Self.delay.seconds])
    }

    @Test("A fired timer is in the trace as the app's timer message")
    func traceNamesTheTimer() {
        let record = TimerEngine.Record()
        let trace = MemoryTrace<WorldMessage>()
        var world = World(WorldConfiguration(route: parked), trace: trace) {
            TimerEngine(record, delay: Self.delay)
        }
        world.schedule(.open, at: .start)
        world.run(until: .start + .seconds(120))
        let timer = record.scheduled[0]
        let lines = trace.records.map(\.message.description)
        #expect(lines.contains { $0.contains("timer \(timer) due (process 1)") })
    }
}
