// A differential run (layer 5): the same runs under two policies, and for each run whose
// outcome changes, where the two traces part and the figures on both sides.
import Fuzzing
import Invariants
import Simulation
import World

/// Runs each of `runs` under `policies.before` and `policies.after` (each replacing the run's
/// own policy whole) and keeps those whose outcome changes: the invariants broken, the fixes
/// lost (`RunFigures.fixesLost`) or the fixes stored.
///
/// Runs are spread over `jobCount` worker threads (`CaseWorkers`); the changes come back in
/// the order of `runs` for any `jobCount`.
package struct PolicyDiff: Sendable {
    /// One run to compare: what it is called, who runs it, and the run.
    package struct Case: Sendable {
        package var name: String
        package var subject: SweepSubject
        package var run: SweepRun

        package init(name: String, subject: SweepSubject, run: SweepRun) {
            self.name = name
            self.subject = subject
            self.run = run
        }
    }

    /// The first delivery at which two traces differ: its index, its instant on each side,
    /// and each side's actor and message text (nil on the side whose trace ended first).
    package struct Parting: Sendable, Equatable {
        package var index: Int
        package var before: (instant: Instant, actor: UInt32, text: String)?
        package var after: (instant: Instant, actor: UInt32, text: String)?

        package static func == (left: Parting, right: Parting) -> Bool {
            left.index == right.index && left.before?.instant == right.before?.instant
                && left.before?.text == right.before?.text
                && left.after?.instant == right.after?.instant
                && left.after?.text == right.after?.text
        }
    }

    /// A run whose outcome changed.
    package struct Change: Sendable, Equatable {
        package var name: String
        package var subject: SweepSubject
        package var before: RunFigures
        package var after: RunFigures
        /// Nil only if the traces are the same, which a changed outcome rules out.
        package var parting: Parting?
    }

    package var policies: (before: IOSPolicy, after: IOSPolicy)
    package var cases: [Case]
    package var invariants: [Invariant] = Invariant.builtIn
    /// Worker threads, at least 1.
    package var jobCount = 1

    package init(before: IOSPolicy, after: IOSPolicy, cases: [Case]) {
        policies = (before, after)
        self.cases = cases
    }

    /// Why a run could not be made (its route): the first, by position.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// The runs whose outcome changes, in the order of `cases`.
    /// - Throws: `Problem` for the first case whose route cannot be made.
    package func run(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> [Change] {
        var changes: [Change] = []
        let diff = self
        let workers = CaseWorkers<Outcome>(positionCount: cases.count, jobCount: jobCount)
        try workers.run(
            shouldStop: { false },
            makeWork: {
                return { position in
                    let outcome = diff.outcome(diff.cases[position])
                    if case .problem = outcome { return (outcome, true) }
                    return (outcome, false)
                }
            },
            commit: { position, outcome in
                switch outcome {
                case .problem(let message): throw Problem(description: message)
                case .same: break
                case .changed(let change): changes.append(change)
                }
                progress?(position + 1, cases.count)
                return true
            })
        return changes
    }

    enum Outcome: Sendable {
        case same
        case changed(Change)
        case problem(String)
    }

    func outcome(_ item: Case) -> Outcome {
        let records: (RunRecord, RunRecord)
        do {
            records = (
                try item.run.record(policy: policies.before, keepsTrace: true),
                try item.run.record(policy: policies.after, keepsTrace: true)
            )
        } catch {
            return .problem("\(item.name): the route cannot be made: \(error)")
        }
        let before = RunFigures(records.0, invariants: invariants)
        let after = RunFigures(records.1, invariants: invariants)
        guard
            before.failedInvariants != after.failedInvariants
                || before.fixesLost != after.fixesLost || before.fixesStored != after.fixesStored
        else { return .same }
        return .changed(
            Change(
                name: item.name, subject: item.subject, before: before, after: after,
                parting: Self.parting(
                    records.0.trace ?? MemoryTrace(), records.1.trace ?? MemoryTrace())))
    }

    /// The first delivery where `before` and `after` differ in instant, actor or message text.
    static func parting(_ before: MemoryTrace<WorldMessage>, _ after: MemoryTrace<WorldMessage>)
        -> Parting?
    {
        let (left, right) = (before.records, after.records)
        func side(_ records: [MemoryTrace<WorldMessage>.Record], _ index: Int)
            -> (instant: Instant, actor: UInt32, text: String)?
        {
            guard index < records.count else { return nil }
            let record = records[index]
            return (record.instant, record.actor.index, record.message.description)
        }
        for index in 0..<max(left.count, right.count) {
            let (one, other) = (side(left, index), side(right, index))
            if one?.instant != other?.instant || one?.actor != other?.actor
                || one?.text != other?.text
            {
                return Parting(index: index, before: one, after: other)
            }
        }
        return nil
    }
}
