// `lifeline fuzz` in worker processes (the CLI layer): the tool starts itself again as a child
// that runs the search as it always did (worker threads, results in case order), and watches
// which cases are in flight; a child that dies of a signal or hangs ends only itself, and the
// case that did it becomes a `no-crash` or `no-hang` finding, shrunk in fresh workers.
import Engines
import Foundation
import Fuzzing
import Scenarios
import Simulation

/// One engine's fuzzing result as `lifeline fuzz` prints it, whether its search ran in this
/// process or in a child (which sends it back as JSON).
struct EngineOutcome: Codable {
    /// The failure, as the summary and the report print it.
    struct Failure: Codable {
        var invariant: String
        /// The generated case it was found in; nil for a corpus entry.
        var caseIndex: Int?
        /// The corpus entry it is: the one replayed, or the one saved for it.
        var corpusPath: String?
        /// External events once shrunk.
        var events: Int
        /// The story, without the command that replays it (the printer adds that).
        var story: String
        /// Where it is to be saved, while it is not saved yet: the printer saves it after
        /// printing it, so that a write that fails loses nothing.
        var unsavedPath: String?
        /// The corpus entry's text to save there.
        var unsavedText: String?
    }

    var cases = 0
    var states = 0
    var transitions = 0
    var corpusReplayed = 0
    var interrupted = false
    /// Whether every case asked for ran, or a failure ended the search (`FuzzReport`).
    var isComplete = false
    /// Why the run cannot vouch for its cases, if it cannot: workers that disagreed.
    var inconclusive: String?
    var failure: Failure?
    /// Corpus entries that could not be replayed, in words (`FuzzReport.corpusWarnings`).
    var corpusWarnings: [String] = []
    /// The advice breached while it is a warning (`FuzzReport.advice`).
    var advice: [AdviceTally] = []

    init() {}

    init(_ report: FuzzReport, settings: FuzzSettings) {
        cases = report.cases
        states = report.distinctStates
        transitions = report.distinctTransitions
        corpusReplayed = report.corpusReplayed
        interrupted = report.isInterrupted
        isComplete = report.isComplete
        failure = report.failure.map { Failure($0, settings: settings) }
        corpusWarnings = report.corpusWarnings.map(\.description)
        advice = report.advice
    }
}

extension EngineOutcome.Failure {
    /// `failure` as found; unsaved when it is not a corpus entry and `settings` has a corpus.
    init(_ failure: FuzzFailure, settings: FuzzSettings) {
        invariant = failure.invariant
        corpusPath = failure.corpusPath
        events = failure.scenario.events.count
        story = failure.story
        if case .generated(let index) = failure.origin {
            caseIndex = index
            if failure.corpusPath == nil, let corpus = settings.corpus {
                unsavedPath = corpus.entryPath(
                    failure.scenario, engine: settings.engine.name, invariant: failure.invariant)
                unsavedText = FuzzCorpus.entryText(
                    failure.scenario, invariant: failure.invariant,
                    found: settings.foundLine(caseIndex: index))
            }
        }
    }

    /// The simplest failing scenario found so far while case `caseIndex` was shrinking, for a
    /// run ended at once (a second Ctrl-C): not explained, its story the scenario alone.
    init(simplest scenario: Scenario, invariant: String, caseIndex: Int, settings: FuzzSettings) {
        self.invariant = invariant
        self.caseIndex = caseIndex
        events = scenario.events.count
        story =
            "FAIL \(settings.engine.name): \(invariant) (the run was ended while case "
            + "\(caseIndex) was shrinking: the simplest failing scenario found so far, not "
            + "explained)\n\n\(scenario.description)"
        if let corpus = settings.corpus {
            unsavedPath = corpus.entryPath(
                scenario, engine: settings.engine.name, invariant: invariant)
            unsavedText = FuzzCorpus.entryText(
                scenario, invariant: invariant, found: settings.foundLine(caseIndex: caseIndex))
        }
    }
}

/// A worker process that died while no case was in flight (while shrinking or explaining):
/// Lifeline's own error (exit 70), not bad input and not a verdict on the app.
struct WorkerDiedOutsideCases: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The process's exit status, already explained on standard error by a child.
struct ExitStatus: Error { var code: Int32 }

/// Runs one engine's search in child processes of this executable and turns a child's death
/// into a finding.
///
/// The child (`lifeline fuzz … --supervised-child run`) runs the search in-process and tells,
/// on its descriptor 3, each corpus entry (`p PATH`) and case (`s INDEX`, `f INDEX`) it
/// starts and finishes, the thread that runs a case (`w INDEX THREAD`), each commit (`c CASES STATES TRANSITIONS`), the simplest failure so
/// far while it shrinks one (`b JSON`) and at the end its result (`r JSON`). A case in flight
/// past `caseTimeout` of its thread's processor time (`HangWatch`: a loaded machine slows a
/// case without making it a hang; read only for that, never for a result) has the child killed. After a death the search is run again on one worker thread up to the highest case
/// that was in flight (`confirm`, which also sends each case's choices): the cases are the
/// same whatever the first child's `--jobs`, so the lowest failing case, a crash or an
/// invariant, is the one reported, with the same counts. The crashing case's choices are then
/// shrunk in fresh `CaseWorker`s. A death that the one-thread run does not repeat (a case slow
/// only beside others) is a disagreement: the whole search runs again on one thread, and the
/// outcome is inconclusive unless it finds a failure.
final class FuzzSupervisor {
    static let childOption = "--supervised-child"

    /// What a child runs: the search as asked (`run`), or again on one thread, with each case's
    /// choices, up to a case that died (`confirm`).
    enum ChildMode: String {
        case run
        case confirm
    }

    let executable: String
    let settings: FuzzSettings
    let caseTimeout: Double
    let long: Bool
    let output: CommandOutput
    /// Told the child that runs now, so that Ctrl-C reaches it.
    let running: RunningChild?

    init(
        executable: String, settings: FuzzSettings, caseTimeout: Double, long: Bool,
        output: CommandOutput, running: RunningChild? = nil
    ) {
        self.executable = executable
        self.settings = settings
        self.caseTimeout = caseTimeout
        self.long = long
        self.output = output
        self.running = running
    }

    /// How a child ended: with its result, or dead.
    enum ChildEnd {
        case finished(EngineOutcome)
        case died(Death)
    }

    /// What the supervisor knew when a child died.
    struct Death {
        var termination: WorkerProcess.Termination
        /// Cases started and not finished (the lowest first).
        var inFlight: [Int]
        /// The case that ran past the timeout, if that is why it was killed.
        var hungCase: Int?
        /// The corpus entry being replayed, if no case had started.
        var corpusEntry: String?
        /// Corpus entries begun.
        var corpusReplayed = 0
        /// The last commit's counts.
        var committed = (cases: 0, states: 0, transitions: 0)
        /// Each started case's choices (confirm mode), by index.
        var choices: [Int: [UInt64]] = [:]
        /// The simplest failure so far of the case being shrunk, if one was.
        var simplest: EngineOutcome.Failure?
    }

    /// The engine's outcome: the child's, or the finding its death is.
    func fuzz() throws -> EngineOutcome {
        let started = WallClock.seconds()
        var jobs = settings.jobCount
        var disagreement: String?
        while true {
            let first = try runChild(
                .run, caseCount: settings.caseCount, seconds: settings.secondsMax, jobs: jobs)
            guard case .died(let death) = first else {
                guard case .finished(var outcome) = first else { return EngineOutcome() }
                outcome.inconclusive = disagreement
                return outcome
            }
            if let ended = endedAtOnce(death) { return ended }
            var outcome: EngineOutcome
            if let entry = death.corpusEntry, death.inFlight.isEmpty {
                outcome = try corpusFinding(entry, death: death)
            } else {
                guard let highest = death.inFlight.last ?? death.choices.keys.max() else {
                    throw WorkerDiedOutsideCases(
                        "fuzz: the worker process died outside any case "
                            + "(\(describe(death.termination))), while shrinking or explaining")
                }
                let confirm = try runChild(.confirm, caseCount: highest + 1, seconds: nil, jobs: 1)
                switch confirm {
                case .finished(var confirmed):
                    let note =
                        "case \(highest) \(death.hungCase == nil ? "crashed" : "hung") with "
                        + "--jobs \(jobs), but not when the cases up to it ran again on one thread"
                    // A failure up to that case is the lowest: report it. Otherwise the run
                    // cannot vouch for its cases: search again on one thread, once.
                    if confirmed.failure != nil || jobs == 1 || settings.stop?.isRequested == true {
                        output.problem("\(note)")
                        confirmed.inconclusive = note
                        return confirmed
                    }
                    output.problem("\(note); running the whole search on one thread")
                    disagreement = note
                    jobs = 1
                    continue
                case .died(let again):
                    if let ended = endedAtOnce(again) { return ended }
                    outcome = try caseFinding(again)
                }
            }
            outcome.inconclusive = disagreement
            output.error(
                ProgressLine.text(
                    settings.engine.name, cases: outcome.cases,
                    seconds: WallClock.seconds() - started, states: outcome.states,
                    transitions: outcome.transitions, failures: 1))
            return outcome
        }
    }

    /// The outcome of a child killed by a second Ctrl-C: the cases committed, and the simplest
    /// failure so far if one was being shrunk; nil when the child died otherwise.
    func endedAtOnce(_ death: Death) -> EngineOutcome? {
        let requests = settings.stop?.requests ?? 0
        // A child that a Ctrl-C reached before it caught them died of it.
        guard requests >= 2 || (requests == 1 && death.termination == .signalled(SIGINT))
        else { return nil }
        var outcome = EngineOutcome()
        outcome.cases = death.committed.cases
        outcome.states = death.committed.states
        outcome.transitions = death.committed.transitions
        outcome.corpusReplayed = death.corpusReplayed
        outcome.interrupted = true
        outcome.failure = death.simplest
        return outcome
    }

    /// The finding of a corpus entry whose replay ended the child.
    func corpusFinding(_ path: String, death: Death) throws -> EngineOutcome {
        let entry: FuzzCorpus.Entry
        do {
            entry = try FuzzCorpus.entry(atPath: path, engines: settings.corpus?.engines ?? [])
        } catch {
            throw InputError("\(error)")
        }
        let worker = makeWorker()
        defer { worker.stop() }
        var failure = CrashFinding.failure(
            entry.scenario, invariant: invariant(of: death), worker: worker)
        failure.origin = .corpus(path: path)
        failure.corpusPath = path
        var outcome = EngineOutcome()
        outcome.corpusReplayed = death.corpusReplayed
        outcome.isComplete = true
        outcome.failure = EngineOutcome.Failure(failure, settings: settings)
        return outcome
    }

    /// The finding of the generated case that ended a confirming child: shrunk, described and
    /// saved to the corpus.
    func caseFinding(_ death: Death) throws -> EngineOutcome {
        if let entry = death.corpusEntry, death.inFlight.isEmpty {
            return try corpusFinding(entry, death: death)
        }
        guard let caseIndex = death.inFlight.first, let choices = death.choices[caseIndex] else {
            throw WorkerDiedOutsideCases(
                "fuzz: the worker process died outside any case (\(describe(death.termination)))")
        }
        let worker = makeWorker()
        defer { worker.stop() }
        let failure = CrashFinding.failure(
            choices: choices, invariant: invariant(of: death),
            generator: settings.generator.scenarios, worker: worker, caseIndex: caseIndex)
        var outcome = EngineOutcome()
        outcome.cases = death.committed.cases + 1
        outcome.states = death.committed.states
        outcome.transitions = death.committed.transitions
        outcome.isComplete = true
        outcome.failure = EngineOutcome.Failure(failure, settings: settings)
        return outcome
    }

    func invariant(of death: Death) -> String {
        death.hungCase == nil ? FuzzFailure.crashInvariant : FuzzFailure.hangInvariant
    }

    func makeWorker() -> CaseWorker {
        CaseWorker(
            executable: executable, arguments: [CaseWorker.subcommand],
            caseTimeoutSeconds: caseTimeout)
    }

    func describe(_ termination: WorkerProcess.Termination) -> String {
        switch termination {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): WorkerProcess.describe(signal: signal)
        }
    }

    /// Starts a child on the search and follows it to its end.
    func runChild(_ mode: ChildMode, caseCount: Int, seconds: Double?, jobs: Int) throws
        -> ChildEnd
    {
        var arguments = [
            "fuzz", "--engine", settings.engine.name, "--seed", "\(settings.seed)", "--jobs",
            "\(jobs)", "--shard", "\(settings.shard.number)/\(settings.shard.count)", "--guided",
            settings.isGuided ? "on" : "off", Self.childOption, mode.rawValue,
        ]
        if let corpus = settings.corpus { arguments += ["--corpus", corpus.directory] }
        if long { arguments.append("--long") }
        if settings.isStrict { arguments.append("--strict") }
        if settings.generator.fuzzesProfile { arguments.append("--fuzz-profile") }
        if let infoPlist = settings.infoPlist { arguments += ["--info-plist", infoPlist] }
        if settings.adviceFails { arguments += ["--advice", "fail"] }
        for name in settings.selection.only { arguments += ["--only", name] }
        for name in settings.selection.skip { arguments += ["--skip", name] }
        if let seconds {
            arguments += ["--seconds", "\(seconds)"]
        } else {
            arguments += ["--cases", "\(caseCount)"]
        }
        let child: WorkerProcess
        do {
            child = try WorkerProcess(
                executable: executable, arguments: arguments, pipesStandardStreams: false,
                // The confirming run repeats what the first said (and its crash report).
                eventStream: true, standardErrorPath: mode == .confirm ? "/dev/null" : nil,
                environment: ["SWIFT_BACKTRACE": "enable=no"])
        } catch {
            throw InputError("fuzz: \(error)")
        }
        running?.started(child.pid)
        defer { running?.ended() }
        var death = Death(termination: .exited(0), inFlight: [])
        var watch = HangWatch(pid: child.pid, timeout: caseTimeout)
        var result: EngineOutcome?
        reading: while true {
            switch child.readEvent(until: watch.nextCheck()) {
            case .line(let line):
                guard let kind = line.first else { continue }
                let rest = line.dropFirst(2)
                switch kind {
                case "p":
                    death.corpusEntry = String(rest)
                    death.corpusReplayed += 1
                case "s":
                    let words = rest.split(separator: " ")
                    guard let index = words.first.flatMap({ Int($0) }) else { continue }
                    death.corpusEntry = nil
                    watch.started(index)
                    if words.count > 1 {
                        death.choices = [
                            index: words[1].split(separator: ",").compactMap {
                                UInt64($0, radix: 16)
                            }
                        ]
                    }
                case "w":
                    let numbers = rest.split(separator: " ").compactMap { Int32($0) }
                    if numbers.count == 2 { watch.runs(Int(numbers[0]), onThread: numbers[1]) }
                case "f":
                    if let index = Int(rest) { watch.finished(index) }
                case "c":
                    let numbers = rest.split(separator: " ").compactMap { Int($0) }
                    if numbers.count == 3 {
                        death.committed = (numbers[0], numbers[1], numbers[2])
                    }
                case "b":
                    let simplest = try? JSONDecoder().decode(
                        EngineOutcome.Failure.self, from: Data(rest.utf8))
                    if death.simplest == nil, mode == .run, let simplest {
                        output.problem(
                            "\(settings.engine.name): case "
                                + "\(simplest.caseIndex.map { "\($0)" } ?? "?") breaks "
                                + "\(simplest.invariant); shrinking it (Ctrl-C stops there and "
                                + "reports the simplest failure so far)")
                    }
                    death.simplest = simplest ?? death.simplest
                case "r":
                    result = try? JSONDecoder().decode(
                        EngineOutcome.self, from: Data(rest.utf8))
                default:
                    continue
                }
            case .end:
                break reading
            case .timeout:
                guard let hung = watch.hung()?.caseIndex else { continue }
                death.hungCase = hung
                child.kill()
                break reading
            }
        }
        running?.ended()
        death.termination = child.wait()
        death.inFlight = watch.inFlight
        if let hung = death.hungCase {
            death.inFlight = [hung] + death.inFlight.filter { $0 != hung }
        }
        if death.hungCase == nil, case .exited(let status) = death.termination {
            if let result { return .finished(result) }
            // The child explained itself on standard error (a corpus it cannot read, say).
            if status != 0 { throw ExitStatus(code: status) }
        }
        return .died(death)
    }

    /// A child's side: runs the search in this process, telling the supervisor on descriptor 3
    /// what it runs, and sends its outcome there. Returns the exit status.
    static func runChild(_ settings: FuzzSettings, mode: ChildMode, output: CommandOutput) throws
        -> Int32
    {
        var settings = settings
        // The supervisor prints the failure, then saves it.
        settings.savesFailure = false
        settings.confirmingExecutable = WorkerProcess.currentExecutable
        let asked = settings
        let stream = EventStream(descriptor: 3)
        settings.caseObserver = FuzzCaseObserver(wantsChoices: mode == .confirm) { event in
            switch event {
            case .corpusEntry(let path):
                stream.write("p \(path)")
            case .started(let caseIndex, let choices):
                let listed = choices.map {
                    " " + $0.map { String($0, radix: 16) }.joined(separator: ",")
                }
                stream.write("s \(caseIndex)\(listed ?? "")")
                // The thread that runs it, whose processor time its timeout counts.
                if let thread = ProcessorTime.currentThread() {
                    stream.write("w \(caseIndex) \(thread)")
                }
            case .finished(let caseIndex):
                stream.write("f \(caseIndex)")
            case .shrinking(let caseIndex, let invariant, let scenario):
                let simplest = EngineOutcome.Failure(
                    simplest: scenario, invariant: invariant, caseIndex: caseIndex,
                    settings: asked)
                guard let json = try? JSONEncoder().encode(simplest) else { return }
                stream.write("b \(String(decoding: json, as: UTF8.self))")
            }
        }
        let line = mode == .run ? ProgressLine(output: output, engine: settings.engine.name) : nil
        let started = WallClock.seconds()
        let outcome = try FuzzCommand.inProcess(settings) { progress in
            stream.write(
                "c \(progress.cases) \(progress.distinctStates) \(progress.distinctTransitions)")
            line?.update(progress, started: started)
        }
        line?.finish(outcome, seconds: WallClock.seconds() - started)
        let json = (try? JSONEncoder().encode(outcome)).map { String(decoding: $0, as: UTF8.self) }
        stream.write("r \(json ?? "{}")")
        return 0
    }
}

/// Lines written to a descriptor at once, one writer at a time (worker threads and the
/// calling thread share it).
final class EventStream: @unchecked Sendable {
    // invariant: `descriptor` is written only under `lock`.
    private let lock = NSLock()
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    func write(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.withLock {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Foundation.write(descriptor, $0.baseAddress, $0.count)
                }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
