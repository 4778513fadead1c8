// The kernel benchmark: the two models of the DES peer benchmark (integer-time variant; the
// same models run on SimPy and on a bare binary-heap loop, `.ci/bench-kernel`), written in the kernel's idiom: one actor per process, timers as messages an actor
// sends itself, cancellation through handles.
import Simulation

/// One run of the DES peer benchmark on the Lifeline kernel.
///
/// Model 1 (hold loop): each of P actors, when its timer arrives, counts one event and sets a
/// new timer `500 ms + (u53 · 10^9) >> 53 ns` later. Model 2 (cancellable timers): each worker
/// arms a timer T of length d; on a coin (`u53 < 2^52`) it also arms a canceller C at
/// `(d · u53) >> 53`; whichever comes first ends the iteration ("fired" or "cancelled") and
/// cancels the other, and the next iteration starts at once. Every delivery is one model event
/// in both models, so the run is bounded by `eventCountMax: N`.
///
/// The peer models draw from one SplitMix64 stream shared by all processes in delivery order;
/// the order of draws is part of their definition. That stream (`SharedDraws`) is the one piece
/// of state these actors share, because the model demands it; no world actor shares anything.
/// Fingerprints to match (P = 1000, seed 42): see `expectedFingerprints`.
package struct KernelBenchmark {
    /// Which peer model.
    package enum Model: Int, Sendable {
        case hold = 1
        case cancellable = 2
    }

    package var model: Model
    package var processCount: Int
    package var eventCount: Int
    package var seed: UInt64
    /// Also compute the peer models' trace hash.
    package var computesTraceHash: Bool
    /// Also compute the kernel's own trace hash (FNV-1a over the JSON lines of every delivery).
    package var computesKernelTraceHash: Bool
    /// The order of simultaneous deliveries (ties are rare in these models unless
    /// `resolutionNanoseconds` coarsens time).
    package var ordering: OrderingSpecification
    /// Every delay is rounded down to a multiple of this (1 = the peer model exactly). A
    /// coarser resolution makes simultaneous deliveries common, for exercising the orderings.
    package var resolutionNanoseconds: Int64

    package init(
        model: Model, processCount: Int = 1000, eventCount: Int = 1_000_000,
        seed: UInt64 = 42, computesTraceHash: Bool = false,
        computesKernelTraceHash: Bool = false, ordering: OrderingSpecification = .fifo,
        resolutionNanoseconds: Int64 = 1
    ) {
        precondition(processCount >= 1 && eventCount >= 1, "at least one process and one event")
        precondition(resolutionNanoseconds >= 1, "the resolution is at least one nanosecond")
        self.resolutionNanoseconds = resolutionNanoseconds
        self.model = model
        self.processCount = processCount
        self.eventCount = eventCount
        self.seed = seed
        self.computesTraceHash = computesTraceHash
        self.computesKernelTraceHash = computesKernelTraceHash
        self.ordering = ordering
    }

    /// What a run printed: the fingerprint fields and the time taken.
    package struct Result: Sendable, Equatable {
        package var events: Int
        package var simulatedNanoseconds: Int64
        package var fired: Int?
        package var cancelled: Int?
        package var traceHash: UInt64?
        package var kernelTraceHash: UInt64?
        package var scheduled: Int
        package var wallSeconds: Double
    }

    /// Builds the model, runs it to the N-th model event, and reports.
    package func run() -> Result {
        let started = WallClock.seconds()
        let draws = SharedDraws(seed: seed, resolutionNanoseconds: resolutionNanoseconds)
        let kernelHash = computesKernelTraceHash ? HashingTrace<BenchmarkMessage>() : nil
        let hash =
            computesTraceHash || computesKernelTraceHash
            ? ModelTraceHash(model: model, forwardingTo: kernelHash) : nil
        var simulation = Simulation<BenchmarkMessage>(
            ordering: ordering.makeStrategy(), trace: hash)
        var workers: [CancellableWorker] = []
        for _ in 0..<processCount {
            switch model {
            case .hold:
                let id = simulation.add(HoldProcess(draws: draws))
                simulation.scheduler.send(
                    .timer, to: id, after: draws.delay(holdDelay(draws.next53())))
            case .cancellable:
                let worker = CancellableWorker(draws: draws)
                workers.append(worker)
                let id = simulation.add(worker)
                worker.startIteration(for: id, scheduler: &simulation.scheduler)
            }
        }
        let outcome = simulation.run(eventCountMax: eventCount)
        let wall = WallClock.seconds() - started
        return Result(
            events: outcome.deliveredCount,
            simulatedNanoseconds: outcome.now.nanosecondsSinceStart,
            fired: model == .cancellable ? workers.reduce(0) { $0 + $1.firedCount } : nil,
            cancelled: model == .cancellable ? workers.reduce(0) { $0 + $1.cancelledCount } : nil,
            traceHash: computesTraceHash ? hash?.value : nil,
            kernelTraceHash: kernelHash?.hash.value,
            scheduled: simulation.scheduler.scheduledCount,
            wallSeconds: wall
        )
    }

    /// The fingerprints `simpy_bench.py --time ns --trace-hash` prints (P = 1000, seed 42),
    /// as the DES peer benchmark publishes them: (model, N) → (sim_time ns, fired, cancelled,
    /// hash).
    package static let expectedFingerprints:
        [(
            model: Model, events: Int, simulatedNanoseconds: Int64,
            fired: Int?, cancelled: Int?, traceHash: UInt64
        )] = [
            (.hold, 100_000, 100_353_246_500, nil, nil, 0x658a_a022_d656_66ac),
            (.hold, 1_000_000, 1_000_648_038_144, nil, nil, 0xfa22_1fc5_72f1_6252),
            (.cancellable, 100_000, 75_135_125_281, 49_715, 50_285, 0x6265_036b_e41c_31cf),
            (.cancellable, 1_000_000, 750_380_584_824, 499_754, 500_246, 0x8413_242e_4bdf_3658),
        ]
}

/// The messages of the benchmark models: a worker's timer, and (model 2) its canceller.
package enum BenchmarkMessage: CustomStringConvertible, Sendable {
    case timer
    case canceller

    package var description: String { self == .timer ? "timer" : "canceller" }
}

/// Model 1's delay for one draw: 0.5 s plus `(u53 · 10^9) >> 53` ns, exactly.
@inline(__always)
func holdDelay(_ u53: UInt64) -> Int64 {
    500_000_000 + Int64(scaledDraw(u53, by: 1_000_000_000))
}

/// `(value · u53) >> 53` in 128-bit arithmetic, as the peer model specifies.
@inline(__always)
func scaledDraw(_ u53: UInt64, by value: UInt64) -> UInt64 {
    let product = u53.multipliedFullWidth(by: value)
    return (product.high << 11) | (product.low >> 53)
}

/// The one SplitMix64 stream the peer models share, yielding the top 53 bits of each draw,
/// and the rounding of delays to the benchmark's resolution.
final class SharedDraws {
    private var random: SplitMix64
    private let resolutionNanoseconds: Int64
    init(seed: UInt64, resolutionNanoseconds: Int64) {
        random = SplitMix64(seed: seed)
        self.resolutionNanoseconds = resolutionNanoseconds
    }
    @inline(__always) func next53() -> UInt64 { random.next() >> 11 }
    @inline(__always) func delay(_ nanoseconds: Int64) -> VirtualDuration {
        .nanoseconds(
            resolutionNanoseconds == 1
                ? nanoseconds : nanoseconds / resolutionNanoseconds * resolutionNanoseconds)
    }
}

/// Model 1's process: on each timer, a new timer.
final class HoldProcess: SimulationActor {
    private let draws: SharedDraws
    init(draws: SharedDraws) { self.draws = draws }

    func receive(_ message: BenchmarkMessage, context: inout Scheduler<BenchmarkMessage>) {
        context.setTimer(after: draws.delay(holdDelay(draws.next53())), .timer)
    }
}

/// Model 2's worker: a timer that fires, or a canceller that cancels it first.
final class CancellableWorker: SimulationActor {
    private let draws: SharedDraws
    private var timer: EventHandle?
    private var canceller: EventHandle?
    private(set) var firedCount = 0
    private(set) var cancelledCount = 0
    static let coinThreshold: UInt64 = 1 << 52

    init(draws: SharedDraws) { self.draws = draws }

    func receive(_ message: BenchmarkMessage, context: inout Scheduler<BenchmarkMessage>) {
        switch message {
        case .timer:
            firedCount += 1
            if let canceller { context.cancel(canceller) }
        case .canceller:
            cancelledCount += 1
            context.cancel(timer!)
        }
        startIteration(for: context.currentActor, scheduler: &context)
    }

    /// Draws d, the coin and perhaps the cancel point, and arms T (and C).
    func startIteration(for id: ActorID, scheduler: inout Scheduler<BenchmarkMessage>) {
        let length = holdDelay(draws.next53())
        timer = scheduler.send(.timer, to: id, after: draws.delay(length))
        if draws.next53() < Self.coinThreshold {
            let offset = Int64(scaledDraw(draws.next53(), by: UInt64(length)))
            canceller = scheduler.send(.canceller, to: id, after: draws.delay(offset))
        } else {
            canceller = nil
        }
    }
}

/// The peer models' trace hash: `h = h · 1000003 + v` per model event, v = pid (model 1) or
/// 2 · pid + kind (model 2; kind 0 fired, 1 cancelled); it passes each delivery on to `next`.
final class ModelTraceHash: TraceSink {
    private let model: KernelBenchmark.Model
    private let next: HashingTrace<BenchmarkMessage>?
    private(set) var value: UInt64 = 0
    init(model: KernelBenchmark.Model, forwardingTo next: HashingTrace<BenchmarkMessage>?) {
        self.model = model
        self.next = next
    }

    func record(instant: Instant, actor: ActorID, message: BenchmarkMessage) {
        next?.record(instant: instant, actor: actor, message: message)
        let pid = UInt64(actor.index)
        let folded = model == .hold ? pid : 2 * pid + (message == .canceller ? 1 : 0)
        value = value &* 1_000_003 &+ folded
    }
}
