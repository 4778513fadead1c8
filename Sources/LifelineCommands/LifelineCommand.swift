// The `lifeline` command-line tool (layer 6): subcommands, help, and exit codes.
import EngineMutants
import Engines
import Foundation
import Fuzzing
import World

/// Where a command writes: the standard streams in the tool, buffers in tests.
public struct CommandOutput {
    public var standard: (String) -> Void
    public var error: (String) -> Void
    /// Whether a long command catches Ctrl-C (SIGINT) to end cleanly with what it has so far:
    /// true for the process's own streams, false in tests (which run in-process).
    public var catchesInterrupt: Bool
    /// The executable `lifeline fuzz` starts again as its worker processes (this tool, which
    /// then has the same engines), so that a crash or a hang in a case ends only a worker; nil
    /// runs every case in this process (tests, which run the command in-process).
    public var workerExecutable: String?
    /// The tool's name in the commands it prints (`replay: NAME replay PATH`): the name it was
    /// run by, so that a team's own executable (which alone has the team's engines) names
    /// itself.
    public var toolName: String

    public init(
        standard: @escaping (String) -> Void, error: @escaping (String) -> Void,
        catchesInterrupt: Bool = false, workerExecutable: String? = nil,
        toolName: String = "lifeline"
    ) {
        self.standard = standard
        self.error = error
        self.catchesInterrupt = catchesInterrupt
        self.workerExecutable = workerExecutable
        self.toolName = toolName
    }

    /// The process's standard output and standard error.
    public static var process: CommandOutput {
        CommandOutput(
            standard: { print($0) },
            error: { text in
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }, catchesInterrupt: true, workerExecutable: WorkerProcess.currentExecutable,
            toolName: CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }
                .flatMap { $0.isEmpty ? nil : $0 } ?? "lifeline")
    }
}

/// The `lifeline` tool: parses the words and options, runs the subcommand, returns the exit
/// code: 0 on success, 1 when the run found a failure (or, for the experiments and
/// benchmarks, could not read a file), 2 on bad usage (with the usage printed) and on a
/// scenario or corpus that cannot be read or written (`InputError`).
public enum LifelineCommand {
    /// The subcommands by group (`lifeline experiment …`, `lifeline bench …`): the one list the
    /// dispatcher, the help text and the usage errors are all made from.
    static let groups = [
        CommandGroup(
            name: "experiment", noun: "experiment", missing: "experiment needs a name",
            subcommands: ExperimentCommand.subcommands),
        CommandGroup(
            name: "bench", noun: "benchmark", missing: "bench needs a benchmark",
            subcommands: BenchCommand.subcommands),
        CommandGroup(
            name: "corpus", noun: "corpus command", missing: "corpus needs a command",
            subcommands: CorpusCommand.subcommands),
    ]

    /// The commands that are one word (`lifeline engines`, `lifeline run FILE`).
    static let commands: [Subcommand] = [
        FuzzCommand.command, RunCommand.command, ReplayCommand.command, EnginesCommand.command,
        SweepCommand.command, DiffCommand.command,
    ]

    /// `lifeline help`: every command, then every subcommand of every group, one line each,
    /// then `help`.
    public static let usage: String = {
        let rows =
            commands.map { ($0.name, $0.summary) }
            + groups.flatMap { group in
                group.subcommands.map { ("\(group.name) \($0.name)", $0.summary) }
            } + [("help", "this text")]
        let width = rows.map(\.0.count).max()! + 3
        let lines = rows.map { words, summary in
            "  " + words + String(repeating: " ", count: width - words.count) + summary
        }
        return
            ([
                "lifeline: a deterministic simulation of iOS's lifecycle for location-tracking apps",
                "", "usage: lifeline <command> [options]", "", "commands:",
            ] + lines + ["", "Run 'lifeline <command> --help' for a command's options."]).joined(
                separator: "\n")
    }()

    /// Runs the tool on `arguments` (without the program name), writing to the process streams,
    /// with a team's `engines` besides the built-in ones.
    public static func main(arguments: [String], engines: [CustomEngine] = []) -> Int32 {
        run(arguments: arguments, output: .process, engines: engines)
    }

    /// Runs the tool on `arguments`, writing to `output`, with a team's `engines` besides the
    /// built-in ones; returns the exit code. Engines whose names clash (with each other, with a
    /// built-in engine or a mutant) or are not one word are bad input: exit 2, naming them and
    /// every known name.
    public static func run(
        arguments: [String], output: CommandOutput, engines: [CustomEngine] = []
    ) -> Int32 {
        do {
            try checkNames(of: engines)
            return try dispatch(arguments, output: output, engines: engines)
        } catch let error as UsageError {
            output.error("lifeline: \(error.message)\n\n\(usage(for: arguments))")
            return 2
        } catch let error as InputError {
            output.error("lifeline: \(error)")
            return 2
        } catch let status as ExitStatus {
            return status.code
        } catch let loop as ModelLoop {
            output.error("lifeline: \(loop)")
            return modelLoopStatus
        } catch let finding as ModelLoopFinding {
            output.error("lifeline: \(finding)")
            return modelLoopStatus
        } catch {
            output.error("lifeline: \(error)")
            return 1
        }
    }

    /// The exit status of a run stopped by a loop in Lifeline's own model (`ModelLoop`):
    /// Lifeline's error, distinct from 1 (a failure of the app) and from every other status.
    public static let modelLoopStatus: Int32 = 4

    /// Fails on a custom engine's name that is empty, not one word, or taken (by a built-in
    /// engine, a mutant or an earlier custom engine), with every known name.
    static func checkNames(of engines: [CustomEngine]) throws {
        for (index, engine) in engines.enumerated() {
            let problem: String?
            if engine.name.isEmpty || engine.name.contains(where: \.isWhitespace) {
                problem = "is not one word"
            } else if EngineChoice(name: engine.name) != nil {
                problem = "is a built-in engine's name"
            } else if engines[..<index].contains(where: { $0.name == engine.name }) {
                problem = "is registered twice"
            } else {
                problem = nil
            }
            guard let problem else { continue }
            throw InputError(
                "the custom engine '\(engine.name)' \(problem); engine names must differ: "
                    + knownEngineNames(engines))
        }
    }

    /// Every engine name the tool knows, for an error: the built-in ones, the mutants and the
    /// team's.
    static func knownEngineNames(_ engines: [CustomEngine]) -> String {
        let builtIn = EngineChoice.all.map(\.name).joined(separator: ", ")
        let custom = engines.map(\.name).joined(separator: ", ")
        return "built-in \(builtIn)" + (engines.isEmpty ? "" : "; custom \(custom)")
    }

    static func dispatch(
        _ arguments: [String], output: CommandOutput, engines: [CustomEngine] = []
    ) throws -> Int32 {
        guard let command = arguments.first else { throw UsageError("no command given") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            output.standard(usage)
            return 0
        case CaseWorker.subcommand:
            // Hidden: a worker process of `lifeline fuzz` (`CaseWorker`), not for people.
            return CaseWorker.serve(engines: engines)
        default:
            if let single = commands.first(where: { $0.name == command }) {
                var reader = ArgumentReader(rest, engines: engines)
                if reader.wantsHelp() {
                    output.standard(single.usage)
                    return 0
                }
                return try single.run(&reader, output)
            }
            guard let group = groups.first(where: { $0.name == command }) else {
                throw UsageError("unknown command '\(command)'")
            }
            return try group.run(rest, output: output, engines: engines)
        }
    }

    /// The usage text of the subcommand `arguments` name, or the tool's.
    static func usage(for arguments: [String]) -> String {
        if arguments.first == "bench" {
            return BenchCommand.usage(for: Array(arguments.dropFirst()))
        }
        if arguments.first == "experiment" { return ExperimentCommand.usage }
        if arguments.first == "corpus" { return CorpusCommand.usage }
        if let single = commands.first(where: { $0.name == arguments.first }) {
            return single.usage
        }
        return usage
    }
}

/// A word of the tool that takes a subcommand (`experiment`, `bench`): how its errors name a
/// subcommand, and its subcommands.
struct CommandGroup: Sendable {
    var name: String
    /// What a subcommand is called in errors ("unknown benchmark 'x'").
    var noun: String
    /// The error when no subcommand is given; the names follow it.
    var missing: String
    var subcommands: [Subcommand]

    /// Runs the subcommand that `arguments` names (its options follow its name), or prints its
    /// usage for `--help`.
    func run(
        _ arguments: [String], output: CommandOutput, engines: [CustomEngine] = []
    ) throws -> Int32 {
        guard let which = arguments.first else {
            throw UsageError("\(missing): \(subcommands.map(\.name).joined(separator: ", "))")
        }
        guard let subcommand = subcommands.first(where: { $0.name == which }) else {
            throw UsageError("unknown \(noun) '\(which)'")
        }
        var reader = ArgumentReader(Array(arguments.dropFirst()), engines: engines)
        if reader.wantsHelp() {
            output.standard(subcommand.usage)
            return 0
        }
        return try subcommand.run(&reader, output)
    }
}

/// One subcommand of a group: its name, its line in `lifeline help`, its usage text, and the
/// function that parses its options and runs it.
struct Subcommand: Sendable {
    var name: String
    var summary: String
    var usage: String
    var run: @Sendable (inout ArgumentReader, CommandOutput) throws -> Int32
}
