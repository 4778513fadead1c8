// Summaries of many seeded runs of one challenge, as CHALLENGES.md §5 reports them.

import Exploration

/// One challenge's results over its seeds.
package struct ChallengeSummary: Sendable {
    package var challenge: String
    package var runs: [ChallengeRun]
    /// Seconds each run took (generation and shrinking), in seed order.
    package var seconds: [Double]

    package init(challenge: String, runs: [ChallengeRun], seconds: [Double]) {
        self.challenge = challenge
        self.runs = runs
        self.seconds = seconds
    }

    package var found: Int { runs.filter(\.found).count }
    package var tierA: Int { runs.filter { $0.tier == .a }.count }
    package var tierAOrB: Int { runs.filter { $0.tier == .a || $0.tier == .b }.count }
    /// Distinct final counterexamples.
    package var distinct: Int { Set(runs.compactMap(\.final)).count }
    /// Runs whose shrinking hit its evaluation budget.
    package var budgetExhausted: Int { runs.filter(\.shrinkBudgetExhausted).count }

    private var evaluations: [Int] { runs.filter(\.found).map(\.evaluations) }

    package var meanEvaluations: Double {
        evaluations.isEmpty ? 0 : Double(evaluations.reduce(0, +)) / Double(evaluations.count)
    }
    package var medianEvaluations: Double { median(evaluations.map(Double.init)) }
    /// The most evaluations one run spent (0 when none found a failure).
    package var maxEvaluations: Int { evaluations.max() ?? 0 }
    /// The most evaluations one run spent over the median (0 when the median is 0).
    package var maxOverMedian: Double {
        medianEvaluations == 0 ? 0 : Double(maxEvaluations) / medianEvaluations
    }
    /// Each pass's accepted candidates and evaluations summed over the runs, in pass order.
    package var passStatistics: [ShrinkPassStatistics] {
        var totals: [ShrinkPassStatistics] = []
        for run in runs {
            for (offset, pass) in run.passStatistics.enumerated() {
                if offset == totals.count { totals.append(ShrinkPassStatistics(pass: pass.pass)) }
                precondition(totals[offset].pass == pass.pass, "every run has the same passes")
                totals[offset].accepted += pass.accepted
                totals[offset].evaluations += pass.evaluations
            }
        }
        return totals
    }
    /// Half-width of the 95% confidence interval of the mean (normal approximation).
    package var meanEvaluationsHalfWidth95: Double {
        let values = evaluations.map(Double.init)
        guard values.count > 1 else { return 0 }
        let mean = meanEvaluations
        let variance =
            values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        return 1.96 * (variance / Double(values.count)).squareRoot()
    }
    package var medianSeconds: Double { median(seconds) }

    /// The most common final counterexamples with their counts, most common first (ties by text).
    package func topCounterexamples(_ count: Int) -> [(text: String, runs: Int)] {
        var counts: [String: Int] = [:]
        for final in runs.compactMap(\.final) { counts[final, default: 0] += 1 }
        return counts.map { ($0.key, $0.value) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }.prefix(
            count
        ).map { $0 }
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
