// `lifeline bench shrink`: the shrinking challenges over their committed seeds, printed as the
// table of CHALLENGES.md §5 (or JSON).
import Benchmarks
import Dispatch
import Exploration
import Foundation
import ShrinkingChallenges
import Simulation

enum ShrinkBenchCommand {
    static let usage = """
        usage: lifeline bench shrink [--challenge NAME | --set published|structural|novel]
                                     [--seeds N] [--json] [--min-tier-a PERCENT]
                                     [--max-over-median RATIO] [--corpus DIR] [--passes] [--runs]

        Runs each shrinking challenge of the shrinking benchmark over its committed
        seeds (1337 onward; --seeds N takes the first N, default 100) and prints the table of §5:
        find rate, tier A and A+B shares, distinct results, evaluations while shrinking, time.
        --set published runs the seven challenges of CHALLENGES.md only, --set structural our
        three structural ones only (difference, maxlength, heap), --set novel our twelve shapes the
        passes were not written for; without --set or --challenge, every set, one table each.
        --json prints an array of objects with the keys challenge, runs, found, tierA, distinct,
        meanEvaluations, medianEvaluations, maxEvaluations, maxOverMedian and passes (each shrink
        pass's accepted candidates and evaluations, summed over the runs). --passes prints those
        pass counters as a second table. --runs prints one line per run (seed, evaluations, tier,
        first and final counterexample), worst first. --min-tier-a fails (exit 1) when a challenge
        reaches tier A in fewer runs than PERCENT; --max-over-median fails (exit 1) when one run of
        a challenge spent more than RATIO times its challenge's median evaluations (Properties/
        checks 20). Each run stops shrinking after \(ShrinkingChallenge.shrinkEvaluationMax) evaluations and reports what it has.
        --corpus saves each distinct final counterexample to DIR (one folder per challenge, the
        corpus format). Challenges: \(ShrinkingChallenge.all.map(\.name).joined(separator: ", ")).
        """

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let name = try reader.text("--challenge")
        let set = try reader.text("--set")
        let seedCount = try reader.integer(
            "--seeds", in: 1...ShrinkingChallenge.benchmarkSeeds.count, default: 100)
        let json = try reader.flag("--json")
        let tierAPercentMin = try reader.integer("--min-tier-a", in: 0...100, default: 0)
        // 0: no check.
        let overMedianMax = try reader.integer("--max-over-median", in: 0...1_000_000, default: 0)
        let corpusRoot = try reader.text("--corpus")
        let passes = try reader.flag("--passes")
        let runs = try reader.flag("--runs")
        try reader.finish()
        var groups = ShrinkingChallenge.sets
        if let set {
            guard let chosen = groups.first(where: { $0.name == set }) else {
                let names = groups.map(\.name).joined(separator: " or ")
                throw UsageError("--set takes \(names), not '\(set)'")
            }
            groups = [chosen]
        }
        if let name {
            guard set == nil else { throw UsageError("--challenge and --set exclude each other") }
            guard let challenge = ShrinkingChallenge.named(name) else {
                throw UsageError(
                    "no challenge '\(name)'; there are \(ShrinkingChallenge.all.map(\.name).joined(separator: ", "))"
                )
            }
            groups = [(name, [challenge])]
        }
        let challenges = groups.flatMap(\.challenges)
        let seeds = Array(ShrinkingChallenge.benchmarkSeeds.prefix(seedCount))
        let summaries = challenges.map { summarize($0, seeds: seeds) }
        if json {
            output.standard(jsonReport(summaries))
        } else {
            var remaining = summaries[...]
            let tables = groups.map { group in
                defer { remaining = remaining.dropFirst(group.challenges.count) }
                let heading = groups.count > 1 ? "Set \(group.name):\n" : ""
                return heading + table(Array(remaining.prefix(group.challenges.count)))
            }
            output.standard(tables.joined(separator: "\n\n"))
        }
        if passes && !json { output.standard(passTable(summaries)) }
        if runs && !json { output.standard(runLines(summaries)) }
        if let corpusRoot {
            for (challenge, summary) in zip(challenges, summaries) {
                for run in summary.runs {
                    guard let choices = run.choices, let final = run.final else { continue }
                    try challenge.corpus(root: corpusRoot).save(choices: choices, value: final)
                }
            }
        }
        let below = summaries.filter { 100 * $0.tierA < tierAPercentMin * $0.runs.count }
        for summary in below {
            output.problem(
                "\(summary.challenge) reached tier A in \(summary.tierA) of "
                    + "\(PlainText.counted(summary.runs.count, "run")), "
                    + "below --min-tier-a \(tierAPercentMin)")
        }
        let costly = summaries.filter {
            overMedianMax > 0 && $0.maxOverMedian > Double(overMedianMax)
        }
        for summary in costly {
            output.problem(
                "a \(summary.challenge) run spent \(summary.maxEvaluations) evaluations, "
                    + "over --max-over-median \(overMedianMax) times its median "
                    + PlainText.fixed(summary.medianEvaluations, digits: 1))
        }
        return below.isEmpty && costly.isEmpty ? 0 : 1
    }

    /// Runs every seed of one challenge, in parallel; results are kept in seed order.
    static func summarize(_ challenge: ShrinkingChallenge, seeds: [UInt64]) -> ChallengeSummary {
        let results = ResultSlots<(ChallengeRun, Double)>(count: seeds.count)
        DispatchQueue.concurrentPerform(iterations: seeds.count) { index in
            let started = WallClock.seconds()
            let run = challenge.run(seed: seeds[index])
            results.set(index, (run, WallClock.seconds() - started))
        }
        let values = results.values
        return ChallengeSummary(
            challenge: challenge.name, runs: values.map(\.0), seconds: values.map(\.1))
    }

    static func table(_ summaries: [ChallengeSummary]) -> String {
        var lines = [
            "| Challenge | Engine version | N | Find rate | Tier A % | Tier A+B % | Distinct CEs | Evals median / mean (95 % CI), max | Run time median | Top 3 CEs with shares |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for summary in summaries {
            let count = summary.runs.count
            let top = summary.topCounterexamples(3).map {
                "`\($0.text)` \(percent($0.runs, of: count))"
            }
            let evaluations =
                "\(PlainText.fixed(summary.medianEvaluations, digits: 1)) / \(PlainText.fixed(summary.meanEvaluations, digits: 1)) "
                + "(± \(PlainText.fixed(summary.meanEvaluationsHalfWidth95, digits: 1))), max \(summary.maxEvaluations)"
            lines.append(
                "| \(summary.challenge) | lifeline-exploration 1 | \(count) | \(percent(summary.found, of: count)) "
                    + "| \(percent(summary.tierA, of: count)) | \(percent(summary.tierAOrB, of: count)) | \(summary.distinct) "
                    + "| \(evaluations) | \(PlainText.fixed(summary.medianSeconds * 1000, digits: 1)) ms | \(top.joined(separator: "; ")) |"
            )
        }
        let exhausted = summaries.filter { $0.budgetExhausted > 0 }
            .map {
                "\($0.challenge): \(PlainText.counted($0.budgetExhausted, "run")) hit the shrink budget"
            }
        return (lines + exhausted).joined(separator: "\n")
    }

    static func jsonReport(_ summaries: [ChallengeSummary]) -> String {
        jsonObjects(
            summaries.map { summary in
                [
                    ("challenge", PlainText.jsonQuoted(summary.challenge)),
                    ("runs", "\(summary.runs.count)"),
                    ("found", "\(summary.found)"), ("tierA", "\(summary.tierA)"),
                    ("tierAB", "\(summary.tierAOrB)"),
                    ("distinct", "\(summary.distinct)"),
                    ("meanEvaluations", PlainText.fixed(summary.meanEvaluations, digits: 2)),
                    ("medianEvaluations", PlainText.fixed(summary.medianEvaluations, digits: 1)),
                    ("maxEvaluations", "\(summary.maxEvaluations)"),
                    ("maxOverMedian", PlainText.fixed(summary.maxOverMedian, digits: 2)),
                    ("shrinkBudgetExhausted", "\(summary.budgetExhausted)"),
                    ("passes", passesJSON(summary.passStatistics)),
                ]
            })
    }

    /// `{"deleteSpans": {"accepted": 3, "evaluations": 10}, …}`, in pass order.
    static func passesJSON(_ passes: [ShrinkPassStatistics]) -> String {
        "{"
            + passes.map {
                "\(PlainText.jsonQuoted($0.pass)): {\"accepted\": \($0.accepted), \"evaluations\": \($0.evaluations)}"
            }.joined(separator: ", ") + "}"
    }

    /// Each challenge's pass counters, summed over its runs: accepted / evaluations.
    static func passTable(_ summaries: [ChallengeSummary]) -> String {
        let names = summaries.first?.passStatistics.map(\.pass) ?? []
        var lines = [
            "| Challenge | " + names.joined(separator: " | ") + " |",
            "|---|" + names.map { _ in "---|" }.joined(),
        ]
        for summary in summaries {
            let cells = summary.passStatistics.map { "\($0.accepted) / \($0.evaluations)" }
            lines.append("| \(summary.challenge) | " + cells.joined(separator: " | ") + " |")
        }
        return (["", "Shrink passes, accepted / evaluations summed over the runs:"] + lines)
            .joined(separator: "\n")
    }

    /// One line per run, the runs of each challenge from most evaluations to fewest (then by
    /// seed).
    static func runLines(_ summaries: [ChallengeSummary]) -> String {
        var lines = ["", "Runs, most evaluations first:"]
        for summary in summaries {
            let ordered = summary.runs.sorted {
                ($1.evaluations, $0.seed) < ($0.evaluations, $1.seed)
            }
            for run in ordered {
                lines.append(
                    "\(summary.challenge) seed \(run.seed): \(run.evaluations) evaluations, "
                        + "tier \(run.tier?.rawValue ?? "–"), \(run.original ?? "not found") -> "
                        + "\(run.final ?? "–")\(run.shrinkBudgetExhausted ? " (budget reached)" : "")"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "–" : PlainText.fixed(100 * Double(part) / Double(whole), digits: 0) + " %"
    }
}

/// Slots filled by concurrent workers, each exactly once, read in index order afterwards.
final class ResultSlots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }
    var values: [Value] { lock.withLock { slots.map { $0! } } }
}
