// Properties of the kernel over random interleavings of schedule, cancel and run, explored and
// shrunk by the exploration engine: every operation and every same-instant ordering decision
// is drawn from the test case, so a failure shrinks to the few operations and swaps it needs.
import Exploration
import ExplorationTesting
import Simulation
import Testing

/// A note that may hop on when delivered: `hops` more times, each hop `hopDelay` later to the
/// actor `hopOffset` places on (0: a timer to itself), as `fanOut` tokens sent one after the
/// other, so that one channel carries several tokens due at the same instant.
struct Token: CustomStringConvertible {
    var id: Int
    var hops = 0
    var hopDelay = VirtualDuration.zero
    var hopOffset = 1
    var fanOut = 1
    var description: String { "token \(id)" }
}

/// A (sender, receiver) pair: the unit of FIFO order that every ordering strategy keeps.
struct KernelChannel: Hashable, CustomStringConvertible {
    var sender: ActorID
    var receiver: ActorID
    var description: String {
        "\(sender == .outside ? "outside" : sender.description) → \(receiver)"
    }
}

/// One step of a kernel program, run from outside the simulation.
enum KernelStep: CustomStringConvertible {
    /// Send a token to `actor` after `delay`; when delivered it hops `hops` times onward, each
    /// hop `hopOffset` actors on (0: a timer to itself) as `fanOut` tokens.
    case send(actor: Int, delay: VirtualDuration, hops: Int, hopOffset: Int, fanOut: Int)
    /// Cancel the `handle`-th delivery scheduled so far (modulo their number).
    case cancel(handle: Int)
    /// Run at most `events` deliveries.
    case run(events: Int)

    var description: String {
        switch self {
        case .send(let actor, let delay, let hops, let hopOffset, let fanOut):
            "send to \(actor) after \(delay), \(hops) hops"
                + (hops == 0 ? "" : " of +\(hopOffset) ×\(fanOut)")
        case .cancel(let handle): "cancel #\(handle)"
        case .run(let events): "run \(events)"
        }
    }
}

/// What a program did: every scheduled token's due instant and channel, the cancelled ones,
/// every delivery in order, the queue's broken invariants, and the trace hash. Token ids are
/// handed out in the order the tokens are sent.
final class KernelLedger {
    var due: [Int: Instant] = [:]
    var channels: [Int: KernelChannel] = [:]
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

/// Delivers tokens, recording them, and passes each on while it has hops.
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
        let sender = context.currentActor
        let next = ActorID(index: (sender.index + UInt32(message.hopOffset)) % UInt32(actorCount))
        for _ in 0..<message.fanOut {
            let id = ledger.newID()
            var token = message
            token.id = id
            token.hops -= 1
            ledger.due[id] = context.now + message.hopDelay
            ledger.channels[id] = KernelChannel(sender: sender, receiver: next)
            let handle =
                next == sender
                ? context.setTimer(after: message.hopDelay, token)
                : context.send(token, to: next, after: message.hopDelay)
            ledger.handles.append((id, handle))
        }
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
            Gen.zip(
                Gen.zip(Gen<Int>.int(in: 0...3), kernelDelay, Gen<Int>.int(in: 0...3)),
                Gen.zip(Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 1...2))
            ).map { .send(actor: $0.0, delay: $0.1, hops: $0.2, hopOffset: $1.0, fanOut: $1.1) }
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
        case .send(let actor, let delay, let hops, let hopOffset, let fanOut):
            let id = ledger.newID()
            let receiver = ActorID(index: UInt32(actor))
            ledger.due[id] = simulation.scheduler.now + delay
            ledger.channels[id] = KernelChannel(sender: .outside, receiver: receiver)
            let token = Token(
                id: id, hops: hops, hopDelay: delay, hopOffset: hopOffset, fanOut: fanOut)
            ledger.handles.append(
                (id, simulation.scheduler.send(token, to: receiver, after: delay)))
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

/// The failure, if any, of per-channel FIFO on one run: on each (sender, receiver) channel,
/// tokens arrive in the order of their due instants and, within an instant, in the order they
/// were sent (their ids).
func channelOrderViolation(_ ledger: KernelLedger) -> String? {
    // Lookups only: violations are found in delivery order.
    var lastOnChannel: [KernelChannel: (id: Int, instant: Instant)] = [:]
    for delivery in ledger.delivered {
        guard let channel = ledger.channels[delivery.id] else {
            return "token \(delivery.id) has no channel"
        }
        if let last = lastOnChannel[channel],
            (delivery.instant, delivery.id) < (last.instant, last.id)
        {
            return "token \(last.id), sent later, overtook token \(delivery.id)"
                + " on \(channel) at \(delivery.instant)"
        }
        lastOnChannel[channel] = (delivery.id, delivery.instant)
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

    @Test(
        "deliveries on one (sender, receiver) channel arrive in the order they were sent",
        arguments: KernelOrdering.allCases)
    func channelFIFO(ordering: KernelOrdering) {
        propertyCheck(
            in: Self.self, kernelRuns(ordering: ordering), cases: 150, describe: { "\($0.program)" }
        ) { run in
            if let violation = channelOrderViolation(run.ledger) {
                throw PropertyFailure(violation)
            }
        }
    }

    @Test(
        "random and PCT still reorder deliveries of different channels",
        arguments: [KernelOrdering.random, .pct])
    func otherChannelsReorder(ordering: KernelOrdering) throws {
        // The same program under FIFO: any difference is a reordering the strategy chose.
        let result = Explorer.explore(
            kernelRuns(ordering: ordering), settings: ExplorationSettings(seed: 7),
            describe: { "\($0.program)" }
        ) { run in
            let fifo = runKernelProgram(run.program, ordering: .fifo)
            try check(run.ledger.delivered.map(\.id) == fifo.delivered.map(\.id), "reordered")
        }
        let failure = try #require(result.failure, "the strategy never reordered anything")
        // Up to the first difference both runs made the same sends, so token ids agree; the
        // two tokens that went first there travel on different channels.
        let order = failure.value.ledger.delivered.map(\.id)
        let fifo = runKernelProgram(failure.value.program, ordering: .fifo).delivered.map(\.id)
        let first = try #require((0..<min(order.count, fifo.count)).first { order[$0] != fifo[$0] })
        let channels = failure.value.ledger.channels
        #expect(
            channels[order[first]] != channels[fifo[first]],
            "\(failure.valueDescription): tokens \(order[first]) and \(fifo[first])")
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
            let program = sends.map {
                KernelStep.send(actor: $0.0, delay: $0.1, hops: 0, hopOffset: 1, fanOut: 1)
            }
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
