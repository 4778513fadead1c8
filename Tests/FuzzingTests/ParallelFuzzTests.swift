// The fuzzer on several workers: the report (cases, distinct states, the failure and its
// corpus entry) is the same for any worker count, results are committed in case order up to
// the lowest stopping one, shards run their own slice, and a stop request ends a run with the
// cases run so far.
import EngineMutants
import Engines
import Foundation
import Testing

@testable import Fuzzing

@Suite("Parallel fuzzing")
struct ParallelFuzzTests {
    /// A mutant that fails within a few cases, with a small shrink budget and no explanation,
    /// so that each run is quick.
    static func mutantSettings(seed: UInt64, mutant: Mutant = .sessionFromBackground)
        -> FuzzSettings
    {
        var settings = FuzzSettings(engine: .mutant(mutant))
        settings.seed = seed
        settings.caseCount = 60
        // Enough shrinking to compare the shrunk stories, not to finish them.
        settings.shrinkEvaluationMax = 40
        settings.explainRunMax = 0
        return settings
    }

    @Test("the report is the same on 1 and 3 workers: the failure of the lowest case index")
    func sameReportForAnyJobCount() throws {
        // Two workers: GuidedFuzzTests and the command-line tests (.ci/run: across processes).
        for seed in [3, 4] as [UInt64] {
            var reports: [FuzzReport] = []
            for jobs in [1, 3] {
                var settings = Self.mutantSettings(seed: seed)
                settings.jobCount = jobs
                reports.append(try Fuzzer.fuzz(settings))
            }
            let first = reports[0]
            let failure = try #require(first.failure, "seed \(seed) finds the mutant")
            guard case .generated(let caseIndex) = failure.origin else {
                Issue.record("a generated failure, not \(failure.origin)")
                return
            }
            #expect(first.cases <= caseIndex + 1)
            for report in reports.dropFirst() {
                #expect(report.cases == first.cases, "seed \(seed)")
                #expect(report.distinctStates == first.distinctStates, "seed \(seed)")
                #expect(report.failure?.origin == failure.origin, "seed \(seed)")
                #expect(report.failure?.invariant == failure.invariant, "seed \(seed)")
                #expect(
                    report.failure?.scenario.description == failure.scenario.description,
                    "seed \(seed)")
            }
        }
    }

    @Test("a shard runs only its case indices, and finds the first failure among them")
    func shardFindsItsOwnFirstFailure() throws {
        // retry-without-idempotency under seed 2: each shard finds a failure within the 60
        // cases (cases 6 and 1), the second shard's first, each shrunk in a few runs (the
        // session-from-background mutant under seed 4, at cases 4 and 31, took twice as long).
        var whole = Self.mutantSettings(seed: 2, mutant: .retryWithoutIdempotency)
        whole.jobCount = 2
        let unsharded = try #require(try Fuzzer.fuzz(whole).failure)
        var found: [Int] = []
        for number in 1...2 {
            var settings = whole
            settings.shard = FuzzShard(number: number, count: 2)
            let failure = try #require(try Fuzzer.fuzz(settings).failure)
            guard case .generated(let caseIndex) = failure.origin else {
                Issue.record("a generated failure")
                return
            }
            #expect(settings.shard.contains(caseIndex))
            found.append(caseIndex)
        }
        // The unsharded run's failure is the earlier of the two shards' failures.
        #expect(unsharded.origin == .generated(caseIndex: found.min()!))
    }

    @Test("results are committed in position order, up to the lowest stopping position")
    func workersCommitInOrder() throws {
        for jobs in [1, 2, 4] {
            let workers = CaseWorkers<Int>(positionCount: 500, jobCount: jobs)
            var committed: [Int] = []
            let count = try workers.run(
                shouldStop: { false },
                makeWork: { { position in (position * position, [97, 300].contains(position)) } },
                commit: { position, square in
                    #expect(square == position * position)
                    committed.append(position)
                    return position != 97 && position != 300
                })
            #expect(committed == Array(0...97), "\(jobs) workers")
            #expect(count == 98)
        }
    }

    @Test("a stop requested after two cases ends the run with a prefix of cases, interrupted")
    func stopEndsTheRun() throws {
        var settings = FuzzSettings(engine: .builtIn(.session))
        settings.caseCount = 10_000
        settings.jobCount = 2
        let stop = FuzzStop()
        settings.stop = stop
        var seen: [Int] = []
        let report = try Fuzzer.fuzz(settings) { progress in
            seen.append(progress.cases)
            if progress.cases == 2 { stop.request() }
        }
        #expect(report.isInterrupted)
        #expect(report.failure == nil)
        #expect(report.cases >= 2 && report.cases < 10_000)
        #expect(seen == Array(1...report.cases))

        let stopped = FuzzStop()
        stopped.request()
        settings.stop = stopped
        let none = try Fuzzer.fuzz(settings)
        #expect(none.cases == 0 && none.isInterrupted)
    }
}
