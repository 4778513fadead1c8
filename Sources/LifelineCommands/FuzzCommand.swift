// `lifeline fuzz`: the main job. Replays the corpus, explores generated scenarios, and on a
// failure shrinks it, saves it, prints its story and how to replay it.
import EngineMutants
import Engines
import Foundation
import Fuzzing
import Invariants
import Scenarios
import Simulation

enum FuzzCommand {
    static let usage = """
        usage: lifeline fuzz [--engine NAME|all] [--seconds N | --cases N] [--seed S]
                             [--jobs J] [--shard K/N] [--guided on|off] [--long]
                             [--info-plist FILE] [--fuzz-profile] [--advice warn|fail]
                             [--corpus DIR] [--only INVARIANT] [--skip INVARIANT]
                             [--strict] [--json]
                             [--case-timeout S] [--isolation on|off]

        Fuzzes an engine's lifecycle: replays the corpus's saved failures for it, then runs
        generated scenarios (routes, user and OS events, permission changes, same-instant
        orderings) and checks every invariant after each. A failure is shrunk to a short
        scenario, saved to the corpus, and printed as a timeline with the command that replays
        it; the exit code is then 1.
          --engine   an engine from `lifeline engines`, or all (default): every correct one
          --cases    case indices 0..<N per engine (default 200)
          --seconds  wall-clock seconds per engine instead (the case count no longer bounds it)
          --seed     case i of an engine is generated from this seed and i (default 1)
          --jobs     cases run side by side, one simulation per worker (default: every core);
                     the summary is the same for any J: the failure reported is the one of the
                     lowest case index
          --shard    run only shard K of N (from 1): the case indices i with i % N = K - 1, so
                     N machines share one search; the shards' corpora merge with
                     `lifeline corpus merge`
          --guided   on: keep the cases that reach a new abstract lifecycle state or
                     transition and mutate them (splice, shift, insert, redraw); off
                     (default): every case drawn fresh, random search. Either way the summary
                     is the same for any J (a guided run goes in batches of 64 cases)
          --long     scenarios of at least an hour with a drive and three lifecycle events
                     (the workload of `lifeline bench fuzz`) instead of short ones
          --advice   fail: advice (guidance whose breach loses nothing by itself, such as
                     R-A13's "ask before starting location services") fails a case too;
                     warn (default): `lifeline run` and `replay` show it as a warning
          --info-plist
                     the app's Info.plist (XML): its UIBackgroundModes, scene manifest and
                     location usage descriptions replace the engine's declared ones in its
                     profile; an unknown mode, a missing description or a file that is not a
                     property list is bad input (exit 2, with file and line)
          --fuzz-profile  vary the app's profile too: drop the location background mode
                     now and then, grant Always to any app, draw launch rules the profile fixes
                     (default: the profile's facts stay as the app declares them)
          --corpus   the corpus folder (default Corpus), made only when an entry is saved;
                     an entry that cannot be replayed (unreadable, another content hash than
                     its name's, an unknown engine) is a warning on standard error
          --only     judge only these invariants (a name, or names separated by commas;
                     repeatable); the others show as - in the summary
          --skip     leave these invariants out. Either way an unknown name is bad input
                     (exit 2, naming the invariants). The app's profile already leaves out
                     what does not apply to it: uploaded-once when it declares no uploads
                     (AppProfile.uploads = .nothing)
          --strict   such an entry is an error instead (exit 2)
          --json     one summary object per engine: {engine, cases, states, transitions,
                     seconds, failures, advice, inconclusive}
          --case-timeout
                     seconds of processor time a case may use before it is a no-hang
                     failure (default 5); one blocked without using the processor fails
                     after ten times as long
          --isolation
                     on (default): cases run in a worker process, so a trap, a bad access or
                     an abort in an engine is a no-crash failure (shrunk, saved, replayed)
                     and ends only the worker; off: in this process, which it ends

        Before a failure is reported it runs once more in a fresh process; one that passes
        there came from state an earlier case left behind, and is reported as
        no-state-outliving-process. A failure is printed (its story and the command that
        replays it) before it is saved to the corpus; if the write fails, standard error says
        why and where the entry is instead (a fallback file in the temporary folder, and the
        story printed above).

        Ctrl-C ends the run cleanly: no new case starts, a shrink stops at the simplest failure
        found so far (printed and saved, not explained), and the summary covers the cases run
        so far. A second Ctrl-C ends it at once: the worker process is killed, and the simplest
        failure it had found, if it was shrinking one, is still printed and saved.

        Exit codes:
          0    every case asked for ran (with --seconds: every case in the time) and passed
          1    a failure was found (an invariant, no-crash or no-hang): printed, then saved
          2    bad usage or input (an option, an Info.plist, a corpus entry under --strict),
               or a failure was found but could not be saved (printed all the same)
          3    inconclusive, no failure found: workers disagreed (a case crashed or hung with
               --jobs J and not when the cases up to it ran again on one thread), or fewer
               cases ran than asked for
          70   Lifeline's own error, never a verdict on the app: its model looped (the
               run stopped; standard error gives the case's scenario to report)
          130  interrupted by Ctrl-C before any failure was found
        """

    static let command = Subcommand(
        name: "fuzz", summary: "the main job: fuzz engines' lifecycles against the invariants",
        usage: usage, run: { try run(&$0, output: $1) })

    static let defaultCases = 200
    static let defaultCorpus = "Corpus"
    /// Whether `--guided` is on unless given (docs/guided-search.md: the measured figures behind it).
    static let defaultGuided = false

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let engines = try engineChoice(&reader)
        let seconds = try reader.parsed("--seconds") { text -> Double in
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError("takes a positive number of seconds, not '\(text)'")
            }
            return value
        }
        let casesGiven = reader.has("--cases")
        let cases = try reader.integer("--cases", in: 1...10_000_000, default: defaultCases)
        if seconds != nil && casesGiven {
            throw UsageError("--cases and --seconds exclude one another: give one")
        }
        let seed = try reader.seed("--seed", default: 1)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let jobs = try reader.integer(
            "--jobs", in: 1...jobCountMax, default: min(cores, jobCountMax))
        let shard =
            try reader.parsed("--shard") { text throws -> FuzzShard in
                try FuzzShard(parsing: text)
            } ?? .whole
        let guided =
            try reader.parsed("--guided") { text throws -> Bool in
                switch text {
                case "on": true
                case "off": false
                default: throw UsageError("takes on or off, not '\(text)'")
                }
            } ?? defaultGuided
        let corpus = FuzzCorpus(
            directory: try reader.text("--corpus") ?? defaultCorpus, engines: reader.engines)
        let long = try reader.flag("--long")
        let fuzzesProfile = try reader.flag("--fuzz-profile")
        let infoPlist = try reader.text("--info-plist")
        let json = try reader.flag("--json")
        let caseTimeout =
            try reader.parsed("--case-timeout") { text -> Double in
                guard let value = Double(text), value > 0, value.isFinite else {
                    throw UsageError("takes a positive number of seconds, not '\(text)'")
                }
                return value
            } ?? defaultCaseTimeout
        let isolated =
            try reader.parsed("--isolation") { text throws -> Bool in
                switch text {
                case "on": true
                case "off": false
                default: throw UsageError("takes on or off, not '\(text)'")
                }
            } ?? true
        // Hidden: this process is the child of a supervising `lifeline fuzz` (FuzzSupervisor).
        let child = try reader.parsed(FuzzSupervisor.childOption) { text throws in
            guard let mode = FuzzSupervisor.ChildMode(rawValue: text) else {
                throw UsageError("takes run or confirm")
            }
            return mode
        }
        let strict = try reader.flag("--strict")
        let adviceFails =
            try reader.parsed("--advice") { text throws -> Bool in
                switch text {
                case "warn": false
                case "fail": true
                default: throw UsageError("takes warn or fail, not '\(text)'")
                }
            } ?? false
        let selection = try reader.invariantSelection()
        try reader.finish()
        let known = EngineChoice.all.map(\.name) + reader.engines.map(\.name)
        for problem in corpus.unknownEngineFolders(known: known) {
            if strict { throw InputError("\(problem)") }
            output.problem("warning: \(problem)")
        }

        var summaries: [[(key: String, value: String)]] = []
        var failed = false
        var unsaved = false
        var inconclusive: [String] = []
        var table: [SummaryRow] = []
        var warnings: [String] = []
        let stop = FuzzStop()
        let shrinking = ShrinkWatch()
        let running = RunningChild()
        let onInterrupt: @Sendable (Int) -> Void
        if child != nil {
            // A worker never dies of Ctrl-C: it stops and reports, or its supervisor kills it.
            onInterrupt = { _ in }
        } else if isolated && output.workerExecutable != nil {
            onInterrupt = { running.interrupt(requests: $0) }
        } else {
            onInterrupt = InterruptCatcher.endingOnSecond(unless: { shrinking.isShrinking })
        }
        let interrupt =
            output.catchesInterrupt
            ? InterruptCatcher(
                stop, announces: child == nil, toolName: output.toolName, then: onInterrupt)
            : nil
        defer { interrupt?.release() }
        for engine in engines where !stop.isRequested {
            var settings = FuzzSettings(engine: engine)
            settings.seed = seed
            settings.jobCount = jobs
            settings.shard = shard
            settings.isGuided = guided
            settings.stop = stop
            settings.corpus = corpus
            settings.isStrict = strict
            // Saved here, after it is printed (`report`): a write that fails loses nothing.
            settings.savesFailure = false
            if long { settings.generator = .benchmark(engine: engine) }
            settings.generator.fuzzesProfile = fuzzesProfile
            if let infoPlist {
                do {
                    try InputLimit.infoPlist.check(infoPlist)
                    settings.generator.profile = try settings.generator.profile.declaring(
                        infoPlistAt: infoPlist)
                } catch {
                    throw InputError("--info-plist: \(error)")
                }
                settings.infoPlist = infoPlist
            }
            settings.adviceFails = adviceFails
            settings.selection = selection
            settings.invariants = selection.applied(
                to: settings.invariants, profile: settings.generator.profile)
            if settings.invariants.isEmpty {
                throw InputError(
                    "engine \(engine.name): --only and --skip leave no invariant to judge "
                        + "(its profile's uploads: \(settings.generator.profile.uploads.rawValue))")
            }
            if let seconds {
                settings.secondsMax = seconds
                settings.caseCount = Int.max
            } else {
                settings.caseCount = cases
            }
            if let child {
                return try FuzzSupervisor.runChild(settings, mode: child, output: output)
            }
            let started = WallClock.seconds()
            var outcome: EngineOutcome
            if isolated, let executable = output.workerExecutable {
                let supervisor = FuzzSupervisor(
                    executable: executable, settings: settings, caseTimeout: caseTimeout,
                    long: long, output: output, running: running)
                outcome = try supervisor.fuzz()
            } else {
                settings.caseObserver = shrinking.observer
                settings.confirmingExecutable = output.workerExecutable
                let line = ProgressLine(output: output, engine: engine.name)
                outcome = try inProcess(settings) { line.update($0, started: started) }
                line.finish(outcome, seconds: WallClock.seconds() - started)
            }
            for problem in outcome.corpusWarnings {
                output.problem("warning: \(problem) (not replayed; --strict stops here)")
            }
            // A failure found is reported whatever else happened; without one, a run that
            // cannot vouch for its cases says so.
            if outcome.failure == nil, let note = outcome.inconclusive {
                inconclusive.append("\(engine.name): \(note)")
            } else if outcome.failure == nil, !outcome.interrupted, !stop.isRequested,
                seconds == nil, !outcome.isComplete
            {
                inconclusive.append(
                    "\(engine.name): \(PlainText.counted(outcome.cases, "case")) ran of the "
                        + "\(cases) asked for")
            }
            if var failure = outcome.failure {
                failed = true
                unsaved = !report(&failure, json: json, output: output) || unsaved
                outcome.failure = failure
            }
            let elapsed = WallClock.seconds() - started
            table.append(
                SummaryRow(
                    engine: engine.name, cases: outcome.cases,
                    failure: outcome.failure?.invariant,
                    judged: settings.invariants.map(\.name)))
            summaries.append([
                ("engine", PlainText.jsonQuoted(engine.name)), ("cases", "\(outcome.cases)"),
                ("states", "\(outcome.states)"),
                ("transitions", "\(outcome.transitions)"),
                ("seconds", PlainText.fixed(elapsed, digits: 3)),
                ("failures", outcome.failure.map(failuresJSON) ?? "[]"),
                ("advice", adviceJSON(outcome.advice)),
                ("inconclusive", outcome.inconclusive.map(PlainText.jsonQuoted) ?? "null"),
            ])
            warnings += outcome.advice.map {
                adviceLine($0, engine: engine.name, of: outcome.cases)
            }
        }
        if stop.isRequested {
            output.problem("interrupted: the summary covers the cases run so far")
        }
        for note in inconclusive {
            output.problem(
                "inconclusive: \(note); no verdict of that engine is vouched for")
        }
        output.standard(
            json
                ? jsonObjects(summaries)
                : ([summaryTable(table)] + (warnings.isEmpty ? [] : [""] + warnings))
                    .joined(separator: "\n"))
        return exitCode(
            failed: failed, unsaved: unsaved, interrupted: stop.isRequested,
            inconclusive: !inconclusive.isEmpty)
    }

    /// The exit code, as `usage` states it: a failure first (2 when it could not be saved),
    /// then an interrupt, then a run that cannot vouch for its cases.
    static func exitCode(failed: Bool, unsaved: Bool, interrupted: Bool, inconclusive: Bool)
        -> Int32
    {
        if failed { return unsaved ? 2 : 1 }
        if interrupted { return 130 }
        return inconclusive ? 3 : 0
    }

    /// Prints `failure`'s story with the command that replays it (unless `json`), then saves
    /// it to the corpus if it is not saved yet. Returns false when the write failed: standard
    /// error then says why and where the entry is instead (a fallback file, or the story
    /// printed above; under `json`, the summary's `entry`).
    static func report(
        _ failure: inout EngineOutcome.Failure, json: Bool, output: CommandOutput
    ) -> Bool {
        let replayPath = failure.corpusPath ?? failure.unsavedPath
        if !json {
            output.standard(
                failure.story
                    + (replayPath.map { "\n\nreplay: \(output.toolName) replay \($0)" } ?? ""))
        }
        guard let path = failure.unsavedPath, let text = failure.unsavedText else { return true }
        do {
            try FuzzCorpus.write(text, toPath: path)
            failure.corpusPath = path
            failure.unsavedPath = nil
            failure.unsavedText = nil
            return true
        } catch {
            let fallback = (NSTemporaryDirectory() as NSString).appendingPathComponent(
                "lifeline-unsaved-" + (path as NSString).lastPathComponent)
            let saved = (try? FuzzCorpus.write(text, toPath: fallback)) != nil
            let printed = json ? "in the summary's \"entry\"" : "printed above"
            output.problem(
                "the failure could not be saved: \(error); "
                    + (saved
                        ? "its corpus entry is in \(fallback) instead (and \(printed))"
                        : "its scenario is \(printed) (a fallback file in "
                            + "\(NSTemporaryDirectory()) could not be written either)"))
            failure.unsavedPath = saved ? fallback : nil
            return false
        }
    }

    /// Wall-clock seconds a case may run in a worker process before it counts as hung
    /// (`no-hang`): far above any case's time (milliseconds), so that only a callback that
    /// never returns reaches it.
    static let defaultCaseTimeout = 5.0

    /// Fuzzes in this process (tests; `--isolation off`): a crash ends the process.
    static func inProcess(
        _ settings: FuzzSettings, progress: @escaping (FuzzProgress) -> Void
    ) throws -> EngineOutcome {
        let report: FuzzReport
        do {
            report = try Fuzzer.fuzz(settings, progress: progress)
        } catch let problem as FuzzCorpus.Problem {
            throw InputError("\(problem)")
        } catch let unreadable as UnreadableRow {
            throw InputError("engine \(settings.engine.name): \(unreadable)")
        }
        return EngineOutcome(report, settings: settings)
    }

    /// Workers at most: far above any machine's cores, so a typo is caught.
    static let jobCountMax = 1024

    /// The summary's `failures` array holding `failure`: its invariant, the generated case it
    /// was found in (null for a corpus entry), its corpus entry and its events once shrunk.
    static func failuresJSON(_ failure: EngineOutcome.Failure) -> String {
        let caseText = failure.caseIndex.map { "\($0)" } ?? "null"
        let path = failure.corpusPath.map(PlainText.jsonQuoted) ?? "null"
        let unsaved = failure.unsavedText.map { ", \"entry\": \(PlainText.jsonQuoted($0))" } ?? ""
        return "[{\"invariant\": \(PlainText.jsonQuoted(failure.invariant)), "
            + "\"case\": \(caseText), \"corpusPath\": \(path), "
            + "\"events\": \(failure.events)\(unsaved)}]"
    }

    /// The summary's `advice` array: each advice breached while it warns, with its rule, the
    /// cases that breached it and the first of them.
    static func adviceJSON(_ tallies: [AdviceTally]) -> String {
        let objects = tallies.map { tally in
            "{\"invariant\": \(PlainText.jsonQuoted(tally.invariant)), "
                + "\"rule\": \(PlainText.jsonQuoted(tally.rule)), \"cases\": \(tally.cases), "
                + "\"firstCase\": \(tally.firstCaseIndex)}"
        }
        return "[" + objects.joined(separator: ", ") + "]"
    }

    /// One advice warning under the summary table: what was breached, how often, the first
    /// case, and how to make it a failure.
    static func adviceLine(_ tally: AdviceTally, engine: String, of cases: Int) -> String {
        "warn  \(engine): \(tally.invariant) (advice, \(tally.rule); \(tally.source)) in "
            + "\(tally.cases) of \(cases) cases, first case \(tally.firstCaseIndex); "
            + "--advice fail makes it a failure"
    }

    /// `--engine NAME|all`: all is every correct built-in engine and every custom one.
    static func engineChoice(_ reader: inout ArgumentReader) throws -> [EngineChoice] {
        guard let name = try reader.text("--engine"), name != "all" else {
            return BuiltInEngine.allCases.map(EngineChoice.builtIn)
                + reader.engines.map(EngineChoice.custom)
        }
        return [try engine(named: name, reader.engines)]
    }

    /// The engine `--engine` names, built-in or one of `custom`.
    /// - Throws: `InputError` naming every engine the tool knows when none is called `name`.
    static func engine(named name: String, _ custom: [CustomEngine]) throws -> EngineChoice {
        guard let engine = EngineChoice(name: name, custom: custom) else {
            throw InputError(
                "--engine: no engine is called '\(name)'; the engines are "
                    + LifelineCommand.knownEngineNames(custom))
        }
        return engine
    }

    /// One engine's line of the summary table.
    struct SummaryRow {
        var engine: String
        var cases: Int
        /// The invariant the failure broke, if one did.
        var failure: String?
        /// The invariants judged (those the profile, `--only` and `--skip` left).
        var judged: [String]
    }

    /// Engines against invariants: `ok`, `FAIL` for the invariant a failure broke, or `-` for
    /// one not judged (the app's profile or `--only`/`--skip` left it out).
    static func summaryTable(_ rows: [SummaryRow]) -> String {
        // `no-crash`, `no-hang` and `escaped-simulation` get a column only when a row failed
        // them.
        let names =
            Invariant.builtIn.map(\.name)
            + [
                FuzzFailure.crashInvariant, FuzzFailure.hangInvariant,
                FuzzFailure.escapeInvariant,
            ].filter { name in
                rows.contains { $0.failure == name }
            }
        let width = max(rows.map(\.engine.count).max() ?? 0, "engine".count)
        let pad = ExperimentCommand.pad
        var lines = [
            pad("engine", width, false) + "  cases  "
                + names.enumerated().map { "I\($0.offset + 1)" }
                .joined(separator: "    ")
        ]
        for row in rows {
            let cells = names.map { name in
                row.failure == name
                    ? "FAIL"
                    : row.judged.contains(name) || FuzzFailure.isProcessInvariant(name)
                        ? "ok  " : "-   "
            }
            lines.append(
                pad(row.engine, width, false) + "  " + pad("\(row.cases)", 5, true) + "  "
                    + cells.joined(separator: "  "))
        }
        lines.append("")
        lines += names.enumerated().map { "I\($0.offset + 1)  \($0.element)" }
        return lines.joined(separator: "\n")
    }
}

/// The progress line (cases, cases/s, states, transitions, failures, elapsed): redrawn in
/// place on a terminal, printed plainly every `plainInterval` cases when not (so logs stay
/// readable). It goes to standard error.
final class ProgressLine {
    let output: CommandOutput
    let engine: String
    let terminal: Bool
    static let plainInterval = 100
    /// The cases of the last plain line printed: the summary line does not repeat it.
    private var plainCases: Int?

    init(output: CommandOutput, engine: String) {
        self.output = output
        self.engine = engine
        terminal = isatty(STDERR_FILENO) == 1
    }

    func update(_ progress: FuzzProgress, started: Double) {
        let elapsed = WallClock.seconds() - started
        let text = Self.text(
            engine, cases: progress.cases, seconds: elapsed, states: progress.distinctStates,
            transitions: progress.distinctTransitions, failures: progress.failures)
        if terminal {
            // Clear to the end of the line: the new text may be shorter than the old.
            FileHandle.standardError.write(Data(("\r" + text + "\u{1B}[K").utf8))
        } else if progress.cases % Self.plainInterval == 0 {
            output.error(text)
            plainCases = progress.cases
        }
    }

    func finish(_ report: EngineOutcome, seconds: Double) {
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let failures = report.failure == nil ? 0 : 1
        // The same cases as the last plain line, and nothing more to say: already printed.
        if !terminal, plainCases == report.cases, failures == 0, report.corpusReplayed == 0 {
            return
        }
        output.error(
            Self.text(
                engine, cases: report.cases, seconds: seconds, states: report.states,
                transitions: report.transitions, failures: failures)
                + (report.corpusReplayed > 0
                    ? ", "
                        + PlainText.counted(
                            report.corpusReplayed, "corpus entry", plural: "corpus entries")
                        + " replayed" : ""))
    }

    static func text(
        _ engine: String, cases: Int, seconds: Double, states: Int, transitions: Int,
        failures: Int
    ) -> String {
        let rate = seconds > 0 ? Double(cases) / seconds : 0
        return "\(engine): \(cases) cases, \(PlainText.fixed(rate, digits: 0)) cases/s, "
            + "\(states) states, \(transitions) transitions, \(failures) failures, "
            + "\(PlainText.fixed(seconds, digits: 1)) s"
    }
}
