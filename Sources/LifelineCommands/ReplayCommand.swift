// `lifeline replay PATH`: reruns one corpus entry and says whether it still breaks the
// invariant it was saved for, passes now, or breaks another.
import Fuzzing
import Invariants
import Simulation

enum ReplayCommand {
    static let usage = """
        usage: lifeline replay PATH

        Reruns one corpus entry (a file `lifeline fuzz` saved, DIR/ENGINE/INVARIANT-HASH.scenario)
        and checks every built-in invariant that applies to the app (not uploaded-once for an
        app whose profile says it uploads nothing). It says "still fails" with the violations
        of the invariant its header records and the compact timeline (exit 1), "passes now"
        when every invariant holds (exit 0), or that it fails a different invariant (exit 1). An
        entry saved for no-crash or no-hang runs first in a worker process: "still crashes"
        or "still hangs" with the signal and the last deliveries (exit 1); once it runs to its
        end it is checked as any other. An entry saved for no-state-outliving-process runs twice
        in this process: "still differs" with where the runs part (exit 1), or "passes alone"
        (exit 0): its state came from the earlier cases of the run its `# found:` line names,
        which finds it again. An entry saved for escaped-simulation "still fails" while the
        app's code still runs outside the simulated device, naming each call (exit 1). A file
        that is not a corpus entry, or was written in a newer corpus format, exits 2.
        """

    static let command = Subcommand(
        name: "replay", summary: "rerun one corpus entry: does it still fail as recorded?",
        usage: usage, run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let path = try reader.argument(missing: "replay needs a corpus entry")
        try reader.finish()
        let entry = try ScenarioFiles.entry(atPath: path, engines: reader.engines)
        if FuzzFailure.isProcessInvariant(entry.invariant),
            let code = try replayInWorker(entry, output: output)
        {
            return code
        }
        if entry.invariant == ProcessStateCheck.invariant {
            return replayTwice(entry, output: output)
        }
        guard
            Invariant.builtIn(named: entry.invariant) != nil
                || FuzzFailure.isProcessInvariant(entry.invariant)
                || entry.invariant == FuzzFailure.escapeInvariant
        else {
            let names = Invariant.builtIn.map(\.name).joined(separator: ", ")
            throw InputError(
                "\(path): the entry records the invariant '\(entry.invariant)', which this "
                    + "Lifeline does not check (it checks \(names))")
        }
        // A `no-crash` or `no-hang` entry that ran to its end in a worker runs here too.
        let (record, escape) = try EscapeFinding.collecting {
            try ScenarioFiles.record(entry.scenario, path: path)
        }
        let engine = entry.scenario.engine.name.name
        if let escape {
            // Part of the run was not simulated: no lifecycle verdict holds.
            let recorded = entry.invariant == FuzzFailure.escapeInvariant
            output.standard(
                [
                    recorded
                        ? "still fails: \(escape.invariant) (engine \(engine))"
                        : "fails a different invariant: \(escape.invariant) (engine \(engine); "
                            + "\(entry.invariant), as recorded, cannot be judged)",
                    "", "  \(escape)",
                ].joined(separator: "\n"))
            return 1
        }
        // An advice's entry (saved by `fuzz --advice fail`) is judged with the advice too; the
        // app's profile leaves out what does not apply to it, as in `fuzz` and `run`
        // (uploaded-once for an app that uploads nothing).
        let isAdvice = Invariant.advice.contains { $0.name == entry.invariant }
        let verdicts = RunReport.verdicts(
            of: record,
            invariants: InvariantSelection().applied(
                to: Invariant.builtIn + (isAdvice ? Invariant.advice : []),
                profile: entry.scenario.engine.name.profile))
        let failing = verdicts.filter { !$0.passed }
        if let recorded = failing.first(where: { $0.invariant == entry.invariant }) {
            let others = failing.filter { $0.invariant != entry.invariant }.map(\.invariant)
            var lines = ["still fails: \(entry.invariant) (engine \(engine))", ""]
            lines += recorded.violations.map { "  \($0)" }
            if !others.isEmpty { lines += ["", "also fails: \(others.joined(separator: ", "))"] }
            lines.append("")
            lines.append(Timeline(record, violations: recorded.violations, mode: .compact).text)
            output.standard(lines.joined(separator: "\n"))
            return 1
        }
        guard !failing.isEmpty else {
            output.standard(
                "passes now: \(entry.invariant) holds (engine \(engine); every invariant that "
                    + "applies holds)")
            return 0
        }
        let violations = failing.flatMap(\.violations)
        var lines = [
            "fails a different invariant: \(failing.map(\.invariant).joined(separator: ", ")) "
                + "(engine \(engine); \(entry.invariant), as recorded, holds now)",
            "",
        ]
        lines += violations.map { "  \($0)" }
        lines.append("")
        lines.append(Timeline(record, violations: violations, mode: .compact).text)
        output.standard(lines.joined(separator: "\n"))
        return 1
    }

    /// Runs a `no-state-outliving-process` entry twice in this process (`ProcessStateCheck`):
    /// exit 1 when the runs still differ, 0 when they agree (the state came from earlier cases).
    static func replayTwice(_ entry: FuzzCorpus.Entry, output: CommandOutput) -> Int32 {
        let engine = entry.scenario.engine.name.name
        guard let failure = ProcessStateCheck.failure(entry.scenario, caseIndex: 0) else {
            output.standard(
                "passes alone: \(entry.invariant) (engine \(engine)): run twice in one process, "
                    + "the scenario gives the same run. The state that outlived its process was "
                    + "left by earlier cases of the fuzzing run that found it (its '# found:' "
                    + "line), which finds it again; look for a static, a global or a singleton "
                    + "the engine keeps (docs/concurrency.md: ProcessLocal)")
            return 0
        }
        output.standard(
            (["still differs: \(entry.invariant) (engine \(engine))", ""]
                + failure.violations.map { "  \($0)" }).joined(separator: "\n"))
        return 1
    }

    /// Runs a `no-crash` or `no-hang` entry in a worker process: the exit code when it still
    /// crashes or hangs (1, with what it did), nil when it ran to its end.
    static func replayInWorker(_ entry: FuzzCorpus.Entry, output: CommandOutput) throws -> Int32? {
        guard let executable = output.workerExecutable else {
            throw InputError(
                "\(entry.path): a \(entry.invariant) entry is replayed in a worker process, "
                    + "which this run of the tool cannot start")
        }
        let worker = CaseWorker(
            executable: executable, arguments: [CaseWorker.subcommand],
            caseTimeoutSeconds: FuzzCommand.defaultCaseTimeout)
        defer { worker.stop() }
        let run = worker.run(entry.scenario, traceTail: CrashFinding.traceTailCount)
        if case .unavailable(let reason) = run.outcome {
            throw InputError("\(entry.path): cannot be replayed in a worker process: \(reason)")
        }
        guard let invariant = CrashFinding.invariant(of: run.outcome) else { return nil }
        let violation = CrashFinding.violation(
            run, invariant: invariant, scenario: entry.scenario, worker: worker)
        let engine = entry.scenario.engine.name.name
        let verdict = invariant == FuzzFailure.crashInvariant ? "still crashes" : "still hangs"
        let recorded = invariant == entry.invariant ? "" : " (recorded as \(entry.invariant))"
        output.standard(
            ["\(verdict): \(invariant) (engine \(engine))\(recorded)", "", "  \(violation)"]
                .joined(separator: "\n"))
        return 1
    }
}
