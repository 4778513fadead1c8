// Same-instant ordering strategies: FIFO, random and PCT; recorded and replayed decisions.
import Testing

@testable import Simulation

@Suite("Same-instant ordering")
struct OrderingTests {
    /// Three actors each get two notes at each of three instants; returns the delivery order.
    static func deliveries(_ ordering: OrderingStrategy) -> [Int] {
        var simulation = Simulation<Note>(ordering: ordering)
        let recorders = (0..<3).map { _ in Recorder() }
        var order: [Int] = []
        for recorder in recorders {
            recorder.script = { note, _ in order.append(note.number) }
            simulation.add(recorder)
        }
        for second in 0..<3 {
            for copy in 0..<2 {
                for actor in 0..<3 {
                    let number = second * 100 + copy * 10 + actor
                    simulation.scheduler.send(
                        Note(number: number), to: ActorID(index: UInt32(actor)),
                        at: .start + .seconds(Int64(second)))
                }
            }
        }
        _ = simulation.run()
        return order
    }

    @Test("all-zero choices give FIFO order, for random and for PCT")
    func zeroIsFIFO() {
        let fifo = Self.deliveries(.fifo)
        #expect(
            fifo
                == fifo.sorted {
                    ($0 / 100, $0 % 100 / 10, $0 % 10) < ($1 / 100, $1 % 100 / 10, $1 % 10)
                })
        #expect(Self.deliveries(.random(choices: ReplayedChoices([]))) == fifo)
        #expect(Self.deliveries(.pct(choices: ReplayedChoices([]), depth: 3)) == fifo)
    }

    @Test("random and PCT reorder only within an instant", arguments: 0..<20)
    func onlyTiesReorder(seed: UInt64) {
        let fifo = Self.deliveries(.fifo)
        for ordering in [
            OrderingStrategy.random(seed: seed),
            .pct(seed: seed, depth: 3, contestedStepsBound: 10),
        ] {
            let order = Self.deliveries(ordering)
            #expect(order.map { $0 / 100 } == fifo.map { $0 / 100 })
            #expect(order.sorted() == fifo.sorted())
            // The two copies to one actor share the channel from outside: never swapped.
            for first in fifo where first % 100 / 10 == 0 {
                #expect(order.firstIndex(of: first)! < order.firstIndex(of: first + 10)!)
            }
        }
    }

    /// Senders A (told at 0) and B (told 1 ns later) each send two notes to one receiver, all
    /// due at 1 ms: A sends 10 then 11, B sends 20 then 21. Returns the receiver's order.
    static func twoSendersOneReceiver(_ ordering: OrderingStrategy) -> [Int] {
        var simulation = Simulation<Note>(ordering: ordering)
        let receiver = Recorder()
        let receiverID = simulation.add(receiver)
        let due = Instant.start + .milliseconds(1)
        for (offset, first) in [10, 20].enumerated() {
            let sender = simulation.add(
                Recorder { _, context in
                    for number in [first, first + 1] {
                        context.send(Note(number: number), to: receiverID, at: due)
                    }
                })
            simulation.scheduler.send(
                Note(number: 0), to: sender, at: .start + .nanoseconds(Int64(offset)))
        }
        _ = simulation.run()
        return receiver.numbers
    }

    @Test("random and pct put a second sender's message first, but never swap one sender's two")
    func perChannelFIFO() {
        #expect(Self.twoSendersOneReceiver(.fifo) == [10, 11, 20, 21])
        let seeds = UInt64(0)..<100
        let randomOrders = seeds.map { Self.twoSendersOneReceiver(.random(seed: $0)) }
        #expect(randomOrders.contains { $0.first == 20 }, "B's message can overtake A's")
        #expect(randomOrders.contains { $0.firstIndex(of: 20)! < $0.firstIndex(of: 11)! })
        let pctOrders = seeds.map {
            Self.twoSendersOneReceiver(.pct(seed: $0, depth: 3, contestedStepsBound: 4))
        }
        // Priorities are per channel: PCT too lets B's message to the receiver overtake A's.
        #expect(pctOrders.contains { $0.first == 20 }, "B's message can overtake A's under pct")
        for order in randomOrders + pctOrders {
            #expect(order.sorted() == [10, 11, 20, 21])
            #expect(order.firstIndex(of: 10)! < order.firstIndex(of: 11)!, "\(order)")
            #expect(order.firstIndex(of: 20)! < order.firstIndex(of: 21)!, "\(order)")
        }
    }

    @Test("a ready run on one channel draws no choice")
    func oneChannelDrawsNothing() {
        let recorded = RecordingChoices(recording: SeededChoices(seed: 1))
        var simulation = Simulation<Note>(ordering: .random(choices: recorded))
        let recorder = Recorder()
        let id = simulation.add(recorder)
        for number in 0..<5 { simulation.scheduler.send(Note(number: number), to: id, at: .start) }
        _ = simulation.run()
        #expect(recorder.numbers == [0, 1, 2, 3, 4])
        #expect(recorded.values.isEmpty)
    }

    @Test("random ordering changes the order for some seed")
    func randomReorders() {
        let fifo = Self.deliveries(.fifo)
        #expect((UInt64(0)..<10).contains { Self.deliveries(.random(seed: $0)) != fifo })
        #expect(
            (UInt64(0)..<10).contains {
                Self.deliveries(.pct(seed: $0, depth: 2, contestedStepsBound: 10)) != fifo
            })
    }

    @Test("the same seed gives the same order")
    func sameSeedSameOrder() {
        for seed: UInt64 in [1, 2, 3] {
            #expect(Self.deliveries(.random(seed: seed)) == Self.deliveries(.random(seed: seed)))
            #expect(
                Self.deliveries(.pct(seed: seed, depth: 3))
                    == Self.deliveries(.pct(seed: seed, depth: 3)))
        }
    }

    @Test("recorded decisions replay the same order")
    func recordAndReplay() {
        for seed: UInt64 in 0..<5 {
            let recorded = RecordingChoices(recording: SeededChoices(seed: seed))
            let order = Self.deliveries(.random(choices: recorded))
            #expect(!recorded.values.isEmpty)
            #expect(zip(recorded.values, recorded.bounds).allSatisfy { $0 <= $1 })
            #expect(Self.deliveries(.random(choices: ReplayedChoices(recorded.values))) == order)
            let pctRecorded = RecordingChoices(recording: SeededChoices(seed: seed))
            let pctOrder = Self.deliveries(.pct(choices: pctRecorded, depth: 3))
            #expect(
                Self.deliveries(.pct(choices: ReplayedChoices(pctRecorded.values), depth: 3))
                    == pctOrder)
        }
    }

    @Test("PCT runs the highest-priority actor's deliveries first within an instant")
    func pctPriorities() {
        // Priorities drawn in order of first appearance: actor 0 → 1, actor 1 → 5, actor 2 → 3.
        let order = Self.deliveries(.pct(choices: ReplayedChoices([1, 5, 3]), depth: 1))
        #expect(order.prefix(6).map { $0 % 10 } == [1, 1, 2, 2, 0, 0])
    }

    @Test("a PCT change point demotes the actor that would have gone first")
    func pctChangePoint() {
        // depth 2: one change point drawn first (2 → contested step 1); then priorities.
        let order = Self.deliveries(.pct(choices: ReplayedChoices([2, 1, 5, 3]), depth: 2))
        // Step 0 picks actor 1 (priority 5); at step 1 actor 1 is demoted below all.
        #expect(order.prefix(6).map { $0 % 10 } == [1, 2, 2, 0, 0, 1])
    }

    @Test("a replayed choice above its bound is taken as 0")
    func misalignedReplay() {
        let choices = ReplayedChoices([7, 1])
        #expect(choices.choose(atMost: 3) == 0)
        #expect(choices.choose(atMost: 3) == 1)
        #expect(choices.choose(atMost: 3) == 0, "past the end")
    }
}
