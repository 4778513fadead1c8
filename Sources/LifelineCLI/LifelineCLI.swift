// The `lifeline` command as a library (layer 6): a team's own executable runs every command
// with its engines added, in three lines.
import Engines
import Foundation
import LifelineCommands

/// The `lifeline` tool with a team's engines besides the built-in ones: `run`, `fuzz`,
/// `replay`, `engines`, `sweep`, `diff` and `experiment matrix` take `--engine NAME` for each,
/// and scenario files and corpus entries can name them. A team's package needs a
/// `main.swift` of three lines:
///
///     import LifelineCLI
///     LifelineCLI.main(engines: [myTracker])
///
/// The fuzzer runs cases in worker processes that are this same executable started again (a
/// hidden subcommand), so an engine that traps or hangs is a finding (`no-crash`,
/// `no-hang`), not the end of the run; the workers know the same engines.
public enum LifelineCLI {
    /// Runs the command that `CommandLine.arguments` names with `engines` registered, and exits
    /// with its status (2 for engine names that clash, listing every known name). The process
    /// runs with a fixed hash seed (`FixedHashSeed`) and keeps memory its runs free for the
    /// next (`HeapRetention`).
    public static func main(engines: [CustomEngine]) -> Never {
        FixedHashSeed.apply()
        HeapRetention.apply()
        exit(
            LifelineCommand.main(
                arguments: Array(CommandLine.arguments.dropFirst()), engines: engines))
    }
}
