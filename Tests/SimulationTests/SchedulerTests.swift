// The scheduler and run loop: order of delivery, cancellation, bounds and their outcomes.
import Testing

@testable import Simulation

@Suite("Scheduler and run loop")
struct SchedulerTests {
    @Test("deliveries come in time order, equal instants first-scheduled first")
    func timeThenFIFO() {
        var simulation = Simulation<Note>()
        let recorder = Recorder()
        let id = simulation.add(recorder)
        let at = { (seconds: Int64) in Instant.start + .seconds(seconds) }
        simulation.scheduler.send(Note(number: 1), to: id, at: at(5))
        simulation.scheduler.send(Note(number: 2), to: id, at: at(2))
        simulation.scheduler.send(Note(number: 3), to: id, at: at(5))
        simulation.scheduler.send(Note(number: 4), to: id, at: at(2))
        simulation.scheduler.send(Note(number: 5), to: id, at: at(0))
        let outcome = simulation.run()
        #expect(recorder.numbers == [5, 2, 4, 1, 3])
        #expect(outcome == RunOutcome(exitReason: .idle, deliveredCount: 5, now: at(5)))
    }

    @Test("a message sent now goes after everything already due now")
    func sendNowQueuesBehind() {
        var simulation = Simulation<Note>()
        let recorder = Recorder { note, context in
            if note.number == 1 { context.send(Note(number: 9), to: context.currentActor) }
        }
        let id = simulation.add(recorder)
        for number in 1...3 { simulation.scheduler.send(Note(number: number), to: id, at: .start) }
        _ = simulation.run()
        #expect(recorder.numbers == [1, 2, 3, 9])
        #expect(recorder.received.allSatisfy { $0.instant == .start })
    }

    @Test("each delivery records its sender: the actor delivering, or outside between deliveries")
    func senders() {
        var simulation = Simulation<Note>()
        let recorder = Recorder { note, context in
            if note.number == 1 { context.setTimer(after: .seconds(1), Note(number: 2)) }
        }
        let id = simulation.add(recorder)
        #expect(simulation.scheduler.currentActor == .outside)
        simulation.scheduler.send(Note(number: 1), to: id, at: .start)
        let due = simulation.scheduler.queue.advance(notAfter: 0)
        #expect(due)
        let readyIndex = Int(simulation.scheduler.queue.nodes[0].next)
        #expect(simulation.scheduler.queue.nodes[readyIndex].sender == .outside)
        _ = simulation.run(eventCountMax: 1)
        #expect(simulation.scheduler.currentActor == .outside)
        let timerDue = simulation.scheduler.queue.advance(notAfter: .max)
        #expect(timerDue)
        let timerIndex = Int(simulation.scheduler.queue.nodes[0].next)
        #expect(simulation.scheduler.queue.nodes[timerIndex].sender == id, "a timer's own channel")
    }

    @Test("a cancelled timer is never delivered; cancelling twice or after delivery does nothing")
    func cancellation() {
        var simulation = Simulation<Note>()
        var handles: [EventHandle] = []
        let recorder = Recorder()
        let id = simulation.add(recorder)
        for number in 0..<4 {
            handles.append(
                simulation.scheduler.send(
                    Note(number: number), to: id, after: .seconds(Int64(number))))
        }
        let cancelled1 = simulation.scheduler.cancel(handles[2])
        #expect(cancelled1)
        let cancelled2 = simulation.scheduler.cancel(handles[2])
        #expect(!cancelled2)
        #expect(!simulation.scheduler.isPending(handles[2]))
        #expect(simulation.scheduler.isPending(handles[3]))
        _ = simulation.run()
        #expect(recorder.numbers == [0, 1, 3])
        let cancelled3 = simulation.scheduler.cancel(handles[3])
        #expect(!cancelled3, "already delivered")
        #expect(simulation.scheduler.cancelledCount == 1)
    }

    @Test("an old handle does not cancel the delivery that reuses its slot")
    func handlesDoNotAlias() {
        var simulation = Simulation<Note>()
        let recorder = Recorder()
        let id = simulation.add(recorder)
        let old = simulation.scheduler.send(Note(number: 1), to: id, after: .seconds(1))
        let cancelled4 = simulation.scheduler.cancel(old)
        #expect(cancelled4)
        let reused = simulation.scheduler.send(Note(number: 2), to: id, after: .seconds(1))
        let cancelled5 = simulation.scheduler.cancel(old)
        #expect(!cancelled5)
        #expect(simulation.scheduler.isPending(reused))
        _ = simulation.run()
        #expect(recorder.numbers == [2])
    }

    @Test("a timer set by an actor comes back to it; cancelling it from the handler works")
    func timers() {
        var simulation = Simulation<Note>()
        var pending: EventHandle?
        let recorder = Recorder { note, context in
            switch note.number {
            case 0:
                pending = context.setTimer(after: .seconds(10), Note(number: 99))
                context.setTimer(after: .seconds(1), Note(number: 1))
            case 1:
                let cancelled = context.cancel(pending!)
                #expect(cancelled)
            default: break
            }
        }
        let id = simulation.add(recorder)
        simulation.scheduler.send(Note(number: 0), to: id, at: .start)
        let outcome = simulation.run()
        #expect(recorder.numbers == [0, 1])
        #expect(outcome.now == .start + .seconds(1))
    }

    @Test("the horizon stops the run before later deliveries and moves the clock to it")
    func horizon() {
        var simulation = Simulation<Note>()
        let recorder = Recorder()
        let id = simulation.add(recorder)
        for second in [1, 5, 5, 9] as [Int64] {
            simulation.scheduler.send(
                Note(number: Int(second)), to: id, at: .start + .seconds(second))
        }
        let first = simulation.run(horizon: .start + .seconds(5))
        #expect(
            first
                == RunOutcome(
                    exitReason: .horizonReached, deliveredCount: 3, now: .start + .seconds(5)))
        let second = simulation.run(horizon: .start + .seconds(7))
        #expect(
            second
                == RunOutcome(
                    exitReason: .horizonReached, deliveredCount: 0, now: .start + .seconds(7)))
        simulation.scheduler.send(Note(number: 8), to: id, at: .start + .seconds(8))
        let third = simulation.run()
        #expect(
            third == RunOutcome(exitReason: .idle, deliveredCount: 2, now: .start + .seconds(9)))
        #expect(recorder.numbers == [1, 5, 5, 8, 9])
    }

    @Test("the event bound stops an endless run and says so")
    func eventBound() {
        var simulation = Simulation<Note>()
        let recorder = Recorder { note, context in context.setTimer(after: .seconds(1), note) }
        let id = simulation.add(recorder)
        simulation.scheduler.send(Note(number: 0), to: id, at: .start)
        let outcome = simulation.run(eventCountMax: 50)
        #expect(
            outcome
                == RunOutcome(
                    exitReason: .eventCountMaxReached, deliveredCount: 50,
                    now: .start + .seconds(49)))
        #expect(simulation.scheduler.pendingCount == 1)
    }

    @Test("an actor can stop the run after its delivery")
    func stopRequest() {
        var simulation = Simulation<Note>()
        let recorder = Recorder { note, context in if note.number == 2 { context.requestStop() } }
        let id = simulation.add(recorder)
        for number in 1...4 {
            simulation.scheduler.send(Note(number: number), to: id, after: .seconds(Int64(number)))
        }
        let outcome = simulation.run()
        #expect(outcome.exitReason == .stopRequested)
        #expect(recorder.numbers == [1, 2])
        _ = simulation.run()
        #expect(recorder.numbers == [1, 2, 3, 4])
    }

    @Test("messages reach the actor they were sent to")
    func addressing() {
        var simulation = Simulation<Note>()
        let first = Recorder()
        let second = Recorder { note, context in
            if note.number == 1 {
                context.send(Note(number: 2), to: ActorID(index: 0), after: .seconds(1))
            }
        }
        let firstID = simulation.add(first)
        let secondID = simulation.add(second)
        #expect(firstID == ActorID(index: 0) && secondID == ActorID(index: 1))
        simulation.scheduler.send(Note(number: 1), to: secondID, at: .start)
        _ = simulation.run()
        #expect(first.numbers == [2] && second.numbers == [1])
    }

    @Test("the queue keeps time order across widely spread instants")
    func wideSpread() {
        var simulation = Simulation<Note>()
        let recorder = Recorder()
        let id = simulation.add(recorder)
        var random = Xoshiro256StarStar(seed: 3)
        var instants: [Int64] = []
        for number in 0..<2_000 {
            let instant = Int64(
                random.nextBounded(below: 1 << UInt64(random.nextBounded(below: 62))))
            instants.append(instant)
            simulation.scheduler.send(
                Note(number: number), to: id, at: Instant(nanosecondsSinceStart: instant))
        }
        _ = simulation.run()
        let expected = instants.enumerated().sorted {
            ($0.element, $0.offset) < ($1.element, $1.offset)
        }
        #expect(recorder.numbers == expected.map(\.offset))
    }
}
