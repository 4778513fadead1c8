// Layers 1 and 2 together: a simulation whose same-instant orderings are drawn from the
// explorer's test case, so a failing interleaving is found, shrunk toward FIFO, and replayed.
import Exploration
import Simulation
import Testing

/// A register that keeps the last value written: correct only if writes arrive in the order
/// they were sent, which FIFO guarantees and a reordering of simultaneous deliveries does not.
final class Register: SimulationActor {
    private(set) var value = 0
    func receive(_ message: Token, context: inout Scheduler<Token>) {
        if message.id > 0 { value = message.id }
    }
}

/// Eight deliveries due at the same instant: writes of 1 and then 2 among six no-ops. Returns
/// the register's final value and the delivery order, with every ordering choice drawn from
/// the test case.
var racingWrites: Gen<(value: Int, order: [Int])> {
    Gen("racing-writes") { testCase in
        let trace = MemoryTrace<Token>()
        var simulation = Simulation<Token>(ordering: .random(choices: testCase), trace: trace)
        let register = Register()
        let id = simulation.add(register)
        for token in [0, 1, 0, 0, 2, 0, 0, 0] {
            simulation.scheduler.send(Token(id: token), to: id, at: .start)
        }
        _ = simulation.run()
        return (register.value, trace.records.map(\.message.id))
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
        // Shrinking keeps only what the failure needs: the write of 2 moved ahead of the write
        // of 1, every other pick left at the first-scheduled delivery.
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
