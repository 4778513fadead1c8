// Work belongs to its process: a continuation of one simulated process, resumed in another, is
// dropped and reported, never run.
import Testing

@testable import VirtualConcurrency

/// Where a test keeps a continuation across processes, as an app's global would.
final class KeptContinuation: @unchecked Sendable {
    var continuation: CheckedContinuation<Void, Never>?
}

@Suite("Virtual concurrency: work belongs to its process")
struct ProcessOwnershipTests {
    /// A task of `process` that waits on a continuation kept in `kept`, then notes it ran on.
    static func startWaiting(
        in process: VirtualProcess, _ kept: KeptContinuation, _ journal: Journal
    ) {
        process.withCurrent(at: 0, clock: reading(0)) {
            Task {
                await withCheckedContinuation { kept.continuation = $0 }
                journal.note("ran on after the await")
            }
            process.runDueJobs()
        }
    }

    @Test("a continuation made in a process that ended, resumed by the next one, never runs")
    func resumedInAnotherProcess() {
        let journal = Journal()
        let kept = KeptContinuation()
        let first = VirtualProcess()
        Self.startWaiting(in: first, kept, journal)
        #expect(kept.continuation != nil)
        first.end()
        let second = VirtualProcess()
        let escapes = SimulationEscapes.collecting {
            second.withCurrent(at: 1_000, clock: reading(1_000)) {
                kept.continuation?.resume()
                second.runDueJobs()
            }
        }.escapes
        #expect(journal.lines.isEmpty)
        #expect(escapes.count == 1)
        #expect(escapes.first?.call.contains("another simulated process") == true)
        #expect(second.jobsDropped == 1)
    }

    @Test("resumed in its own process, the same continuation runs on (no false alarm)")
    func resumedInItsOwnProcess() {
        let journal = Journal()
        let kept = KeptContinuation()
        let process = VirtualProcess()
        Self.startWaiting(in: process, kept, journal)
        let escapes = SimulationEscapes.collecting {
            process.withCurrent(at: 1_000, clock: reading(1_000)) {
                kept.continuation?.resume()
                process.runDueJobs()
            }
        }.escapes
        #expect(journal.lines == ["ran on after the await"])
        #expect(escapes.isEmpty)
    }
}
