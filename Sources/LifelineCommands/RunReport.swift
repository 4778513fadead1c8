// How one run is printed by `lifeline run` (the CLI layer): its full timeline, its metrics and
// every built-in invariant's verdict, as text or as one JSON object.
import Invariants
import Scenarios
import Simulation

/// One run of one scenario, with each invariant's verdict, ready to print. The text and the
/// JSON are the same on every run and platform: the invariants in their fixed order, keys in a
/// fixed order, numbers through `PlainText`.
struct RunReport {
    /// One invariant's verdict: its violations in the run, in time order; none when it holds.
    struct Verdict {
        var invariant: String
        var violations: [Violation]
        var passed: Bool { violations.isEmpty }
    }

    /// The scenario file as it was named.
    let path: String
    let scenario: Scenario
    let record: RunRecord
    /// One per invariant checked, in the order checked.
    let verdicts: [Verdict]

    /// The report of `record`, judged by `invariants` (every built-in one unless narrowed).
    init(
        path: String, scenario: Scenario, record: RunRecord,
        invariants: [Invariant] = Invariant.builtIn
    ) {
        self.path = path
        self.scenario = scenario
        self.record = record
        verdicts = Self.verdicts(of: record, invariants: invariants)
    }

    /// Each of `invariants` checked on `record`, in the order given.
    static func verdicts(of record: RunRecord, invariants: [Invariant] = Invariant.builtIn)
        -> [Verdict]
    {
        invariants.map { Verdict(invariant: $0.name, violations: $0.check(record)) }
    }

    /// True when some invariant failed (the exit code is then 1).
    var failed: Bool { verdicts.contains { !$0.passed } }

    /// What a violation says under its invariant's name: when, and why in plain words.
    static func violationText(_ violation: Violation) -> String {
        "\(TimeText.clock(violation.instant)) \(violation.explanation)"
    }

    // MARK: - Text

    /// What a picture of the run says under its title: the engine and the policy.
    var pictureDetails: [String] {
        let policy = ([scenario.policy.preset] + scenario.policy.overrides.map(\.description))
            .joined(separator: " ")
        return ["engine \(scenario.engine.name.name)", "policy \(policy)"]
    }

    /// The header (scenario, engine, how the run ended, the trace file if one was written, and
    /// `written`: a line for each other file written), the full timeline with the violations
    /// marked, the metrics and the verdicts.
    func text(trace: (path: String, hash: TraceHash)?, written: [String] = []) -> String {
        let outcome = record.outcome
        var lines = [
            "scenario  \(path)",
            "engine    \(scenario.engine.name.name)",
            "run       \(outcome.deliveredCount) deliveries, stopped at "
                + "\(TimeText.clock(outcome.now)) (\(outcome.exitReason.rawValue))",
        ]
        if let trace {
            lines.append(
                "trace     \(trace.path) (\(trace.hash.lineCount) lines, hash "
                    + "\(trace.hash.hexadecimal))")
        }
        lines += written
        let violations = verdicts.flatMap(\.violations)
        lines += ["", "timeline"]
        lines += Timeline(record, violations: violations, mode: .full).lines.map(\.description)
        lines += ["", "metrics"]
        lines += RunMetrics(record).description.split(separator: "\n").map { "  " + $0 }
        lines += ["", "invariants"]
        for verdict in verdicts {
            guard !verdict.passed else {
                lines.append("  ok    \(verdict.invariant)")
                continue
            }
            let count = verdict.violations.count
            lines.append(
                "  FAIL  \(verdict.invariant): \(count) violation\(count == 1 ? "" : "s")")
            lines += verdict.violations.map { "          " + Self.violationText($0) }
        }
        for advice in Invariant.advice {
            guard case .advice(let rule, let source) = advice.severity else { continue }
            for violation in advice.check(record) {
                lines.append(
                    "  warn  \(advice.name) (advice, \(rule), \(source)): "
                        + Self.violationText(violation))
            }
        }
        let failing = verdicts.filter { !$0.passed }.map(\.invariant)
        lines.append("")
        lines.append(
            failing.isEmpty
                ? "every invariant holds"
                : "FAIL: \(failing.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }

    // MARK: - JSON

    /// `{scenario, engine, metrics: {…}, invariants: [{name, passed, violations}]}`, one
    /// invariant per line; durations in seconds with three decimals.
    var json: String {
        let metrics = RunMetrics(record)
        let metricFields: [(key: String, value: String)] = [
            ("fixesProduced", "\(metrics.fixesProduced)"),
            ("fixesDelivered", "\(metrics.fixesDelivered)"),
            ("fixesStored", "\(metrics.fixesStored)"),
            ("fixesUploaded", "\(metrics.fixesUploaded)"),
            ("longestGapSeconds", jsonNumber(metrics.longestGap.seconds)),
            ("meanGapSeconds", jsonNumber(metrics.meanGap.seconds)),
            (
                "relaunchLatenciesSeconds",
                jsonArray(metrics.relaunchLatencies.map { jsonNumber($0.seconds) })
            ),
            ("gnssOnSeconds", jsonNumber(metrics.gnssOnTime.seconds)),
        ]
        let invariants = verdicts.map { verdict in
            jsonObject([
                ("name", PlainText.jsonQuoted(verdict.invariant)),
                ("passed", verdict.passed ? "true" : "false"),
                (
                    "violations",
                    jsonArray(
                        verdict.violations.map { PlainText.jsonQuoted(Self.violationText($0)) })
                ),
            ])
        }
        return [
            "{",
            "  \"scenario\": \(PlainText.jsonQuoted(path)),",
            "  \"engine\": \(PlainText.jsonQuoted(scenario.engine.name.name)),",
            "  \"metrics\": \(jsonObject(metricFields)),",
            "  \"invariants\": [",
            invariants.map { "    " + $0 }.joined(separator: ",\n"),
            "  ]",
            "}",
        ].joined(separator: "\n")
    }
}
