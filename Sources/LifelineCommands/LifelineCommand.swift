// The `lifeline` command-line tool (layer 6): subcommands, help, and exit codes.
import Foundation

/// Where a command writes: the standard streams in the tool, buffers in tests.
public struct CommandOutput {
    public var standard: (String) -> Void
    public var error: (String) -> Void
    /// Whether a long command catches Ctrl-C (SIGINT) to end cleanly with what it has so far:
    /// true for the process's own streams, false in tests (which run in-process).
    public var catchesInterrupt: Bool

    public init(
        standard: @escaping (String) -> Void, error: @escaping (String) -> Void,
        catchesInterrupt: Bool = false
    ) {
        self.standard = standard
        self.error = error
        self.catchesInterrupt = catchesInterrupt
    }

    /// The process's standard output and standard error.
    public static var process: CommandOutput {
        CommandOutput(
            standard: { print($0) },
            error: { text in
                FileHandle.standardError.write(Data((text + "\n").utf8))
            }, catchesInterrupt: true)
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

    /// Runs the tool on `arguments` (without the program name), writing to the process streams.
    public static func main(arguments: [String]) -> Int32 {
        run(arguments: arguments, output: .process)
    }

    /// Runs the tool on `arguments`, writing to `output`; returns the exit code.
    public static func run(arguments: [String], output: CommandOutput) -> Int32 {
        do {
            return try dispatch(arguments, output: output)
        } catch let error as UsageError {
            output.error("lifeline: \(error.message)\n\n\(usage(for: arguments))")
            return 2
        } catch let error as InputError {
            output.error("lifeline: \(error)")
            return 2
        } catch {
            output.error("lifeline: \(error)")
            return 1
        }
    }

    static func dispatch(_ arguments: [String], output: CommandOutput) throws -> Int32 {
        guard let command = arguments.first else { throw UsageError("no command given") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            output.standard(usage)
            return 0
        default:
            if let single = commands.first(where: { $0.name == command }) {
                var reader = ArgumentReader(rest)
                if reader.wantsHelp() {
                    output.standard(single.usage)
                    return 0
                }
                return try single.run(&reader, output)
            }
            guard let group = groups.first(where: { $0.name == command }) else {
                throw UsageError("unknown command '\(command)'")
            }
            return try group.run(rest, output: output)
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
    func run(_ arguments: [String], output: CommandOutput) throws -> Int32 {
        guard let which = arguments.first else {
            throw UsageError("\(missing): \(subcommands.map(\.name).joined(separator: ", "))")
        }
        guard let subcommand = subcommands.first(where: { $0.name == which }) else {
            throw UsageError("unknown \(noun) '\(which)'")
        }
        var reader = ArgumentReader(Array(arguments.dropFirst()))
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
