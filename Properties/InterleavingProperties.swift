// Layers 1 and 2 together: a simulation whose same-instant orderings are drawn from the
// explorer's test case, so a failing interleaving is found, shrunk toward FIFO, and replayed.
import Exploration
import Simulation
import Testing

/// A register that keeps the last value written: correct only if writes from different
/// writers arrive in the order they were sent, which FIFO gives and a reordering of
/// simultaneous deliveries from different senders does not.
final class Register: SimulationActor {
    private(set) var value = 0
    /// The tokens received, in order.
    private(set) var order: [Int] = []
    func receive(_ message: Token, context: inout Scheduler<Token>) {
        order.append(message.id)
        if message.id > 0 { value = message.id }
    }
}

/// A writer: passes each token it receives on to the register, due at `due`.
final class Writer: SimulationActor {
    let register: ActorID
    let due: Instant
    init(register: ActorID, due: Instant) {
        self.register = register
        self.due = due
    }
    func receive(_ message: Token, context: inout Scheduler<Token>) {
        context.send(message, to: register, at: due)
    }
}

/// Eight writers, told one after the other, each send the register one token due at the same
/// instant: writes of 1 and then 2 among six no-ops. Each write travels on its own writer's
/// channel, so the writes may race (one channel's messages never would). Returns the
/// register's final value and the order it received the tokens in, with every ordering choice
/// drawn from the test case.
var racingWrites: Gen<(value: Int, order: [Int])> {
    Gen("racing-writes") { testCase in
        var simulation = Simulation<Token>(ordering: .random(choices: testCase))
        let register = Register()
        let registerID = simulation.add(register)
        let due = Instant.start + .milliseconds(1)
        for (told, token) in [0, 1, 0, 0, 2, 0, 0, 0].enumerated() {
            let writer = simulation.add(Writer(register: registerID, due: due))
            // Told at distinct instants, so that the writes are the only ties.
            simulation.scheduler.send(
                Token(id: token), to: writer, at: .start + .nanoseconds(Int64(told)))
        }
        _ = simulation.run()
        return (register.value, register.order)
    }
}

@Suite("Interleavings")
struct InterleavingProperties {
    @Test("a lost write under reordering is found, shrunk to FIFO plus one move, and replayed")
    func lostWrite() throws {
        let result = Explorer.explore(
            racingWrites, settings: ExplorationSettings(seed: 17), describe: { "\($0.order)" }
        ) { outcome in
            try check(outcome.value == 2, "the register ends at \(outcome.value)")
        }
        let failure = try #require(result.failure, "FIFO never fails, so only a reordering can")
        #expect(failure.message == "the register ends at 1")
        // Shrinking keeps only what the failure needs: the writer of 2 moved ahead of the
        // writer of 1, every other pick left at the first-scheduled delivery.
        let nonzero = failure.shrunkChoices.filter { $0 != 0 }
        #expect(nonzero.count == 1, "one reordering decision: \(failure.shrunkChoices)")
        #expect(failure.value.order.firstIndex(of: 2)! < failure.value.order.firstIndex(of: 1)!)
        let replay = Explorer.replay(failure.replayToken, racingWrites, describe: { "\($0.order)" })
        { outcome in
            try check(outcome.value == 2, "the register ends at \(outcome.value)")
        }
        #expect(replay.description == failure.valueDescription && replay.failure != nil)
        // The all-zero sequence is FIFO, and FIFO keeps the last write.
        #expect(Explorer.replay(ReplayToken(choices: []), racingWrites) { _ in }.value.value == 2)
    }
}
