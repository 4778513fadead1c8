// A policy sweep (layer 5): every value of one or more policy parameters, each run on the same
// runs of every subject, side by side on worker threads, summed per value and subject.
import Fuzzing
import Invariants
import Simulation
import World

/// For each point of the parameters' grid (the cartesian product of their values, the first
/// parameter outermost), runs every subject's runs with the policy changed at those values,
/// and sums each subject's `RunFigures` at each point.
///
/// The runs are the same at every point (a scenario set, generated scenarios made once per
/// engine, or source A's background experiment); only the policy moves. A run's policy is its
/// own (the scenario's preset and overrides, `measured` for the experiment) with the swept
/// parameters overridden.
///
/// Runs are spread over `jobCount` worker threads (`CaseWorkers`) and summed on the calling
/// thread in position order, so the rows are the same for any `jobCount`.
package struct PolicySweep: Sendable {
    /// Why a run could not be made (its policy, its route): the first, by position.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// One point and one subject: the parameters' values, in `ranges` order, and the figures
    /// summed over the subject's runs.
    package struct Row: Sendable, Equatable {
        package var values: [Double]
        package var subject: SweepSubject
        package var figures: RunFigures
    }

    /// The swept parameters; at least one, each named once.
    package var ranges: [SweepRange]
    /// Who runs, with their runs, in the order of the rows.
    package var subjects: [(subject: SweepSubject, runs: [SweepRun])]
    package var invariants: [Invariant] = Invariant.builtIn
    /// Worker threads, at least 1.
    package var jobCount = 1

    package init(ranges: [SweepRange], subjects: [(subject: SweepSubject, runs: [SweepRun])]) {
        precondition(!ranges.isEmpty, "a sweep has a parameter")
        precondition(
            Set(ranges.map(\.parameter.key)).count == ranges.count, "each parameter swept once")
        self.ranges = ranges
        self.subjects = subjects
    }

    /// The most runs one sweep may make (points × runs per point): at about 1,000 runs a
    /// second on two cores, some two minutes. Each parameter is capped on its own
    /// (`SweepRange.valueCountMax`), but their product is what costs: two parameters of 1,000
    /// values each would start a million runs.
    package static let runCountMax = 100_000

    /// The runs the sweep makes: the product of the parameters' value counts and the runs of
    /// every subject, or nil when it overflows `Int`.
    package var runCount: Int? {
        var count = subjects.reduce(0) { $0 + $1.runs.count }
        for range in ranges {
            let (product, overflow) = count.multipliedReportingOverflow(by: range.values.count)
            if overflow { return nil }
            count = product
        }
        return count
    }

    /// `runCount` in words for a message: `1000 × 1000 values × 20 runs = 20000000 runs`.
    package var runCountText: String {
        let values = ranges.map { "\($0.values.count)" }.joined(separator: " × ")
        let runs = subjects.reduce(0) { $0 + $1.runs.count }
        let total = runCount.map { "\($0)" } ?? "more than \(Int.max)"
        return "\(values) values × \(runs) runs = \(total) runs"
    }

    /// Every point of the grid: one value per range, the first range outermost.
    package var points: [[Double]] {
        ranges.reduce([[]]) { points, range in
            points.flatMap { point in range.values.map { point + [$0] } }
        }
    }

    /// Runs the sweep; `progress` is told (on the calling thread) the runs done and the total.
    /// - Throws: `Problem` for the first run, by position, whose policy or route cannot be
    ///   made.
    package func run(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> [Row] {
        let points = self.points
        // Each point's jobs: (subject, run) in subject order.
        let jobs = subjects.enumerated().flatMap { index, subject in
            subject.runs.indices.map { (subject: index, run: $0) }
        }
        let total = points.count * jobs.count
        var rows = points.flatMap { point in
            subjects.map { Row(values: point, subject: $0.subject, figures: RunFigures()) }
        }
        guard total > 0 else { return rows }
        let sweep = self
        let workers = CaseWorkers<Outcome>(positionCount: total, jobCount: jobCount)
        try workers.run(
            shouldStop: { false },
            makeWork: {
                return { position in
                    let point = position / jobs.count
                    let job = jobs[position % jobs.count]
                    let outcome = sweep.outcome(
                        sweep.subjects[job.subject].runs[job.run], at: points[point])
                    if case .problem = outcome { return (outcome, true) }
                    return (outcome, false)
                }
            },
            commit: { position, outcome in
                switch outcome {
                case .problem(let message): throw Problem(description: message)
                case .figures(let figures):
                    let row =
                        (position / jobs.count) * subjects.count
                        + jobs[position % jobs.count].subject
                    rows[row].figures = rows[row].figures.adding(figures)
                    progress?(position + 1, total)
                    return true
                }
            })
        return rows
    }

    /// What one run gave on a worker.
    enum Outcome: Sendable {
        case figures(RunFigures)
        case problem(String)
    }

    /// Runs `run` with the parameters at `values`.
    func outcome(_ run: SweepRun, at values: [Double]) -> Outcome {
        let overrides = zip(ranges, values).map { $0.override($1) }
        let policy: IOSPolicy
        do {
            policy = try run.basePolicy().applying(overrides: overrides, path: "", line: 0)
        } catch let error as PolicyFileError {
            return .problem("the policy cannot be made: \(error.message)")
        } catch {
            return .problem("the policy cannot be made: \(error)")
        }
        do {
            return .figures(
                RunFigures(
                    try run.record(policy: policy, keepsNarration: false), invariants: invariants))
        } catch {
            return .problem("the route cannot be made: \(error)")
        }
    }
}
