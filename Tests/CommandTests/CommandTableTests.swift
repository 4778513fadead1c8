// The tool speaks like its peers, command by command: `CMD --help` and `help CMD` print the
// same usage once to standard output and exit 0; a bad option and a repeated option are usage
// errors on standard error, exit 2, naming the option; `--version`; the tool's own name.
import Engines
import Foundation
import Simulation
import Testing

@testable import LifelineCommands

/// Where a command's output goes.
enum Stream: String, Sendable { case standard, error }

/// One row of the table: a command's words, and arguments that give one of its options twice
/// (nil for a command that takes no option), which must be refused before anything runs,
/// naming that option.
struct CommandRow: Sendable, CustomTestStringConvertible {
    var words: [String]
    var repeated: (option: String, arguments: [String])?
    var testDescription: String { words.joined(separator: " ") }

    init(words: [String], repeated arguments: [String]?, option: String? = nil) {
        self.words = words
        repeated = arguments.map { (option ?? $0[0], $0) }
    }
}

/// Every command and subcommand of the tool, and the groups themselves. `tableCoversEvery
/// Command` checks that nothing the dispatcher knows is missing.
let commandTable: [CommandRow] = [
    CommandRow(words: ["fuzz"], repeated: ["--cases", "1", "--cases", "2"]),
    CommandRow(words: ["run"], repeated: ["--json", "--json", "a.scenario"]),
    CommandRow(words: ["replay"], repeated: nil),
    CommandRow(words: ["engines"], repeated: ["--json", "--json"]),
    CommandRow(
        words: ["sweep"],
        repeated: ["--param", "whenInUseGrace=1...2", "--seed", "1", "--seed", "2"],
        option: "--seed"),
    CommandRow(
        words: ["diff"],
        repeated: ["--policy", "iOS18", "--policy", "iOS26", "--jobs", "1", "--jobs", "2"],
        option: "--jobs"),
    CommandRow(words: ["experiment"], repeated: nil),
    CommandRow(words: ["experiment", "background"], repeated: ["--speed", "1", "--speed", "2"]),
    CommandRow(
        words: ["experiment", "relaunch"], repeated: ["--duration", "9", "--duration", "9"]),
    CommandRow(words: ["experiment", "info-plist"], repeated: ["--json", "--json"]),
    CommandRow(
        words: ["experiment", "matrix"], repeated: ["--engine", "session", "--engine", "all"]),
    CommandRow(words: ["bench"], repeated: nil),
    CommandRow(words: ["bench", "kernel"], repeated: ["--model", "1", "--model", "2"]),
    CommandRow(words: ["bench", "memory"], repeated: ["--timers", "1", "--timers", "1"]),
    CommandRow(words: ["bench", "shrink"], repeated: ["--set", "published", "--set=structural"]),
    CommandRow(words: ["bench", "day"], repeated: ["--days", "1", "--days", "2"]),
    CommandRow(words: ["bench", "gpx"], repeated: ["--points", "1", "--points", "2"]),
    CommandRow(words: ["bench", "drive"], repeated: ["--hours", "1", "--hours", "2"]),
    CommandRow(words: ["bench", "fuzz"], repeated: ["--seed", "1", "--seed", "2"]),
    CommandRow(words: ["corpus"], repeated: nil),
    CommandRow(words: ["corpus", "merge"], repeated: nil),
]

@Suite("Command table")
struct CommandTableTests {
    /// `runTool`'s result as (exit code, the one stream written, its text); a result that
    /// wrote to both streams has nil for the stream.
    static func outcome(_ arguments: [String]) -> (code: Int32, stream: Stream?, text: String) {
        let result = runTool(arguments)
        switch (result.standard.isEmpty, result.error.isEmpty) {
        case (false, true): return (result.code, .standard, result.standard)
        case (true, false): return (result.code, .error, result.error)
        default: return (result.code, nil, result.standard + result.error)
        }
    }

    @Test("--help: exit 0, the usage once on standard output", arguments: commandTable)
    func help(row: CommandRow) {
        let help = Self.outcome(row.words + ["--help"])
        #expect(help.code == 0 && help.stream == .standard, "\(help)")
        #expect(help.text.components(separatedBy: "usage: ").count == 2, "once: \(help.text)")
        #expect(help.text.contains("lifeline " + row.words.joined(separator: " ")))
        #expect(Self.outcome(row.words + ["-h"]).text == help.text)
    }

    @Test("help CMD: exit 0, the same text as CMD --help", arguments: commandTable)
    func helpCommand(row: CommandRow) {
        let help = Self.outcome(["help"] + row.words)
        #expect(help.code == 0 && help.stream == .standard, "\(help)")
        #expect(help.text == Self.outcome(row.words + ["--help"]).text)
        #expect(help.text != Self.outcome(["help"]).text, "not the tool's own help")
    }

    @Test(
        "a bad option: exit 2 on standard error, naming it, with the usage", arguments: commandTable
    )
    func badOption(row: CommandRow) {
        let bad = Self.outcome(row.words + ["--frobnicate"])
        #expect(bad.code == 2 && bad.stream == .error, "\(bad)")
        #expect(bad.text.hasPrefix("lifeline: unknown option '--frobnicate'"), "\(bad.text)")
        #expect(bad.text.components(separatedBy: "usage: ").count == 2, "usage once: \(bad.text)")
    }

    @Test(
        "an option given twice: exit 2 on standard error, naming it",
        arguments: commandTable.filter { $0.repeated != nil })
    func repeatedOption(row: CommandRow) throws {
        let (option, arguments) = try #require(row.repeated)
        let twice = Self.outcome(row.words + arguments)
        #expect(twice.code == 2 && twice.stream == .error, "\(twice)")
        #expect(
            twice.text.hasPrefix("lifeline: \(option) is given more than once; give it once"),
            "\(twice.text)")
    }

    @Test("the table holds every command and subcommand the dispatcher knows")
    func tableCoversEveryCommand() {
        let known =
            LifelineCommand.commands.map { [$0.name] }
            + LifelineCommand.groups.flatMap { group in
                [[group.name]] + group.subcommands.map { [group.name, $0.name] }
            }
        #expect(Set(known) == Set(commandTable.map(\.words)))
        #expect(commandTable.count == 21)
    }

    @Test("repeatable options stay repeatable: --only twice, --policy twice in diff")
    func repeatable() {
        var reader = ArgumentReader(["--only", "no-crash", "--only=bounded-gaps"])
        #expect((try? reader.texts("--only")) == ["no-crash", "bounded-gaps"])
        var once = ArgumentReader(["--seed", "1", "--seed=2"])
        #expect(throws: UsageError.self) { try once.text("--seed") }
    }

    @Test("help with words that name no command, and --version with arguments, exit 2")
    func helpMistakes() {
        let unknown = Self.outcome(["help", "frobnicate"])
        #expect(unknown.code == 2 && unknown.stream == .error)
        #expect(unknown.text.hasPrefix("lifeline: help: no command is called 'frobnicate'"))
        #expect(Self.outcome(["help", "bench", "nonesuch"]).code == 2)
        #expect(Self.outcome(["help", "run", "extra"]).code == 2)
        #expect(Self.outcome(["help", "help"]).text == Self.outcome(["help"]).text)
        #expect(Self.outcome(["--version", "extra"]).code == 2)
    }

    @Test("--version: the version and the corpus format, exit 0, on standard output")
    func version() {
        let version = Self.outcome(["--version"])
        #expect(version.code == 0 && version.stream == .standard)
        #expect(version.text == "lifeline \(LifelineCommand.version) (corpus format 1)\n")
    }

    @Test("a team's own tool says its own name in usage, errors and --version, aligned")
    func ownName() {
        final class Buffer: @unchecked Sendable {
            var standard = ""
            var error = ""
        }
        func run(_ arguments: [String]) -> (Int32, Buffer) {
            let buffer = Buffer()
            let output = CommandOutput(
                standard: { buffer.standard += $0 + "\n" }, error: { buffer.error += $0 + "\n" },
                toolName: "acme-tracker-check")
            return (LifelineCommand.run(arguments: arguments, output: output), buffer)
        }
        let (code, help) = run(["fuzz", "--help"])
        #expect(code == 0)
        let lines = help.standard.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("usage: acme-tracker-check fuzz [--engine NAME|all]"))
        // The synopsis's second line starts under the first's first option.
        let column = lines[0].distance(
            from: lines[0].startIndex, to: lines[0].range(of: "[--engine")!.lowerBound)
        #expect(
            lines[1].prefix(column).allSatisfy { $0 == " " }
                && lines[1].dropFirst(column).hasPrefix("["))
        #expect(
            !help.standard.contains("lifeline fuzz") && !help.standard.contains("lifeline corpus"))
        #expect(help.standard.contains("`acme-tracker-check corpus merge`"))
        let (badCode, bad) = run(["fuzz", "--frobnicate"])
        #expect(badCode == 2 && bad.error.hasPrefix("acme-tracker-check: unknown option"))
        let (_, top) = run(["help"])
        #expect(top.standard.contains("usage: acme-tracker-check <command>"))
        #expect(!top.standard.contains("lifeline "))
        let (_, version) = run(["--version"])
        #expect(
            version.standard.hasPrefix("acme-tracker-check (Lifeline \(LifelineCommand.version)"))
    }
}

@Suite("Bad input: exit 2 in every command, a large file refused unread")
struct BadInputExitTests {
    /// A file of `bytes` bytes, every one zero (sparse: nothing is written but its length).
    static func largeFile(_ folder: TemporaryFolder, _ name: String, bytes: UInt64) throws
        -> String
    {
        let path = try folder.write(name, "")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: bytes)
        try handle.close()
        return path
    }

    @Test("a 100 MB policy file is refused from its size before it is read, in every command")
    func largePolicyFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.largeFile(folder, "big.json", bytes: 100 << 20)
        for arguments in [
            ["experiment", "background", "--policy", path],
            ["experiment", "matrix", "--policy", path],
            ["diff", "--policy", path, "--policy", "iOS18"],
        ] {
            let result = runTool(arguments)
            #expect(result.code == 2 && result.standard.isEmpty, "\(arguments)")
            // Read, its zeros would be "not a policy file" at line 1.
            #expect(
                result.error
                    == "lifeline: --policy: \(path): 100.0 MiB is too large for a policy file: "
                    + "at most 1.0 MiB (nothing was read)\n", "\(result.error)")
        }
    }

    @Test("a scenario file and an Info.plist over their limits are refused unread")
    func largeScenarioAndInfoPlist() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scenario = try Self.largeFile(folder, "big.scenario", bytes: 17 << 20)
        let run = runTool(["run", scenario])
        #expect(run.code == 2 && run.error.contains("17.0 MiB is too large for a scenario file"))
        let plist = try Self.largeFile(folder, "Info.plist", bytes: 2 << 20)
        let fuzz = runTool(["fuzz", "--engine", "session", "--cases", "1", "--info-plist", plist])
        #expect(fuzz.code == 2 && fuzz.error.contains("2.0 MiB is too large for an Info.plist"))
    }

    @Test("a bad policy file exits 2 in experiment as in diff, its value quoted as JSON writes it")
    func badPolicyFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("preset.json", "{\"preset\": \"iOS99\"}")
        for arguments in [
            ["experiment", "info-plist", "--policy", path],
            ["diff", "--policy", path, "--policy", "iOS18"],
        ] {
            let result = runTool(arguments)
            #expect(result.code == 2, "\(arguments)")
            #expect(
                result.error.contains(
                    "'preset' expects one of measured, iOS16, iOS17, iOS18, iOS26, got \"iOS99\""))
            #expect(!result.error.contains("string("), "no Swift debug text: \(result.error)")
        }
    }

    @Test("counts read right: one entry, two entries, one run")
    func plurals() {
        #expect(PlainText.counted(1, "corpus entry", plural: "corpus entries") == "1 corpus entry")
        #expect(
            PlainText.counted(2, "corpus entry", plural: "corpus entries") == "2 corpus entries")
        #expect(PlainText.counted(1, "run") == "1 run" && PlainText.counted(0, "run") == "0 runs")
        #expect(
            DiffCommand.text([], names: ("a", "b"), caseCount: 1)
                == "a → b: 0 of 1 run change their outcome")
    }
}
