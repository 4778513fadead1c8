// The allocator settings `LifelineCLI.main` applies take on glibc (docs/benchmarks.md measures
// what they save: the page faults of freeing and refaulting each run's memory).
import Testing

@testable import LifelineCLI

@Suite("Heap retention")
struct HeapRetentionTests {
    @Test("glibc's malloc takes the trim and mapping thresholds; elsewhere nothing is applied")
    func settingsTake() {
        #if canImport(Glibc)
            #expect(HeapRetention.apply())
        #else
            #expect(!HeapRetention.apply())
        #endif
    }
}
