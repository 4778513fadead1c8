// The `lifeline` command-line tool (layer 6): subcommands, help, and exit codes.
import EngineMutants
import Engines
import Foundation
import Fuzzing
import World

/// Where a command writes: the standard streams in the tool, buffers in tests.
package struct CommandOutput {
    package var standard: (String) -> Void
    package var error: (String) -> Void
    /// Whether a long command catches Ctrl-C (SIGINT) to end cleanly with what it has so far:
    /// true for the process's own streams, false in tests (which run in-process).
    package var catchesInterrupt: Bool
    /// The executable `lifeline fuzz` starts again as its worker processes (this tool, which
    /// then has the same engines), so that a crash or a hang in a case ends only a worker; nil
    /// runs every case in this process (tests, which run the command in-process).
    package var workerExecutable: String?
    /// The tool's name in the commands it prints (`replay: NAME replay PATH`): the name it was
    /// run by, so that a team's own executable (which alone has the team's engines) names
    /// itself.
    package var toolName: String

    package init(
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

    /// Writes `message` to standard error after the tool's name (`lifeline: …`), as every
    /// error and warning of the tool is written.
    func problem(_ message: String) {
        error("\(toolName): \(message)")
    }

    /// A help text written for `lifeline` with the tool's own name in its place (a team's tool
    /// built with `LifelineCLI.main(engines:)` says its own name), the synopsis lines under a
    /// `usage:` line shifted so that they stay aligned.
    func naming(_ text: String) -> String {
        guard toolName != "lifeline" else { return text }
        let shift = toolName.count - "lifeline".count
        var inSynopsis = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            if line.hasPrefix("usage: lifeline ") {
                inSynopsis = true
            } else if line.isEmpty {
                inSynopsis = false
            } else if inSynopsis, line.hasPrefix(" ") {
                let spaces = line.prefix(while: { $0 == " " }).count
                line =
                    String(repeating: " ", count: max(1, spaces + shift))
                    + line.dropFirst(spaces)
            }
            return Self.replacingToolName(in: line, with: toolName)
        }.joined(separator: "\n")
    }

    /// `line` with every word `lifeline` that names the tool (followed by a space or a colon,
    /// not part of a longer word) replaced by `name`.
    static func replacingToolName(in line: String, with name: String) -> String {
        var result = ""
        var rest = Substring(line)
        while let range = rest.range(of: "lifeline") {
            let before = rest[..<range.lowerBound].last ?? result.last
            let after = rest[range.upperBound...].first
            let standsAlone =
                !(before.map { $0.isLetter || $0.isNumber || "-_./".contains($0) } ?? false)
                && (after == " " || after == ":")
            result += rest[..<range.lowerBound] + (standsAlone ? name : "lifeline")
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The process's standard output and standard error.
    package static var process: CommandOutput {
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
/// code, one per kind of outcome in every command:
/// 0 success; 1 the run found a failure (an invariant broken, a run that changed, a benchmark
/// below its bar); 2 bad usage (printed with the usage) or bad input: a file that cannot be
/// read, is too large (`InputLimit`) or is not what was expected, an output that cannot be
/// written; 3 inconclusive (`fuzz`); 130 interrupted. Anything else is the tool's own error
/// (exit 70, EX_SOFTWARE), never a verdict on the app.
package enum LifelineCommand {
    /// The tool's version, printed by `--version` with the corpus format it reads and writes.
    static let version = "0.1.0"

    /// The exit code of the tool's own error: an error no command turned into bad input
    /// (sysexits' EX_SOFTWARE).
    static let internalErrorCode: Int32 = 70

    /// The subcommands by group (`lifeline experiment …`, `lifeline bench …`): the one list the
    /// dispatcher, the help text and the usage errors are all made from.
    static let groups = [
        CommandGroup(
            name: "experiment", noun: "experiment", nouns: "experiments",
            missing: "experiment needs a name", subcommands: ExperimentCommand.subcommands),
        CommandGroup(
            name: "bench", noun: "benchmark", nouns: "benchmarks",
            missing: "bench needs a benchmark", subcommands: BenchCommand.subcommands),
        CommandGroup(
            name: "corpus", noun: "corpus command", nouns: "corpus commands",
            missing: "corpus needs a command", subcommands: CorpusCommand.subcommands),
    ]

    /// The commands that are one word (`lifeline engines`, `lifeline run FILE`).
    static let commands: [Subcommand] = [
        FuzzCommand.command, RunCommand.command, ReplayCommand.command, EnginesCommand.command,
        SweepCommand.command, DiffCommand.command,
    ]

    /// `lifeline help`: every command, then every subcommand of every group, one line each,
    /// then `help`.
    package static let usage: String = {
        let rows =
            commands.map { ($0.name, $0.summary) }
            + groups.flatMap { group in
                group.subcommands.map { ("\(group.name) \($0.name)", $0.summary) }
            } + [("help [COMMAND]", "this text, or a command's")]
        return
            ([
                "lifeline: a deterministic simulation of iOS's lifecycle for location-tracking apps",
                "", "usage: lifeline <command> [options]", "", "commands:",
            ] + aligned(rows) + [
                "", "options:", "  --help, -h   this text", "  --version    the version",
                "", "exit codes (every command):",
                "  0    done; nothing failed",
                "  1    a failure found: an invariant broken, an outcome changed, a bar missed",
                "  2    bad usage or input: an option, or a file unreadable, too large or wrong",
                "  3    inconclusive (fuzz): the cases run cannot vouch for a verdict",
                "  70   Lifeline's own error, never a verdict on the app (its model looped, say)",
                "  130  interrupted by Ctrl-C",
                "",
                "Run 'lifeline help <command>' or 'lifeline <command> --help' for a command's "
                    + "options.",
            ]).joined(separator: "\n")
    }()

    /// `rows` as lines of a help text: two spaces, the words, then the summaries in a column.
    static func aligned(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max()! + 3
        return rows.map { words, summary in
            "  " + words + String(repeating: " ", count: width - words.count) + summary
        }
    }

    /// `--version`: the tool's name and version, and the corpus format it reads and writes; a
    /// team's own tool says it is built on Lifeline.
    static func versionLine(toolName: String) -> String {
        let format = "corpus format \(FuzzCorpus.formatVersion)"
        return toolName == "lifeline"
            ? "lifeline \(version) (\(format))"
            : "\(toolName) (Lifeline \(version), \(format))"
    }

    /// Runs the tool on `arguments` (without the program name), writing to the process streams,
    /// with a team's `engines` besides the built-in ones.
    package static func main(arguments: [String], engines: [CustomEngine] = []) -> Int32 {
        run(arguments: arguments, output: .process, engines: engines)
    }

    /// Runs the tool on `arguments`, writing to `output`, with a team's `engines` besides the
    /// built-in ones; returns the exit code. Engines whose names clash (with each other, with a
    /// built-in engine or a mutant) or are not one word are bad input: exit 2, naming them and
    /// every known name.
    package static func run(
        arguments: [String], output: CommandOutput, engines: [CustomEngine] = []
    ) -> Int32 {
        do {
            try checkNames(of: engines)
            return try dispatch(arguments, output: output, engines: engines)
        } catch let error as UsageError {
            output.problem("\(error.message)\n\n\(output.naming(synopsis(for: arguments)))")
            return 2
        } catch let error as InputError {
            output.problem("\(error)")
            return 2
        } catch let error as any BadInput {
            output.problem("\(error)")
            return 2
        } catch let status as ExitStatus {
            return status.code
        } catch  where error is ModelLoop || error is ModelLoopFinding {
            // Lifeline's own error, which says so itself ("not the app's fault").
            output.problem("\(error)")
            return internalErrorCode
        } catch {
            output.problem("internal error: \(error)")
            return internalErrorCode
        }
    }

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
            let topic = command == "help" ? rest : []
            output.standard(output.naming(try helpText(for: topic)))
            return 0
        case "--version":
            guard rest.isEmpty else { throw UsageError("--version takes no arguments") }
            output.standard(versionLine(toolName: output.toolName))
            return 0
        case CaseWorker.subcommand:
            // Hidden: a worker process of `lifeline fuzz` (`CaseWorker`), not for people.
            return CaseWorker.serve(engines: engines)
        default:
            if let single = commands.first(where: { $0.name == command }) {
                var reader = ArgumentReader(rest, engines: engines)
                if reader.wantsHelp() {
                    output.standard(output.naming(single.usage))
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

    /// `lifeline help WORDS…`: the usage of the command or subcommand the words name, or the
    /// tool's for none.
    /// - Throws: `UsageError` for words that name no command.
    static func helpText(for words: [String]) throws -> String {
        guard let first = words.first, words != ["help"] else { return usage }
        if let single = commands.first(where: { $0.name == first }), words.count == 1 {
            return single.usage
        }
        if let group = groups.first(where: { $0.name == first }) {
            guard words.count > 1 else { return group.usage }
            if let subcommand = group.subcommands.first(where: { $0.name == words[1] }),
                words.count == 2
            {
                return subcommand.usage
            }
        }
        throw UsageError("help: no command is called '\(words.joined(separator: " "))'")
    }

    /// What a mistake in `arguments` is printed with, as git and swift do: the synopsis (the
    /// `usage:` lines) of the subcommand they name, else of their group or command, else of
    /// the tool, and where the whole help is.
    static func synopsis(for arguments: [String]) -> String {
        var words: [String] = []
        var text = usage
        if let single = commands.first(where: { $0.name == arguments.first }) {
            (words, text) = ([single.name], single.usage)
        } else if let group = groups.first(where: { $0.name == arguments.first }) {
            (words, text) = ([group.name], group.usage)
            let name = arguments.dropFirst().first
            if let subcommand = group.subcommands.first(where: { $0.name == name }) {
                (words, text) = ([group.name, subcommand.name], subcommand.usage)
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let synopsis = lines.drop { !$0.hasPrefix("usage: ") }.prefix { !$0.isEmpty }
        return
            (synopsis + [
                "", "Run 'lifeline \((["help"] + words).joined(separator: " "))' for more.",
            ])
            .joined(separator: "\n")
    }
}

/// A word of the tool that takes a subcommand (`experiment`, `bench`): how its errors name a
/// subcommand, and its subcommands.
struct CommandGroup: Sendable {
    var name: String
    /// What a subcommand is called in errors ("unknown benchmark 'x'").
    var noun: String
    /// The same, more than one ("benchmarks:" over the list in the group's usage).
    var nouns: String
    /// The error when no subcommand is given; the names follow it.
    var missing: String
    var subcommands: [Subcommand]

    /// `lifeline GROUP --help`: the subcommands with their summaries.
    var usage: String {
        ([
            "usage: lifeline \(name) <\(noun)> [options]", "", "\(nouns):",
        ] + LifelineCommand.aligned(subcommands.map { ($0.name, $0.summary) }) + [
            "",
            "Run 'lifeline help \(name) <\(noun)>' or 'lifeline \(name) <\(noun)> --help' for "
                + "its options.",
        ]).joined(separator: "\n")
    }

    /// Runs the subcommand that `arguments` names (its options follow its name), or prints its
    /// usage for `--help`, or the group's for `--help` in place of a subcommand.
    func run(
        _ arguments: [String], output: CommandOutput, engines: [CustomEngine] = []
    ) throws -> Int32 {
        guard let which = arguments.first else {
            throw UsageError("\(missing): \(subcommands.map(\.name).joined(separator: ", "))")
        }
        if which == "--help" || which == "-h" {
            guard arguments.count == 1 else {
                throw UsageError("'\(name) --help' takes nothing after it")
            }
            output.standard(output.naming(usage))
            return 0
        }
        guard let subcommand = subcommands.first(where: { $0.name == which }) else {
            throw UsageError(
                which.hasPrefix("-") ? "unknown option '\(which)'" : "unknown \(noun) '\(which)'")
        }
        var reader = ArgumentReader(Array(arguments.dropFirst()), engines: engines)
        if reader.wantsHelp() {
            output.standard(output.naming(subcommand.usage))
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
