// Properties of the kernel over random interleavings of schedule, cancel and run, explored and
// shrunk by the exploration engine: every operation and every same-instant ordering decision
// is drawn from the test case, so a failure shrinks to the few operations and swaps it needs.
import Exploration
import ExplorationTesting
import Simulation
import Testing

/// A note that may hop to the next actor when delivered.
struct Token: CustomStringConvertible {
    var id: Int
    var hops = 0
    var hopDelay = VirtualDuration.zero
    var description: String { "token \(id)" }
}

/// One step of a kernel program, run from outside the simulation.
enum KernelStep: CustomStringConvertible {
    /// Send a token to `actor` after `delay`; when delivered it hops `hops` times onward.
    case send(actor: Int, delay: VirtualDuration, hops: Int)
    /// Cancel the `handle`-th delivery scheduled so far (modulo their number).
    case cancel(handle: Int)
    /// Run at most `events` deliveries.
    case run(events: Int)

    var description: String {
        switch self {
        case .send(let actor, let delay, let hops): "send to \(actor) after \(delay), \(hops) hops"
        case .cancel(let handle): "cancel #\(handle)"
        case .run(let events): "run \(events)"
        }
    }
}

/// What a program did: every scheduled token's due instant, the cancelled ones, every
/// delivery in order, the queue's broken invariants, and the trace hash.
final class KernelLedger {
    var due: [Int: Instant] = [:]
    var cancelled: Set<Int> = []
    var delivered: [(id: Int, instant: Instant)] = []
    var handles: [(id: Int, handle: EventHandle)] = []
    var queueViolations: [String] = []
    var traceHash: UInt64 = 0
    var nextID = 0

    func newID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

/// Delivers tokens, recording them, and passes each on to the next actor while it has hops.
final class Relay: SimulationActor {
    let ledger: KernelLedger
    let actorCount: Int
    init(ledger: KernelLedger, actorCount: Int) {
        self.ledger = ledger
        self.actorCount = actorCount
    }

    func receive(_ message: Token, context: inout Scheduler<Token>) {
        ledger.delivered.append((message.id, context.now))
        guard message.hops > 0 else { return }
        let next = ActorID(index: (context.currentActor.index + 1) % UInt32(actorCount))
        let id = ledger.newID()
        let token = Token(id: id, hops: message.hops - 1, hopDelay: message.hopDelay)
        ledger.due[id] = context.now + message.hopDelay
        ledger.handles.append((id, context.send(token, to: next, after: message.hopDelay)))
    }
}

/// Delays that make ties common: now, 1 ms, 2 ms, or anywhere within a second.
var kernelDelay: Gen<VirtualDuration> {
    Gen<VirtualDuration>.weighted([
        (3, .constant(.zero)), (1, .constant(.milliseconds(1))), (1, .constant(.milliseconds(2))),
        (1, Gen<Int64>.int64(in: 0...999_999_999).map { .nanoseconds($0) }),
    ])
}

var kernelStep: Gen<KernelStep> {
    Gen<KernelStep>.weighted([
        (
            4,
            Gen.zip(Gen<Int>.int(in: 0...3), kernelDelay, Gen<Int>.int(in: 0...3)).map {
                .send(actor: $0, delay: $1, hops: $2)
            }
        ),
        (1, Gen<Int>.int(in: 0...50).map { .cancel(handle: $0) }),
        (2, Gen<Int>.int(in: 1...20).map { .run(events: $0) }),
    ])
}

/// The ordering strategies a program runs under: FIFO, or random or PCT picks drawn from the
/// test case (so that shrinking moves them toward FIFO).
enum KernelOrdering: Int, CaseIterable { case fifo, random, pct }

/// Draws a program and an ordering, runs it on four relays to the end, and returns the
/// ordering, the program and the ledger.
func kernelRuns(ordering: KernelOrdering) -> Gen<(program: [KernelStep], ledger: KernelLedger)> {
    Gen("kernel-run", parts: [UInt64(ordering.rawValue)]) { testCase in
        let program = Gen.array(of: kernelStep, length: 1...60).generate(testCase)
        let strategy: OrderingStrategy =
            switch ordering {
            case .fifo: .fifo
            case .random: .random(choices: testCase)
            case .pct: .pct(choices: testCase, depth: 3, contestedStepsBound: 50)
            }
        return (program, runKernelProgram(program, ordering: strategy))
    }
}

/// Runs `program`, then runs to the end; the queue's invariants are walked after every step.
func runKernelProgram(_ program: [KernelStep], ordering: OrderingStrategy) -> KernelLedger {
    let ledger = KernelLedger()
    let trace = HashingTrace<Token>()
    var simulation = Simulation<Token>(ordering: ordering, trace: trace)
    for _ in 0..<4 { simulation.add(Relay(ledger: ledger, actorCount: 4)) }
    for step in program {
        switch step {
        case .send(let actor, let delay, let hops):
            let id = ledger.newID()
            ledger.due[id] = simulation.scheduler.now + delay
            let token = Token(id: id, hops: hops, hopDelay: delay)
            ledger.handles.append(
                (
                    id,
                    simulation.scheduler.send(
                        token, to: ActorID(index: UInt32(actor)), after: delay)
                ))
        case .cancel(let handle):
            guard !ledger.handles.isEmpty else { continue }
            let (id, eventHandle) = ledger.handles[handle % ledger.handles.count]
            let wasPending = simulation.scheduler.isPending(eventHandle)
            if simulation.scheduler.cancel(eventHandle) != wasPending {
                ledger.queueViolations.append(
                    "cancel answered \(!wasPending) for a delivery pending: \(wasPending)")
            }
            if wasPending { ledger.cancelled.insert(id) }
        case .run(let events):
            _ = simulation.run(eventCountMax: events)
        }
        ledger.queueViolations += simulation.queueInvariantViolations()
    }
    _ = simulation.run(eventCountMax: 100_000)
    ledger.queueViolations += simulation.queueInvariantViolations()
    ledger.traceHash = trace.hash.value
    return ledger
}

/// The failure, if any, of the delivery properties on one run.
func deliveryViolation(_ ledger: KernelLedger) -> String? {
    if let violation = ledger.queueViolations.first { return "queue invariant: \(violation)" }
    for (earlier, later) in zip(ledger.delivered, ledger.delivered.dropFirst())
    where later.instant < earlier.instant {
        return "token \(later.id) at \(later.instant) came after \(earlier.instant)"
    }
    var seen = Set<Int>()
    for delivery in ledger.delivered {
        if !seen.insert(delivery.id).inserted { return "token \(delivery.id) delivered twice" }
        if ledger.cancelled.contains(delivery.id) {
            return "cancelled token \(delivery.id) delivered"
        }
        if ledger.due[delivery.id] != delivery.instant {
            return
                "token \(delivery.id) delivered at \(delivery.instant), due \(ledger.due[delivery.id]!)"
        }
    }
    let expected = Set(ledger.due.keys).subtracting(ledger.cancelled)
    if seen != expected {
        return "never delivered: \(expected.subtracting(seen).sorted().prefix(5))"
    }
    return nil
}

@Suite("Kernel properties")
struct KernelProperties {
    @Test(
        "time order, exactly once at the due instant, never when cancelled, a sound queue",
        arguments: KernelOrdering.allCases)
    func delivery(ordering: KernelOrdering) {
        propertyCheck(
            in: Self.self, kernelRuns(ordering: ordering), cases: 150, describe: { "\($0.program)" }
        ) { run in
            if let violation = deliveryViolation(run.ledger) { throw PropertyFailure(violation) }
        }
    }

    @Test("the same choices give the same order and trace hash", arguments: KernelOrdering.allCases)
    func determinism(ordering: KernelOrdering) {
        propertyCheck(
            in: Self.self,
            Gen<[UInt64]>.array(
                of: Gen<Int64>.int64(in: 0...Int64.max).map { UInt64($0) }, length: 0...200),
            cases: 50
        ) { choices in
            // Replaying the same recorded choices twice must give the same run.
            let first = kernelRuns(ordering: ordering).generate(TestCase(prefix: choices)).ledger
            let second = kernelRuns(ordering: ordering).generate(TestCase(prefix: choices)).ledger
            try check(first.delivered.map(\.id) == second.delivered.map(\.id), "the order differs")
            try check(
                first.traceHash == second.traceHash,
                "hash \(first.traceHash) then \(second.traceHash)")
        }
    }

    @Test(
        "random and PCT only reorder deliveries that share an instant",
        arguments: [KernelOrdering.random, .pct])
    func tiesOnly(ordering: KernelOrdering) {
        // Sends only (no hops, no cancels, one final run): the set of deliveries is then fixed,
        // so each run can be compared with FIFO delivery by delivery.
        let sends = Gen.array(of: Gen.zip(Gen<Int>.int(in: 0...3), kernelDelay), length: 1...40)
        propertyCheck(in: Self.self, sends, cases: 150) { sends in
            let program = sends.map { KernelStep.send(actor: $0.0, delay: $0.1, hops: 0) }
            let fifo = runKernelProgram(program, ordering: .fifo).delivered
            for seed: UInt64 in 0..<5 {
                let strategy: OrderingStrategy =
                    ordering == .random
                    ? .random(seed: seed) : .pct(seed: seed, depth: 3, contestedStepsBound: 40)
                let other = runKernelProgram(program, ordering: strategy).delivered
                try check(
                    other.map(\.instant) == fifo.map(\.instant), "the sequence of instants changed")
                let byInstant = { (run: [(id: Int, instant: Instant)]) in
                    Dictionary(grouping: run, by: \.instant).mapValues { Set($0.map(\.id)) }
                }
                try check(
                    byInstant(other) == byInstant(fifo), "a delivery moved to another instant")
            }
        }
    }
}
