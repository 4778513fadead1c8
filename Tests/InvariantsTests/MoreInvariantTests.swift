// The invariants' less travelled paths: causality over an edited record, startOnBoot false,
// and a team's own invariant plugged in beside the built-in ones.
import Engines
import Invariants
import Simulation
import Testing
import World

@Suite("Causality, startOnBoot and own invariants")
struct MoreInvariantTests {
    let matrix = MatrixRuns.matrix

    /// `record` with its log replaced.
    func edited(_ record: RunRecord, log: [AppLogEntry]) -> RunRecord {
        record.replacing(log: AppLog(log))
    }

    @Test("causality: an item handed to a suspended process, and a log running backwards")
    func causalityCatchesEditedLogs() {
        let record = MatrixRuns.record(.session, .backgrounded)
        #expect(Invariant.causality.check(record).isEmpty)
        var log = Array(record.log)
        let fixIndex = log.firstIndex { if case .location = $0.kind { true } else { false } }!
        log[fixIndex].processState = .suspended
        let handed = Invariant.causality.check(edited(record, log: log))
        #expect(handed.map(\.instant) == [log[fixIndex].instant])
        #expect(handed.first?.explanation.contains("while it was suspended") == true)

        log = Array(record.log)
        let last = log.count - 1
        log[last].instant = .start
        let backwards = Invariant.causality.check(edited(record, log: log))
        #expect(backwards.map(\.instant) == [.start])
        #expect(backwards.first?.explanation.contains("before the entry at") == true)
    }

    /// The matrix's reboot while parked, and the user opening the app at the drive-off (or
    /// not: iOS relaunches the app in the background as the device drives off, R-B7).
    func rebootThenOpen(
        _ rules: LaunchRules, opens: Bool = true, _ make: @escaping () -> any TrackingEngine
    ) -> RunRecord {
        let plan = matrix.plan(.rebootParked)
        let open = ScheduledAction(.start + matrix.parkAfter + matrix.parkedFor, .open)
        return RunRecord.run(
            configuration: MatrixRuns.configuration(plan),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) }
                + (opens ? [open] : []),
            horizon: MatrixRuns.horizon(plan), launchRules: rules, engine: make)
    }

    @Test("configuration-honoured: startOnBoot false, kept and ignored (R-B12)")
    func startOnBootFalse() {
        let rules = LaunchRules(startOnBoot: false)
        let correct = rebootThenOpen(rules) { BuiltInEngine.session.make(startOnBoot: false) }
        #expect(Invariant.configurationHonoured.check(correct).isEmpty)
        // Judged from the disk and the user's actions: the user never opens the app after the
        // reboot, so every fix stored after it was stored against startOnBoot false.
        let resumesAnyway = rebootThenOpen(rules, opens: false) {
            BuiltInEngine.session.make(startOnBoot: true)  // relaunched by its region (R-B7)
        }
        let violations = Invariant.configurationHonoured.check(resumesAnyway)
        let reboot = matrix.parkAfter + matrix.killAfterParking
        #expect(violations.count == 1)
        #expect((violations.first?.instant ?? .start) > .start + reboot, "its first fix stored")
        #expect(
            violations.first?.explanation.contains(
                "the user never turned tracking on again: startOnBoot is false and the device "
                    + "rebooted at \(TimeText.clock(.start + reboot)) (R-B12)") == true,
            "\(violations.map(\.description))")
    }

    @Test("a team's own invariant plugs in beside the built-in ones")
    func ownInvariant() {
        let everyFixStored = Invariant(
            name: "every-delivered-fix-stored", summary: "Every delivered fix is stored."
        ) { record in
            let stored = record.storedFixes.map(\.fix.instant)
            return record.log.compactMap { entry in
                guard case .location(let update) = entry.kind, let fix = update.fix,
                    !stored.contains(fix.instant)
                else { return nil }
                return Violation(
                    invariant: "every-delivered-fix-stored", instant: entry.instant,
                    explanation: "fix at \(TimeText.clock(fix.instant)) was not stored")
            }
        }
        let record = MatrixRuns.record(.session, .backgrounded)
        let violations = (Invariant.builtIn + [everyFixStored]).flatMap { $0.check(record) }
        // The fix delivered at the horizon commits just after it: the one violation.
        #expect(violations.map(\.instant) == [record.horizon])
        #expect(violations.map(\.invariant) == ["every-delivered-fix-stored"])
    }
}

@Suite("The app's fix reader")
struct FixReaderTests {
    @Test("rows the team's reader cannot read are listed, and read as holding no fix")
    func unreadableRowsListed() {
        struct Unreadable: Error {}
        let plain = MatrixRuns.record(.session, .backgrounded)
        #expect(!plain.storedFixes.isEmpty)
        #expect(plain.unreadableRows.isEmpty, "FixRecorder's rows read with its own reader")
        let reader = FixReader { _ in throw Unreadable() }
        let record = plain.replacing(reader: reader)
        #expect(record.storedFixes.isEmpty, "no row yields a fix")
        let expected = plain.storedRows.count + plain.server.acceptedRows.count
        #expect(record.unreadableRows.count == expected)
        #expect(record.unreadableRows.first?.place == "store row 1")
    }

    @Test("a team's reader of FixRecorder's rows reads the stored fixes read in place")
    func teamReaderMatchesRowsReadInPlace() {
        let plain = MatrixRuns.record(.session, .memoryKill)
        let reader = FixReader { row in row.fix }
        let record = plain.replacing(reader: reader)
        func fields(_ stored: StoredFix) -> String {
            "\(stored.rowIndex.map(String.init) ?? "-") \(stored.fix) "
                + "\(stored.generation.map(String.init) ?? "-") "
                + "\(stored.durableAt.map { "\($0)" } ?? "-") \(stored.deletion == nil)"
        }
        #expect(plain.storedFixes.count > 100)
        #expect(record.storedFixes.map(fields) == plain.storedFixes.map(fields))
        #expect(plain.storedFixes.allSatisfy { $0.generation != nil && $0.durableAt != nil })
        #expect(Set(plain.storedFixes.compactMap(\.generation)).count > 1, "two processes stored")
    }
}
