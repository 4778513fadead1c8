// `lifeline run FILE`: runs one scenario file and prints its timeline, its metrics and every
// built-in invariant's verdict; optionally writes its full trace as JSON Lines, a Chrome trace
// and an SVG timeline.
import Fuzzing
import Invariants
import Pictures
import Simulation
import World

enum RunCommand {
    static let usage = """
        usage: lifeline run FILE [--json] [--trace FILE.jsonl] [--chrome-trace FILE.json]
                                 [--svg FILE.svg] [--replace]
                                 [--only INVARIANT] [--skip INVARIANT]

        Runs one scenario file (the text format of CONTRIBUTING.md; a corpus entry is one) to
        its horizon and prints what happened: the full timeline in virtual time, with launches
        (>>), terminations (<<), losses (xx) and violations (!!) marked; the run's metrics;
        and each built-in invariant's verdict, ok or FAIL with its violations in words. The
        exit code is 1 when an invariant fails, 2 when the file cannot be read or run.
          --json     one object instead: {scenario, engine, metrics, invariants}
          --trace    also write the run's full trace to this file, one JSON object per
                     delivered message ({instant, ns, actor, message}); an existing file is
                     kept (exit 2)
          --chrome-trace
                     also write the run as a Chrome trace (the Trace Event Format's JSON
                     object, which Perfetto and chrome://tracing open): a track per actor,
                     the app's states and the services as slices, fixes, relaunches and
                     violations as instants, virtual time in microseconds
          --svg      also draw the run as an SVG timeline: swimlanes for the app's state,
                     the services, fixes stored, delivered and lost, launches, actions and
                     violations, over a time axis
          --replace  let --trace, --chrome-trace and --svg overwrite existing files (never the
                     scenario file itself: an output named as the input is bad usage, exit 2)
          --only     judge only these invariants (a name or names separated by commas;
                     repeatable)
          --skip     leave these invariants out; an unknown name is bad input (exit 2, naming
                     the invariants). The engine's profile already leaves out what does not
                     apply to it (uploaded-once for an app that declares no uploads)
        """

    static let command = Subcommand(
        name: "run", summary: "run one scenario file: its timeline, metrics and invariants",
        usage: usage, run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let json = try reader.flag("--json")
        let tracePath = try reader.text("--trace")
        let chromePath = try reader.text("--chrome-trace")
        let svgPath = try reader.text("--svg")
        let replace = try reader.flag("--replace")
        let selection = try reader.invariantSelection()
        let path = try reader.argument(missing: "run needs a scenario file")
        try reader.finish()
        let outputs = [tracePath, chromePath, svgPath].compactMap { $0 }
        if replace && outputs.isEmpty {
            throw UsageError("--replace goes with --trace, --chrome-trace or --svg")
        }
        for (index, output) in outputs.enumerated() where outputs[..<index].contains(output) {
            throw UsageError("\(output) is named for two outputs")
        }
        for output in outputs where OutputFile.sameFile(output, path) {
            throw InputError(
                "\(output): is the scenario being run; an output never replaces its input")
        }
        let chrome = chromePath.map { OutputFile(path: $0, contents: "the Chrome trace") }
        let svg = svgPath.map { OutputFile(path: $0, contents: "the SVG timeline") }
        for file in [chrome, svg].compactMap({ $0 }) { try file.check(replacing: replace) }

        let scenario = try ScenarioFiles.scenario(atPath: path, engines: reader.engines)
        let record = try ScenarioFiles.record(scenario, path: path, keepsTrace: !outputs.isEmpty)
        let invariants = selection.applied(
            to: Invariant.builtIn, profile: scenario.engine.name.profile)
        if invariants.isEmpty {
            throw InputError("--only and --skip leave no invariant to judge")
        }
        let report = RunReport(
            path: path, scenario: scenario, record: record, invariants: invariants)
        var trace: (path: String, hash: TraceHash)?
        if let tracePath {
            trace = (tracePath, try writeTrace(record, to: tracePath, replacing: replace))
        }
        var written: [String] = []
        if chrome != nil || svg != nil {
            let picture = RunPicture(record, violations: report.verdicts.flatMap(\.violations))
            if let chrome {
                let trace = ChromeTrace(picture)
                try chrome.write(trace.json)
                written.append("chrome    \(chrome.path) (\(trace.eventCount) events)")
            }
            if let svg {
                try svg.write(
                    TimelineSVG(picture, title: path, details: report.pictureDetails).text)
                written.append("svg       \(svg.path)")
            }
        }
        output.standard(json ? report.json : report.text(trace: trace, written: written))
        return report.failed ? 1 : 0
    }

    /// Writes every delivery of `record`, in order, to a new file at `path` through the
    /// kernel's JSON Lines sink; returns the file's hash (the run's trace hash).
    /// - Throws: `InputError` when `path` is a directory, cannot be created, or exists and
    ///   `replacing` is false; nothing is written then.
    static func writeTrace(_ record: RunRecord, to path: String, replacing: Bool) throws
        -> TraceHash
    {
        let sink: JSONLinesTrace<WorldMessage>
        do {
            sink = try JSONLinesTrace(path: path, replacing: replacing)
        } catch {
            throw InputError("\(error)")
        }
        let trace = record.trace ?? MemoryTrace()
        for delivery in trace.records {
            sink.record(instant: delivery.instant, actor: delivery.actor, message: delivery.message)
        }
        sink.close()
        assert(sink.hash.value == trace.hash.value, "the file holds the run's trace")
        return sink.hash
    }
}
