// The `lifeline` command-line tool (layer 6): subcommands, help, and exit codes.
import Foundation

/// Where a command writes: the standard streams in the tool, buffers in tests.
public struct CommandOutput {
    public var standard: (String) -> Void
    public var error: (String) -> Void

    public init(standard: @escaping (String) -> Void, error: @escaping (String) -> Void) {
        self.standard = standard
        self.error = error
    }

    /// The process's standard output and standard error.
    public static var process: CommandOutput {
        CommandOutput(
            standard: { print($0) },
            error: { text in
                FileHandle.standardError.write(Data((text + "\n").utf8))
            })
    }
}

/// The `lifeline` tool: parses the words and options, runs the subcommand, returns the exit
/// code: 0 on success, 1 when the run found a failure or could not read its input, 2 on bad
/// usage (with the usage printed).
public enum LifelineCommand {
    public static let usage = """
        lifeline: a deterministic simulation of iOS's lifecycle for location-tracking apps

        usage: lifeline <command> [options]

        commands:
          experiment background   source A's background table: four probes, fixes after leaving
          experiment relaunch     source A's relaunch table: launches during a drive
          experiment info-plist   the assertion without the location background mode
          bench kernel   the DES peer benchmark on the kernel (../shared/bench/des)
          bench memory   peak resident memory with many pending timers
          bench shrink   the shrinking challenges (../shared/bench/shrinking) on the explorer
          help           this text

        Run 'lifeline <command> --help' for a command's options.
        """

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
        case "bench":
            return try BenchCommand.run(rest, output: output)
        case "experiment":
            return try ExperimentCommand.run(rest, output: output)
        default:
            throw UsageError("unknown command '\(command)'")
        }
    }

    /// The usage text of the subcommand `arguments` name, or the tool's.
    static func usage(for arguments: [String]) -> String {
        if arguments.first == "bench" {
            return BenchCommand.usage(for: Array(arguments.dropFirst()))
        }
        if arguments.first == "experiment" { return ExperimentCommand.usage }
        return usage
    }
}
