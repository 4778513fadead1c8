// `lifeline sweep`: every value of one or more policy parameters, each run on the same runs of
// every engine (and source A's probes), as a table, a CSV and an SVG chart.
import Engines
import Foundation
import Fuzzing
import Research
import Scenarios
import Simulation
import World

enum SweepCommand {
    static let usage = """
        usage: lifeline sweep --param NAME=FROM...TO[:STEP] [--param …] [--engine NAME|all]
                              [--scenarios DIR | --generated N | --probes] [--seed S]
                              [--jobs J] [--csv FILE] [--svg FILE] [--replace]
                              [--metric NAME]

        For each value of the policy parameters (every combination when there are several),
        runs the same runs with the policy changed, and prints per value and engine: fixes
        lost (fixes iOS produced for the app that never reached its code), fixes stored, mean
        and longest gap between stored fixes, mean relaunch latency, time with GNSS on, and
        invariant failures (one per run and invariant broken), summed over the runs.
          --param      a numeric property of IOSPolicy (the keys of a policy file): durations
                       in seconds, the others in their unit; STEP defaults to 1
          --engine     an engine from `lifeline engines`, or all (default): every correct one
          --scenarios  run the .scenario files in DIR, each with the engine replaced and its
                       own policy (preset and overrides) changed by the parameters
          --generated  run the fuzzer's first N valid scenarios for each engine (default 20),
                       from --seed (default 1): the same ones for every value
          --probes     run source A's background experiment (When In Use, a 20 m/s drive, the
                       app left 2 s after opening, 20 s counted) for its four probes (plain,
                       background, live, live-session) and the engines, under `measured`
          --jobs       runs side by side (default: every core); the rows are the same for any J
          --csv        write the rows as CSV (a header with units, one row per value and engine)
          --svg        write an SVG line chart of --metric against the first parameter, one
                       line per engine
          --replace    let --csv and --svg overwrite existing files (without it, an existing
                       file is an error before any run)
          --metric     the chart's figure: \(SweepMetric.all.map(\.name).joined(separator: ", "))
                       (default fixes-lost)
        A bad parameter (unknown, a switch, an empty range, a step of 0 or less, a value
        outside its domain) is an error naming it, exit 2, as is a sweep of more than
        \(PolicySweep.runCountMax) runs in all (values of every parameter × runs). A sweep of
        \(SweepProgress.runCountMin) runs or more reports its progress on standard error.
        """

    static let command = Subcommand(
        name: "sweep", summary: "policy research: metrics per engine across parameter values",
        usage: usage, run: { try run(&$0, output: $1) })

    static let defaultGenerated = 20

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        var ranges: [SweepRange] = []
        for text in try reader.texts("--param") {
            let range: SweepRange
            do { range = try SweepRange(parsing: text) } catch let problem as SweepRange.Problem {
                throw InputError(problem.message)
            }
            guard !ranges.contains(where: { $0.parameter.key == range.parameter.key }) else {
                throw InputError("--param \(range.parameter.key): given twice")
            }
            ranges.append(range)
        }
        let engines = try FuzzCommand.engineChoice(&reader)
        let directory = try reader.text("--scenarios")
        let generatedText = try reader.text("--generated")
        let probes = try reader.flag("--probes")
        guard [directory != nil, generatedText != nil, probes].count(where: { $0 }) <= 1 else {
            throw UsageError("--scenarios, --generated and --probes exclude one another")
        }
        var generated = defaultGenerated
        if let generatedText {
            guard let count = Int(generatedText), (1...100_000).contains(count) else {
                throw UsageError(
                    "--generated takes a whole number from 1 to 100000, not '\(generatedText)'")
            }
            generated = count
        }
        let seed = try reader.seed("--seed", default: 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try reader.integer(
            "--jobs", in: 1...FuzzCommand.jobCountMax,
            default: min(cores, FuzzCommand.jobCountMax))
        let csvPath = try reader.text("--csv")
        let svgPath = try reader.text("--svg")
        let replace = try reader.flag("--replace")
        let metricName = try reader.text("--metric") ?? "fixes-lost"
        guard let metric = SweepMetric.all.first(where: { $0.name == metricName }) else {
            throw UsageError(
                "--metric takes one of \(SweepMetric.all.map(\.name).joined(separator: ", ")), not '\(metricName)'"
            )
        }
        try reader.finish()
        guard !ranges.isEmpty else { throw UsageError("sweep needs --param NAME=FROM...TO[:STEP]") }
        if replace && csvPath == nil && svgPath == nil {
            throw UsageError("--replace goes with --csv or --svg")
        }
        let csv = csvPath.map { OutputFile(path: $0, contents: "the sweep's CSV") }
        let svg = svgPath.map { OutputFile(path: $0, contents: "the sweep's SVG chart") }
        for file in [csv, svg].compactMap({ $0 }) { try file.check(replacing: replace) }

        let subjects: [(subject: SweepSubject, runs: [SweepRun])]
        if probes {
            subjects = (SweepSubject.probes + engines.map(SweepSubject.engine)).map {
                ($0, [SweepRun.backgroundExperiment($0)])
            }
        } else if let directory {
            let scenarios = try scenarioFiles(in: directory).map {
                try ScenarioFiles.scenario(atPath: $0, engines: reader.engines)
            }
            subjects = engines.map {
                (.engine($0), SweepRun.runs(of: .engine($0), on: scenarios))
            }
        } else {
            subjects = engines.map {
                (.engine($0), SweepRun.generated(for: $0, count: generated, seed: seed).map(\.run))
            }
        }
        var sweep = PolicySweep(ranges: ranges, subjects: subjects)
        sweep.jobCount = jobs
        guard let runCount = sweep.runCount, runCount <= PolicySweep.runCountMax else {
            throw InputError(
                "sweep: \(sweep.runCountText); at most \(PolicySweep.runCountMax) "
                    + "(PolicySweep.runCountMax): fewer values (a larger STEP) or fewer runs")
        }
        if runCount >= SweepProgress.runCountMin { output.error("sweep: \(sweep.runCountText)") }
        let progress = SweepProgress(output: output, command: "sweep")
        let rows: [PolicySweep.Row]
        do {
            rows = try sweep.run(progress: progress.update)
        } catch let problem as PolicySweep.Problem {
            throw InputError("sweep: \(problem.description)")
        }
        let report = SweepReport(ranges: ranges, rows: rows)
        try csv?.write(report.csv)
        try svg?.write(SweepChart(report: report, metric: metric).svg)
        output.standard(report.table)
        return 0
    }

    /// The `.scenario` files directly in `directory`, sorted by name.
    /// - Throws: `InputError` when the folder cannot be read or holds none.
    static func scenarioFiles(in directory: String) throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw InputError("\(directory): the folder cannot be read")
        }
        let files = names.filter { $0.hasSuffix(".scenario") }.sorted()
        guard !files.isEmpty else { throw InputError("\(directory): no .scenario file in it") }
        return files.map { (directory as NSString).appendingPathComponent($0) }
    }
}

/// A sweep's progress on standard error: a line at every hundredth of the runs, for sweeps of at least `runCountMin` runs (a short one says nothing).
final class SweepProgress {
    let output: CommandOutput
    /// The command that reports (`sweep`, `diff`).
    let command: String
    var reportedSteps = 0
    static let runCountMin = 50

    init(output: CommandOutput, command: String) {
        self.output = output
        self.command = command
    }

    /// Progress lines in a whole sweep.
    static let stepCount = 100

    func update(done: Int, total: Int) {
        guard total >= Self.runCountMin else { return }
        let steps = done * Self.stepCount / total
        guard steps > reportedSteps else { return }
        reportedSteps = steps
        output.error("\(command): \(done) of \(PlainText.counted(total, "run"))")
    }
}
