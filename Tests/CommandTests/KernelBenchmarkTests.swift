// The kernel benchmark reproduces the peer models exactly: the fingerprints the DES peer
// benchmark publishes for N = 100,000 (`KernelBenchmark.expectedFingerprints`; the 1,000,000
// ones are checked by .ci/run).
import Benchmarks
import Testing

@Suite("Kernel benchmark fingerprints")
struct KernelBenchmarkTests {
    @Test("model 1 (hold) at N = 100,000 matches SimPy's integer-time fingerprint")
    func holdModel() {
        let result = KernelBenchmark(model: .hold, eventCount: 100_000, computesTraceHash: true)
            .run()
        #expect(result.events == 100_000)
        #expect(result.simulatedNanoseconds == 100_353_246_500)
        #expect(result.traceHash == 0x658a_a022_d656_66ac)
    }

    @Test("model 2 (cancellable timers) at N = 100,000 matches SimPy's integer-time fingerprint")
    func cancellableModel() {
        let result = KernelBenchmark(
            model: .cancellable, eventCount: 100_000, computesTraceHash: true
        ).run()
        #expect(result.events == 100_000)
        #expect(result.simulatedNanoseconds == 75_135_125_281)
        #expect(result.fired == 49_715)
        #expect(result.cancelled == 50_285)
        #expect(result.traceHash == 0x6265_036b_e41c_31cf)
    }

    @Test("the kernel trace hash is the same on a second run, and differs with another seed")
    func kernelTraceHashIsStable() {
        let first = KernelBenchmark(
            model: .cancellable, eventCount: 5_000, computesKernelTraceHash: true,
            ordering: .random(seed: 9)
        ).run()
        let again = KernelBenchmark(
            model: .cancellable, eventCount: 5_000, computesKernelTraceHash: true,
            ordering: .random(seed: 9)
        ).run()
        let other = KernelBenchmark(
            model: .cancellable, eventCount: 5_000, seed: 43,
            computesKernelTraceHash: true
        ).run()
        #expect(first.kernelTraceHash != nil)
        #expect(first.kernelTraceHash == again.kernelTraceHash)
        #expect(first.kernelTraceHash != other.kernelTraceHash)
    }

    @Test("every pending timer of the memory benchmark is delivered")
    func pendingTimers() {
        let result = PendingTimersBenchmark(timerCount: 10_000).run()
        #expect(result.pendingAtPeak == 10_000 && result.delivered == 10_000)
    }
}
