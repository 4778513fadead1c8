// The command-line tool: help, usage errors with exit code 2, and the bench command's output.
import Engines
import Testing

@testable import LifelineCommands

/// Runs the tool on `arguments`, capturing what it prints.
func runTool(_ arguments: [String], engines: [CustomEngine] = [])
    -> (code: Int32, standard: String, error: String)
{
    final class Buffer {
        var standard = ""
        var error = ""
    }
    let buffer = Buffer()
    let output = CommandOutput(
        standard: { buffer.standard += $0 + "\n" }, error: { buffer.error += $0 + "\n" })
    let code = LifelineCommand.run(arguments: arguments, output: output, engines: engines)
    return (code, buffer.standard, buffer.error)
}

@Suite("Command line")
struct CommandLineTests {
    @Test("--help prints the usage and succeeds")
    func help() {
        let result = runTool(["--help"])
        #expect(result.code == 0)
        #expect(result.standard.contains("usage: lifeline"))
        let bench = runTool(["bench", "kernel", "--help"])
        #expect(bench.code == 0 && bench.standard.contains("--processes"))
    }

    @Test("help lists every subcommand the dispatcher accepts, and each one's --help works")
    func helpListsEverySubcommand() {
        let help = runTool(["help"])
        #expect(help.code == 0)
        let listed = help.standard.split(separator: "\n").map {
            $0.split(separator: " ").prefix(2).joined(separator: " ")
        }
        var count = 0
        for command in LifelineCommand.commands {
            #expect(
                listed.contains(where: { $0.hasPrefix(command.name) }),
                "'\(command.name)' is missing")
            let usage = runTool([command.name, "--help"])
            #expect(usage.code == 0 && usage.standard.contains("lifeline \(command.name)"))
            count += 1
        }
        for group in LifelineCommand.groups {
            for subcommand in group.subcommands {
                let words = "\(group.name) \(subcommand.name)"
                #expect(listed.contains(words), "'\(words)' is missing from lifeline help")
                let usage = runTool([group.name, subcommand.name, "--help"])
                #expect(usage.code == 0 && usage.standard.contains("lifeline \(words)"))
                count += 1
            }
        }
        // `fuzz`, `run`, `replay`, `engines`, `sweep`, `diff`, the seven benchmarks (day, drive,
        // gpx and fuzz included), the four experiments and `corpus merge`.
        #expect(count == 18)
        #expect(listed.contains("bench fuzz") && listed.contains("corpus merge"))
        #expect(listed.contains("bench day") && listed.contains("bench gpx"))
        #expect(listed.contains("bench drive"))
        #expect(listed.contains("experiment matrix"))
        #expect(runTool(["bench", "nonesuch"]).error.contains("unknown benchmark 'nonesuch'"))
        #expect(runTool(["experiment", "nonesuch"]).code == 2)
    }

    @Test(
        "bad usage exits with 2 and says what was wrong",
        arguments: [
            ([], "no command"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["bench"], "bench needs a benchmark"),
            (["bench", "kernel", "--modle", "2"], "unknown option '--modle'"),
            (
                ["bench", "kernel", "--model", "3"],
                "--model takes a whole number from 1 to 2, not '3'"
            ),
            (["bench", "kernel", "--events"], "--events needs a value"),
            (
                ["bench", "kernel", "--events", "-5"],
                "--events takes a whole number from 1 to 1000000000, not '-5'"
            ),
            (["bench", "kernel", "--seed", "x"], "--seed takes a whole number"),
            (["bench", "kernel", "--ordering", "pct:1"], "'pct:1' is not an ordering"),
            (["bench", "memory", "--timers", "0"], "--timers takes a whole number from 1"),
        ] as [([String], String)])
    func usageErrors(arguments: [String], message: String) {
        let result = runTool(arguments)
        #expect(result.code == 2)
        #expect(result.error.contains(message))
        #expect(result.error.contains("usage:"))
        #expect(result.standard.isEmpty)
    }

    @Test("bench kernel prints the peer's information line, then the events line last")
    func benchKernelOutput() {
        let result = runTool([
            "bench", "kernel", "--model", "2", "--events", "100000", "--trace-hash",
        ])
        #expect(result.code == 0)
        let lines = result.standard.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.contains("sim_time=75135125281") == true)
        #expect(lines.first?.contains("fired=49715 cancelled=50285") == true)
        #expect(lines.first?.contains("trace_hash=6265036be41c31cf") == true)
        #expect(lines.last?.hasPrefix("events=100000 wall_s=") == true)
        #expect(lines.last?.contains(" events_per_s=") == true)
    }
}

@Suite("bench shrink")
struct ShrinkBenchCommandTests {
    @Test("--json rows carry the median and maximum evaluations and each pass's counters")
    func json() {
        let result = runTool([
            "bench", "shrink", "--challenge", "difference", "--seeds", "5", "--json",
        ])
        #expect(result.code == 0)
        for key in [
            "\"medianEvaluations\": ", "\"maxEvaluations\": ", "\"maxOverMedian\": ",
            "\"passes\": {\"deleteSpans\": {\"accepted\": ", "\"shiftGroups\": ",
            "\"deleteElements\": ", "\"replaceWithDescendantResized\": ",
        ] {
            #expect(result.standard.contains(key), "\(key) in \(result.standard)")
        }
    }

    @Test("--set runs the published seven or our structural three")
    func sets() {
        let published = runTool(["bench", "shrink", "--set", "published", "--seeds", "2", "--json"])
        #expect(published.code == 0)
        #expect(published.standard.contains("\"snapshot_store\""))
        #expect(!published.standard.contains("\"heap\""))
        let structural = runTool([
            "bench", "shrink", "--set", "structural", "--seeds", "2", "--json",
        ])
        #expect(structural.standard.contains("\"heap\"") && !structural.standard.contains("bound5"))
        let wrong = runTool(["bench", "shrink", "--set", "mine"])
        #expect(wrong.code == 2 && wrong.error.contains("--set takes published or structural"))
    }

    @Test("--max-over-median fails a challenge whose worst run exceeds that multiple of its median")
    func worstCase() {
        let loose = runTool([
            "bench", "shrink", "--challenge", "reverse", "--seeds", "20", "--max-over-median", "20",
        ])
        #expect(loose.code == 0, "\(loose.error)")
        let tight = runTool([
            "bench", "shrink", "--challenge", "reverse", "--seeds", "20", "--max-over-median", "1",
        ])
        #expect(tight.code == 1)
        #expect(tight.error.contains("over --max-over-median 1 times its median"))
    }
}
