// Properties of the kernel over random interleavings of schedule, cancel and run, under every
// ordering strategy: time order, exactly-once delivery, determinism, ties-only reordering.
import Simulation
import Testing

/// A note with a unique id.
struct Token: CustomStringConvertible {
    var id: Int
    var description: String { "token \(id)" }
}

/// What the harness and the actors did: the observer of a test run, not part of the model.
final class Ledger {
    var scheduled: [Int: Instant] = [:]
    var cancelled: Set<Int> = []
    var delivered: [(id: Int, instant: Instant, actor: ActorID)] = []
    var handles: [(id: Int, handle: EventHandle)] = []
    var nextID = 0
    /// Broken queue invariants seen between runs.
    var queueViolations: [String] = []
    let scheduleBudget: Int
    init(scheduleBudget: Int) { self.scheduleBudget = scheduleBudget }

    /// Schedules a token to `target` after one of a few delays (ties are common).
    func schedule(
        to target: ActorID, random: inout Xoshiro256StarStar, scheduler: inout Scheduler<Token>
    ) {
        guard nextID < scheduleBudget else { return }
        let delays: [VirtualDuration] = [
            .zero, .zero, .milliseconds(1), .milliseconds(2),
            .nanoseconds(Int64(random.nextBounded(below: 1_000_000_000))),
        ]
        let delay = delays[Int(random.nextBounded(below: UInt64(delays.count)))]
        let id = nextID
        nextID += 1
        let handle = scheduler.send(Token(id: id), to: target, after: delay)
        scheduled[id] = scheduler.now + delay
        handles.append((id, handle))
    }

    /// Cancels a random earlier handle (perhaps already delivered or cancelled).
    func cancelOne(random: inout Xoshiro256StarStar, scheduler: inout Scheduler<Token>) {
        guard !handles.isEmpty else { return }
        let (id, handle) = handles[Int(random.nextBounded(below: UInt64(handles.count)))]
        let wasPending = scheduler.isPending(handle)
        let didCancel = scheduler.cancel(handle)
        precondition(
            wasPending == didCancel, "cancel succeeds exactly when the delivery is pending")
        if didCancel { cancelled.insert(id) }
    }
}

/// Schedules and cancels at random on every delivery, from its own seeded stream.
final class Chaos: SimulationActor {
    private var random: Xoshiro256StarStar
    private let ledger: Ledger
    private let actorCount: UInt64
    init(seed: Seed, ledger: Ledger, actorCount: Int) {
        random = Xoshiro256StarStar(seed: seed)
        self.ledger = ledger
        self.actorCount = UInt64(actorCount)
    }

    func receive(_ message: Token, context: inout Scheduler<Token>) {
        ledger.delivered.append((message.id, context.now, context.currentActor))
        for _ in 0..<random.nextBounded(below: 3) {
            ledger.schedule(
                to: ActorID(index: UInt32(random.nextBounded(below: actorCount))),
                random: &random, scheduler: &context)
        }
        if random.nextBounded(below: 3) == 0 {
            ledger.cancelOne(random: &random, scheduler: &context)
        }
    }
}

/// One random interleaving: returns the ledger and the trace hash. The queue's invariants are
/// walked after every bounded run; a violation stops the test with its seed.
func chaosRun(seed: UInt64, ordering: OrderingStrategy) -> (Ledger, UInt64) {
    let root = Seed(seed)
    var harnessRandom = Xoshiro256StarStar(seed: root.derive("harness"))
    let ledger = Ledger(scheduleBudget: 400)
    let trace = HashingTrace<Token>()
    var simulation = Simulation<Token>(ordering: ordering, trace: trace)
    let actorCount = 4
    for index in 0..<actorCount {
        simulation.add(
            Chaos(seed: root.derive(UInt64(index)), ledger: ledger, actorCount: actorCount))
    }
    for _ in 0..<20 {
        ledger.schedule(
            to: ActorID(index: UInt32(harnessRandom.nextBounded(below: UInt64(actorCount)))),
            random: &harnessRandom, scheduler: &simulation.scheduler)
    }
    // Interleave bounded runs with cancellations and schedules from outside.
    var rounds = 0
    while simulation.scheduler.pendingCount > 0 && rounds < 1_000 {
        _ = simulation.run(eventCountMax: Int(harnessRandom.nextBounded(below: 20)) + 1)
        if harnessRandom.nextBounded(below: 2) == 0 {
            ledger.cancelOne(random: &harnessRandom, scheduler: &simulation.scheduler)
        }
        ledger.queueViolations += simulation.queueInvariantViolations()
        rounds += 1
    }
    return (ledger, trace.hash.value)
}

/// The strategies to try for `seed`.
func orderings(seed: UInt64) -> [(String, OrderingStrategy)] {
    [
        ("fifo", .fifo), ("random", .random(seed: seed)),
        ("pct", .pct(seed: seed, depth: 3, contestedStepsBound: 50)),
    ]
}

@Suite("Kernel properties")
struct KernelProperties {
    @Test("the queue's structure stays sound between runs")
    func queueInvariants() {
        forEverySeed(in: Self.self) { seed in
            for (name, ordering) in orderings(seed: seed) {
                let (ledger, _) = chaosRun(seed: seed, ordering: ordering)
                if let violation = ledger.queueViolations.first { return "\(name): \(violation)" }
            }
            return nil
        }
    }

    @Test("events come out in non-decreasing time")
    func timeOrder() {
        forEverySeed(in: Self.self) { seed in
            for (name, ordering) in orderings(seed: seed) {
                let (ledger, _) = chaosRun(seed: seed, ordering: ordering)
                for (earlier, later) in zip(ledger.delivered, ledger.delivered.dropFirst())
                where later.instant < earlier.instant {
                    return
                        "\(name): token \(later.id) at \(later.instant) came after \(earlier.instant)"
                }
            }
            return nil
        }
    }

    @Test(
        "every event not cancelled is delivered exactly once, at its instant; a cancelled one never"
    )
    func exactlyOnce() {
        forEverySeed(in: Self.self) { seed in
            for (name, ordering) in orderings(seed: seed) {
                let (ledger, _) = chaosRun(seed: seed, ordering: ordering)
                var seen = Set<Int>()
                for delivery in ledger.delivered {
                    if !seen.insert(delivery.id).inserted {
                        return "\(name): token \(delivery.id) delivered twice"
                    }
                    if ledger.cancelled.contains(delivery.id) {
                        return "\(name): cancelled token \(delivery.id) delivered"
                    }
                    if ledger.scheduled[delivery.id] != delivery.instant {
                        return
                            "\(name): token \(delivery.id) delivered at \(delivery.instant), due \(ledger.scheduled[delivery.id]!)"
                    }
                }
                let expected = Set(ledger.scheduled.keys).subtracting(ledger.cancelled)
                if seen != expected {
                    return
                        "\(name): never delivered: \(expected.subtracting(seen).sorted().prefix(5))"
                }
            }
            return nil
        }
    }

    @Test("the same seed gives the same order and trace hash")
    func determinism() {
        forEverySeed(in: Self.self, cases: 50) { seed in
            for (name, ordering) in orderings(seed: seed) {
                let (first, firstHash) = chaosRun(seed: seed, ordering: ordering)
                let (_, secondOrdering) = orderings(seed: seed).first { $0.0 == name }!
                let (second, secondHash) = chaosRun(seed: seed, ordering: secondOrdering)
                if first.delivered.map(\.id) != second.delivered.map(\.id) {
                    return "\(name): order differs"
                }
                if firstHash != secondHash {
                    return "\(name): hash \(firstHash) then \(secondHash)"
                }
            }
            return nil
        }
    }

    @Test("random and PCT only reorder events that share an instant")
    func tiesOnly() {
        forEverySeed(in: Self.self) { seed in
            // A fixed set of deliveries with many ties, so runs are comparable event by event.
            func deliveries(_ ordering: OrderingStrategy) -> [(Int, Instant)] {
                var random = Xoshiro256StarStar(seed: seed)
                let trace = MemoryTrace<Token>()
                var simulation = Simulation<Token>(ordering: ordering, trace: trace)
                final class Quiet: SimulationActor {
                    func receive(_ message: Token, context: inout Scheduler<Token>) {}
                }
                for _ in 0..<5 { simulation.add(Quiet()) }
                for id in 0..<200 {
                    let instant =
                        Instant.start + .milliseconds(Int64(random.nextBounded(below: 10)))
                    simulation.scheduler.send(
                        Token(id: id), to: ActorID(index: UInt32(random.nextBounded(below: 5))),
                        at: instant)
                }
                _ = simulation.run()
                return trace.records.map { ($0.message.id, $0.instant) }
            }
            let fifo = deliveries(.fifo)
            for (name, ordering) in orderings(seed: seed).dropFirst() {
                let other = deliveries(ordering)
                if other.map(\.1) != fifo.map(\.1) {
                    return "\(name): the sequence of instants changed"
                }
                let fifoByInstant = Dictionary(grouping: fifo, by: \.1).mapValues {
                    Set($0.map(\.0))
                }
                let otherByInstant = Dictionary(grouping: other, by: \.1).mapValues {
                    Set($0.map(\.0))
                }
                if fifoByInstant != otherByInstant {
                    return "\(name): an event moved to another instant"
                }
            }
            return nil
        }
    }
}
