// Scenarios run in a worker process (layer 5): the supervisor's side sends one scenario at a
// time and learns whether it ran to its end, died of a signal, or hung; the worker's side
// (`serve`) runs them. A dead or hung worker is replaced by a fresh one for the next scenario.
import Engines
import Foundation
import Invariants
import Scenarios
import Simulation
import World

/// A long-lived worker process that runs scenarios one at a time, for the supervisor of a
/// fuzzing run: shrinking a crash reruns each candidate here (a fresh process after every
/// death), and the crash's last trace entries are read from here.
///
/// The protocol, on the worker's standard streams: the supervisor writes
/// `run TAIL BYTES\n` and the scenario's text (`Scenario.description`); the worker answers
/// `ok\n` once the run reached its horizon. With `TAIL` 1 it first streams every delivery as
/// `t NANOSECONDS TEXT` and every engine callback's start and end as `b` and `e`, each line
/// written as it happens, so the lines before a death are the last things it did. For
/// `check INVARIANT BYTES\n` and the text it answers every entry of the app's log as `l TEXT`
/// and the number of `INVARIANT`'s violations as `v COUNT` before `ok` (`FreshProcessCheck`).
package final class CaseWorker {
    /// The worker command: an executable and its arguments (the tool's hidden subcommand).
    package let executable: String
    package let arguments: [String]
    /// Seconds of processor time one scenario may use before it counts as hung and the worker
    /// is killed (`HangWatch`, which also says how long a blocked one may wait).
    package var caseTimeoutSeconds: Double
    /// Worker processes started so far.
    package private(set) var processCount = 0
    private var process: WorkerProcess?
    private var errorPath: String?

    package init(executable: String, arguments: [String], caseTimeoutSeconds: Double) {
        self.executable = executable
        self.arguments = arguments
        self.caseTimeoutSeconds = caseTimeoutSeconds
    }

    deinit { stop() }

    /// How one scenario's run in the worker ended.
    package enum Outcome: Sendable, Equatable {
        /// It reached its horizon.
        case completed
        /// The worker died: a signal, or an exit in the middle of the run.
        case died(WorkerProcess.Termination)
        /// It ran past `caseTimeoutSeconds` and the worker was killed.
        case hung
        /// The worker could not run it (it could not be started, or refused the scenario).
        case unavailable(String)
    }

    /// One run in the worker.
    package struct Run: Sendable {
        package var outcome: Outcome
        /// The last deliveries before the end, oldest first, with their instants (when the
        /// trace was asked for).
        package var traceTail: [(instant: Instant, text: String)] = []
        /// Whether an engine callback had begun and not ended when it ended.
        package var inEngineCallback = false
        /// How long it ran before it counted as hung, in words (`HangWatch.Hang`).
        package var hang: String?
        /// The worker's last words on standard error (the runtime's "Fatal error: …").
        package var message: String?
        /// Every entry of the app's log in words, when the run checked an invariant.
        package var log: [String] = []
        /// The checked invariant's violations, when the run checked one to its end.
        package var violationCount: Int?

        package init(outcome: Outcome) { self.outcome = outcome }
    }

    /// Runs `scenario` in the worker (started if needed); with `traceTail` above 0, keeps its
    /// last deliveries; with `checking`, the app's log and that invariant's violations.
    package func run(_ scenario: Scenario, traceTail: Int = 0, checking: String? = nil) -> Run {
        if process == nil {
            do { try start() } catch { return Run(outcome: .unavailable("\(error)")) }
        }
        guard let process else { return Run(outcome: .unavailable("no worker")) }
        let text = Array(scenario.description.utf8)
        let header = Array(
            (checking.map { "check \($0) \(text.count)\n" }
                ?? "run \(traceTail > 0 ? 1 : 0) \(text.count)\n").utf8)
        var run = Run(outcome: .completed)
        var tail: [(instant: Instant, text: String)] = []
        guard process.send(header + text) else { return died(process, run) }
        var watch = HangWatch(pid: process.pid, timeout: caseTimeoutSeconds)
        watch.started(0)
        while true {
            switch process.readLine(until: watch.nextCheck()) {
            case .line("ok"):
                return run
            case .line(let line) where line.hasPrefix("error "):
                return Run(outcome: .unavailable(String(line.dropFirst(6))))
            case .line("b"):
                run.inEngineCallback = true
            case .line("e"):
                run.inEngineCallback = false
            case .line(let line) where line.hasPrefix("l "):
                run.log.append(String(line.dropFirst(2)))
            case .line(let line) where line.hasPrefix("v "):
                run.violationCount = Int(line.dropFirst(2))
            case .line(let line) where line.hasPrefix("t "):
                let parts = line.dropFirst(2).split(separator: " ", maxSplits: 1)
                let nanoseconds = parts.first.flatMap { Int64($0) } ?? 0
                tail.append(
                    (
                        Instant(nanosecondsSinceStart: nanoseconds),
                        parts.dropFirst().first.map(String.init) ?? ""
                    ))
                if tail.count > 2 * traceTail { tail.removeFirst(tail.count - traceTail) }
                run.traceTail = Array(tail.suffix(traceTail))
            case .line:
                continue
            case .end:
                return died(process, run)
            case .timeout:
                guard let hang = watch.hung() else { continue }
                process.kill()
                process.wait()
                run.outcome = .hung
                run.hang = hang.describe(timeout: caseTimeoutSeconds)
                run.message = lastWords()
                discard()
                return run
            }
        }
    }

    /// Ends the worker, if one runs.
    package func stop() {
        if let process {
            process.closeInput()
            process.wait()
        }
        discard()
    }

    private func died(_ process: WorkerProcess, _ run: Run) -> Run {
        var run = run
        run.outcome = .died(process.wait())
        run.message = lastWords()
        discard()
        return run
    }

    private func start() throws {
        processCount += 1
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
            "lifeline-worker-\(getpid())-\(processCount).log")
        errorPath = path
        process = try WorkerProcess(
            executable: executable, arguments: arguments, pipesStandardStreams: true,
            eventStream: false, standardErrorPath: path,
            environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    private func discard() {
        process = nil
        if let errorPath { try? FileManager.default.removeItem(atPath: errorPath) }
        errorPath = nil
    }

    /// The last line the worker wrote on standard error that says why it stopped.
    private func lastWords() -> String? {
        guard let errorPath, let data = FileManager.default.contents(atPath: errorPath) else {
            return nil
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let fatal = lines.last { $0.contains("Fatal error") || $0.contains("error:") }
        return (fatal ?? lines.last).map { String($0.prefix(400)) }
    }

    // MARK: - The worker's side

    /// The tool's hidden subcommand that serves as a worker.
    package static let subcommand = "__case-worker"

    /// The worker's loop: reads requests on standard input until it ends, runs each scenario
    /// (which may name one of `engines`) and answers on standard output. Returns the exit
    /// status: 0 at the end of its input, 2 for a request it cannot read.
    package static func serve(engines: [CustomEngine]) -> Int32 {
        let reader = LineReader(0)
        while case .line(let header) = reader.readLine() {
            let words = header.split(separator: " ")
            guard words.count == 3, words[0] == "run" || words[0] == "check",
                let count = Int(words[2]), let bytes = reader.readBytes(count)
            else {
                say(
                    "error a request is 'run TAIL BYTES' or 'check INVARIANT BYTES' and the "
                        + "scenario's text\n")
                return 2
            }
            let checked = words[0] == "check" ? String(words[1]) : nil
            let scenario: Scenario
            do {
                scenario = try Scenario(
                    parsing: String(decoding: bytes, as: UTF8.self), path: "worker",
                    engines: engines)
            } catch {
                say("error \(error)".replacingOccurrences(of: "\n", with: " ") + "\n")
                continue
            }
            do {
                if let checked {
                    try check(scenario, invariant: checked)
                } else if words[1] == "1" {
                    try runStreaming(scenario)
                } else {
                    _ = try scenario.record(keepsNarration: false)
                }
            } catch {
                say("error \(error)".replacingOccurrences(of: "\n", with: " ") + "\n")
                continue
            }
            say("ok\n")
        }
        return 0
    }

    /// A `check` request for an invariant the worker does not know.
    struct UnknownInvariant: Error, CustomStringConvertible {
        var name: String
        var description: String { "no built-in invariant is called '\(name)'" }
    }

    /// Runs `scenario` and writes its app log (`l`) and the violations of `invariant` (`v`).
    static func check(_ scenario: Scenario, invariant name: String) throws {
        let record = try scenario.record(keepsNarration: false)
        let invariants = (Invariant.builtIn + Invariant.advice).filter { $0.name == name }
        guard !invariants.isEmpty else { throw UnknownInvariant(name: name) }
        for index in record.log.indices {
            say(
                "l " + record.log[index].description.replacingOccurrences(of: "\n", with: " ")
                    + "\n")
        }
        say("v \(record.violations(of: invariants).count)\n")
    }

    /// Runs `scenario` as `Scenario.record()` does, writing every delivery and every engine
    /// callback's start and end to standard output as it happens.
    static func runStreaming(_ scenario: Scenario) throws {
        let configuration = try scenario.worldConfiguration()
        let engine = scenario.engine
        EngineCallbackObserver.observe = { begins in say(begins ? "b\n" : "e\n") }
        defer { EngineCallbackObserver.observe = nil }
        var world = World(configuration, trace: StreamingTrace()) { engine.make() }
        for event in scenario.events {
            world.schedule(event.event, at: .start + event.at)
        }
        world.run(until: .start + scenario.horizon)
    }

    /// Writes `text` at once (no buffering: the process may die right after).
    static func say(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes {
                write(1, $0.baseAddress, $0.count)
            }
            if written <= 0 { return }
            offset += written
        }
        bytes.removeAll()
    }

    /// Every delivery as a `t` line.
    final class StreamingTrace: TraceSink {
        func record(instant: Instant, actor: ActorID, message: consuming WorldMessage) {
            let text = "\(actor) \(message)".replacingOccurrences(of: "\n", with: " ")
            CaseWorker.say("t \(instant.nanosecondsSinceStart) \(text)\n")
        }
    }
}
