// `lifeline run FILE`: runs one scenario file and prints its timeline, its metrics and every
// built-in invariant's verdict; optionally writes its full trace as JSON Lines.
import Invariants
import Simulation
import World

enum RunCommand {
    static let usage = """
        usage: lifeline run FILE [--json] [--trace FILE.jsonl [--replace]]

        Runs one scenario file (the text format of CONTRIBUTING.md; a corpus entry is one) to
        its horizon and prints what happened: the full timeline in virtual time, with launches
        (>>), terminations (<<), losses (xx) and violations (!!) marked; the run's metrics;
        and each built-in invariant's verdict, ok or FAIL with its violations in words. The
        exit code is 1 when an invariant fails, 2 when the file cannot be read or run.
          --json     one object instead: {scenario, engine, metrics, invariants}
          --trace    also write the run's full trace to this file, one JSON object per
                     delivered message ({instant, ns, actor, message}); an existing file is
                     kept (exit 2)
          --replace  let --trace overwrite an existing file
        """

    static let command = Subcommand(
        name: "run", summary: "run one scenario file: its timeline, metrics and invariants",
        usage: usage, run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let json = reader.flag("--json")
        let tracePath = try reader.text("--trace")
        let replace = reader.flag("--replace")
        let path = try reader.argument(missing: "run needs a scenario file")
        try reader.finish()
        if replace && tracePath == nil { throw UsageError("--replace goes with --trace") }

        let scenario = try ScenarioFiles.scenario(atPath: path)
        let record = try ScenarioFiles.record(scenario, path: path)
        let report = RunReport(path: path, scenario: scenario, record: record)
        var trace: (path: String, hash: TraceHash)?
        if let tracePath {
            trace = (tracePath, try writeTrace(record, to: tracePath, replacing: replace))
        }
        output.standard(json ? report.json : report.text(trace: trace))
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
        for delivery in record.trace.records {
            sink.record(instant: delivery.instant, actor: delivery.actor, message: delivery.message)
        }
        sink.close()
        assert(sink.hash.value == record.trace.hash.value, "the file holds the run's trace")
        return sink.hash
    }
}
