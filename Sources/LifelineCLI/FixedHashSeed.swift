// The process's hash seed (layer 6): the `lifeline` command runs with the Swift runtime's
// deterministic hashing, so an app's Dictionary order is the same in every process.
import Foundation

/// Starts the command again with `SWIFT_DETERMINISTIC_HASHING=1` when it was started without.
///
/// The runtime draws a random seed for every hash at start-up unless that variable is set then,
/// so an app that iterates a `Dictionary` or `Set` (an encoder writing its keys, a loop over
/// its regions) can act differently in two processes: the fuzz's worker, the fresh process
/// that confirms a failure, and the `replay` a team runs next week. Every world already makes
/// a table's order independent of its address (`HashTableOrder`); this fixes the seed as
/// well, so a trace is the same in every process. The worker processes inherit the variable.
/// Where the command cannot start itself again it runs as it is.
enum FixedHashSeed {
    static let variable = "SWIFT_DETERMINISTIC_HASHING"

    /// Replaces this process with the same command and the variable set, unless it is set.
    static func apply() {
        guard ProcessInfo.processInfo.environment[variable] == nil else { return }
        #if os(Linux)
            let executable = "/proc/self/exe"
        #else
            guard let executable = Bundle.main.executablePath else { return }
        #endif
        setenv(variable, "1", 1)
        execv(executable, CommandLine.unsafeArgv)
        // Only reached when the command could not be started again.
        unsetenv(variable)
    }
}
