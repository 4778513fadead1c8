// `uploaded-once` about deletions and duplicates: a fix row deleted and never accepted by the
// server is a loss named with its deletion and process; one the server accepted, before or
// after its deletion, is no violation of any invariant; a retry stored twice (a server that
// stores every request) is a duplicate. And the server's rows are read in any order.
import Engines
import Invariants
import Simulation
import Testing

@testable import World

@Suite("Deletions and duplicates (uploaded-once)")
struct DeletionInvariantTests {
    let matrix = MatrixRuns.matrix

    /// Runs `scenario` of the matrix with a `BrokenEngine` of `flaw`.
    func run(
        _ flaw: BrokenEngine.Flaw, _ scenario: LifecycleMatrix.Scenario,
        change: (inout WorldConfiguration) -> Void = { _ in }
    ) -> RunRecord {
        let plan = matrix.plan(scenario)
        var configuration = MatrixRuns.configuration(plan)
        change(&configuration)
        return RunRecord.run(
            configuration: configuration,
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: MatrixRuns.horizon(plan), launchRules: LaunchRules()
        ) { BrokenEngine(flaw) }
    }

    @Test(
        "an engine that deletes each row once the server accepted it breaks no invariant",
        arguments: LifecycleMatrix.Scenario.allCases)
    func deletingAfterAcceptanceHolds(_ scenario: LifecycleMatrix.Scenario) throws {
        let record = run(.deletesUploadedRows, scenario)
        let violations = Invariant.builtIn.flatMap { $0.check(record) }
        #expect(violations.isEmpty, "\(violations.map(\.description))")
        let deleted = record.storedFixes.filter { $0.deletion != nil }
        #expect(!deleted.isEmpty, "the engine deleted rows")
        #expect(deleted.allSatisfy { $0.rowIndex == nil })
        let onDisk = record.storedRows.filter { record.fix(in: $0) != nil }
        #expect(onDisk.count + deleted.count == record.storedFixes.count)
        // Each deleted fix was accepted once, at or before its deletion.
        let accepted = acceptances(record)
        for stored in deleted {
            let deletion = try #require(stored.deletion)
            let holding = (accepted[stored.fix.instant] ?? []).filter { $0.fix == stored.fix }
            #expect(Set(holding.map(\.batch)).count == 1)
            #expect(holding.allSatisfy { $0.accepted <= deletion.instant })
        }
    }

    @Test(
        "the lifecycle matrix counts rows deleted after acceptance as stored: the same gaps as the engine that keeps them",
        arguments: LifecycleMatrix.Scenario.allCases)
    func matrixCountsDeletedRows(_ scenario: LifecycleMatrix.Scenario) {
        func row(_ flaw: BrokenEngine.Flaw) -> LifecycleMatrix.Row {
            let engine = CustomEngine(name: "broken-\(flaw)", summary: "") { rules in
                BrokenEngine(flaw, rules: rules)
            }
            return matrix.run(.custom(engine), scenario)
        }
        let deleting = row(.deletesUploadedRows)
        let keeping = row(.none)
        #expect(deleting.gapSeconds == keeping.gapSeconds)
        #expect(deleting.fixesLost == keeping.fixesLost)
    }

    /// The deleted fix rows of `record` that the server never accepted.
    func deletedAndNeverAccepted(_ record: RunRecord) -> [StoredFix] {
        let accepted = acceptances(record)
        return record.storedFixes.filter { stored in
            stored.deletion != nil
                && !(accepted[stored.fix.instant] ?? []).contains { $0.fix == stored.fix }
        }
    }

    /// A fix the server accepted, the index of the batch that held it and the batch's instant.
    typealias Acceptance = (fix: Fix, batch: Int, accepted: Instant)

    /// Every fix the server accepted, with the index of its batch and the batch's instant,
    /// by the fix's instant: gathered in one pass (searching every batch for each stored fix
    /// cost seconds a run in a debug build).
    func acceptances(_ record: RunRecord) -> [Instant: [Acceptance]] {
        var accepted: [Instant: [Acceptance]] = [:]
        for (index, batch) in record.server.acceptedBatches.enumerated() {
            for fix in batch.rows.compactMap(\.fix) {
                accepted[fix.instant, default: []].append((fix, index, batch.instant))
            }
        }
        return accepted
    }

    @Test(
        "a row deleted when sent, whose request the force-quit cancelled, is a loss naming the fix, the deletion and its process"
    )
    func deletedAndNeverAcceptedIsCaught() throws {
        let record = run(.deletesBeforeAcceptance, .forceQuit)
        let violations = Invariant.uploadedOnce().check(record)
        // Rows whose deleting process ended: nothing was left to send them (a process still
        // alive near the horizon may still land its request, and is not judged).
        let ended = Set(record.processes.filter { $0.endedAt != nil }.map(\.generation))
        let lost = deletedAndNeverAccepted(record).filter { stored in
            stored.deletion.map { ended.contains($0.generation) } ?? false
        }
        #expect(!lost.isEmpty, "the force-quit cancelled a request whose row was deleted")
        let commits = Set(lost.compactMap { $0.deletion.map { "\($0.commit)" } })
        #expect(violations.count == commits.count, "one per deletion commit that lost a fix")
        let first = try #require(violations.first)
        let stored = try #require(lost.first)
        let deletion = try #require(stored.deletion)
        #expect(first.invariant == "uploaded-once")
        #expect(first.instant == deletion.instant)
        let storedAt: String = TimeText.clock(stored.durableAt ?? .start)
        let expected: String =
            "fix at \(TimeText.clock(stored.fix.instant)) (stored at \(storedAt)) was deleted "
            + "from the store by process \(deletion.generation) (\(deletion.commit), durable at "
            + "\(TimeText.clock(deletion.instant))) and never accepted by the server"
        #expect(first.explanation.hasPrefix(expected), "\(first.explanation)")
        // It is reported once, as a deletion: not also as never uploaded, nor by another rule.
        #expect(!violations.contains { $0.explanation.contains("never reached the server") })
        #expect(Invariant.noFixLostAfterRestore().check(record).isEmpty)
    }

    @Test("a row deleted and written again (a store has no update) lost nothing")
    func rewrittenRowsHold() {
        let route = Route(
            start: BuiltInEngine.hostHome, headingDegrees: 90,
            segments: [.init(.drive, .hours(1), speedMetersPerSecond: 13.9)])
        let record = RunRecord.run(
            configuration: WorldConfiguration(
                policy: .measured, authorization: .always, route: route),
            actions: [ScheduledAction(.start, .networkDown), ScheduledAction(.start, .open)],
            horizon: .start + .minutes(30), launchRules: LaunchRules()
        ) { BrokenEngine(.rewritesRows) }
        let deleted = record.storedFixes.filter { $0.deletion != nil }
        #expect(deleted.count > 100, "the engine rewrote its rows")
        #expect(record.server.acceptedBatches.isEmpty)
        #expect(Invariant.uploadedOnce().check(record).isEmpty)
    }

    @Test(
        "a row deleted when sent, whose request landed, is no loss: judged by what happened"
    )
    func deletedThenAcceptedHolds() {
        let record = run(.deletesBeforeAcceptance, .backgrounded)
        let deleted = record.storedFixes.filter { $0.deletion != nil }
        #expect(!deleted.isEmpty, "the engine deleted rows as it sent them")
        // Every request landed but those still in flight at the horizon, sent by the process
        // still running then.
        let horizon = record.horizon
        #expect(
            deletedAndNeverAccepted(record).allSatisfy { stored in
                stored.deletion.map { horizon - $0.instant < .minutes(10) } ?? false
            })
        #expect(deleted.count > deletedAndNeverAccepted(record).count)
        #expect(Invariant.uploadedOnce().check(record).isEmpty)
    }

    /// `flaw`'s engine backgrounded on a network that fails 40% of requests, uploading to a
    /// server that stores every request, at seeds 1 to 5: each run with the keys the server
    /// accepted, after checking that uploaded-once reports no duplicate in it.
    func retriedRuns(_ flaw: BrokenEngine.Flaw) -> [[UploadBatchKey]] {
        (UInt64(1)...5).map { seed in
            let record = run(flaw, .backgrounded) {
                $0.policy.networkFailurePercent = 40
                $0.seed = seed
                $0.serverDeduplication = .storesEveryRequest
            }
            // A retry the server stored twice no uploader that retries can avoid: not the
            // app's fault.
            let duplicates = Invariant.uploadedOnce().check(record).filter {
                $0.explanation.contains("a second time")
            }
            #expect(duplicates.isEmpty, "seed \(seed): \(duplicates.map(\.description))")
            return record.server.acceptedBatches.map(\.key)
        }
    }

    @Test(
        "a server that stores every request: a retry it stores twice is the server's design, no duplicate of the app's"
    )
    func nonDeduplicatingServerDuplicates() {
        // The server stored some retry twice (a key it accepted twice).
        let storedTwice = retriedRuns(.none).map { $0.count - Set($0).count }.reduce(0, +)
        #expect(storedTwice > 0, "some retry was stored twice by the server")
    }

    @Test(
        "a server that stores every request: a retry is judged against the batch it repeats, not the first batch that held the fix (R-S2)"
    )
    func retryOfBatchSharingAFix() {
        // The story: the tracker republishes its cached location, so several rows (and
        // batches) hold one fix; a batch loses its answer and is retried under its key.
        let retriedSharedFix = retriedRuns(.republishesCachedFix).map { keys in
            zip(keys.indices, keys).filter { index, key in
                keys[..<index].contains(key) && keys[..<index].first != key
            }.count
        }.reduce(0, +)
        #expect(retriedSharedFix > 0, "some batch other than the first was retried")
    }

}

@Suite("uploaded-once reads the server in any order")
struct UploadOrderTests {
    /// `plain` with its server replaced by one that accepted `batches`, each at its instant.
    static func record(_ plain: RunRecord, _ batches: [AcceptedBatch]) -> RunRecord {
        var server = UploadServer(deduplication: .storesEveryRequest)
        for batch in batches {
            _ = server.accept(
                UploadBatch(key: batch.key, rows: batch.rows), at: batch.instant)
        }
        return plain.replacing(server: server)
    }

    static func explanations(_ record: RunRecord) -> [String] {
        Invariant.uploadedOnce().check(record).map(\.explanation)
    }

    @Test("rows out of order hold; one left out is missing; a batch sent again is a duplicate")
    func reversedServer() throws {
        let plain = MatrixRuns.record(.session, .backgrounded)
        #expect(Self.explanations(plain).isEmpty)
        let batches = plain.server.acceptedBatches
        try #require(batches.count >= 3)
        // Newest batch first, each batch's rows newest first: no fix in stored order.
        var reversed = batches.reversed().map { batch in
            AcceptedBatch(key: batch.key, rows: batch.rows.reversed(), instant: batch.instant)
        }
        #expect(Self.explanations(Self.record(plain, reversed)).isEmpty)
        // In order but for the oldest batch, sent last: the rows agree from the second batch.
        let oldestLast = Array(batches.dropFirst()) + [batches[0]]
        #expect(Self.explanations(Self.record(plain, oldestLast)).isEmpty)

        var oneLeftOut = reversed
        let dropped = try #require(oneLeftOut[oneLeftOut.count - 1].rows.popLast()?.fix)
        let missing = Self.explanations(Self.record(plain, oneLeftOut))
        #expect(missing.count == 1)
        #expect(
            missing.first?.hasPrefix("fix at \(TimeText.clock(dropped.instant))") == true,
            "\(missing)")

        let again = reversed[reversed.count / 2]
        reversed.append(
            AcceptedBatch(
                key: UploadBatchKey(firstRowIndex: 999_999, rowCount: again.rows.count),
                rows: again.rows, instant: plain.horizon))
        let duplicates = Self.explanations(Self.record(plain, reversed))
        #expect(duplicates.count == again.rows.compactMap(\.fix).count, "\(duplicates)")
        #expect(duplicates.allSatisfy { $0.contains("accepted by the server a second time") })
    }
}
