// No false pass and no finding lost, on the built tool as a separate process: a case slow in
// one worker never lets `lifeline fuzz` exit 0, and repeated Ctrl-C during a shrink still
// prints and saves the simplest failure found. Run on `lifeline-fixtures`, whose
// `slow-beside-others` engines spin at every launch in a process that runs cases side by side.
import Foundation
import Fuzzing
import Simulation
import Testing

/// Runs the fixture tool with its standard error joined to its output and sends it SIGINT each
/// time a line holds the next of `cues` (one Ctrl-C after the tool said it took the one before:
/// signals sent at once merge into one); how it ended, its lines, and the SIGINTs sent.
func runFixtureInterrupting(_ arguments: [String], cues: [String]) throws -> (
    termination: WorkerProcess.Termination, lines: [String], interrupts: Int
) {
    let process = try WorkerProcess(
        executable: fixtureTool, arguments: arguments, pipesStandardStreams: true,
        eventStream: false, standardErrorPath: nil, errorJoinsOutput: true)
    process.closeInput()
    var lines: [String] = []
    var interrupts = 0
    let deadline = WallClock.seconds() + 300
    reading: while true {
        switch process.readLine(until: deadline) {
        case .line(let line):
            lines.append(line)
            if interrupts < cues.count, line.contains(cues[interrupts]) {
                interrupts += 1
                kill(process.pid, SIGINT)
            }
        case .end: break reading
        case .timeout:
            process.kill()
            Issue.record("the fixture did not end within 300 s: \(arguments)")
            break reading
        }
    }
    return (process.wait(), lines, interrupts)
}

/// Off unless `LIFELINE_CRASH_TESTS=1`, as `CrashIsolationTests` (the same reads of a child's
/// pipe, and wall-clock timeouts); `.ci/run` sets it, and
/// `LIFELINE_CRASH_TESTS=1 swift test --filter VerdictTrustTests` runs them.
@Suite(
    "Verdicts a team can trust",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: fixtureTool)
            && ProcessInfo.processInfo.environment["LIFELINE_CRASH_TESTS"] != nil))
struct VerdictTrustTests {
    @Test("fuzz --jobs 2 with a case slow in one worker and clean on one thread exits 3, not 0")
    func slowCaseIsInconclusive() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runFixture([
            "fuzz", "--engine", "slow-beside-others", "--jobs", "2", "--cases", "4",
            "--case-timeout", "10", "--json", "--corpus", folder.path,
        ])
        #expect(!result.signalled, "\(result.error)")
        #expect(result.code == 3, "\(result.standard)\n\(result.error)")
        #expect(
            result.error.contains(
                "case 0 hung with --jobs 2, but not when the cases up to it ran again on one "
                    + "thread"), "\(result.error)")
        #expect(result.error.contains("lifeline-fixtures: inconclusive: slow-beside-others"))
        // The whole search ran again on one thread: every case asked for is counted.
        #expect(result.standard.contains("\"cases\": 4,"), "\(result.standard)")
        #expect(result.standard.contains("\"inconclusive\": \"case 0 hung"))
    }

    @Test("fuzz --jobs 2 with a slow case still finds the failure one thread finds, exit 1")
    func slowCaseHidesNoFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runFixture([
            "fuzz", "--engine", "slow-beside-others-mutant", "--jobs", "2", "--cases", "4",
            "--case-timeout", "10", "--json", "--corpus", folder.path,
        ])
        #expect(!result.signalled, "\(result.error)")
        #expect(result.code == 1, "\(result.standard)\n\(result.error)")
        #expect(result.standard.contains("\"invariant\": \"bounded-gaps\""), "\(result.standard)")
    }

    @Test("three Ctrl-Cs during a shrink: the simplest failure so far is printed and saved")
    func repeatedInterruptKeepsTheFinding() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // When the shrink began, when it is stopping, when it ends at once.
        let (termination, lines, interrupts) = try runFixtureInterrupting(
            [
                "fuzz", "--engine", "stores-nothing", "--long", "--jobs", "1", "--cases", "20",
                "--corpus", folder.path,
            ], cues: ["shrinking it", "Ctrl-C: stopping", "Ctrl-C again: ending at once"])
        let text = lines.joined(separator: "\n")
        #expect(interrupts == 3, "three Ctrl-Cs, each taken: \(text)")
        #expect(termination == .exited(1), "\(termination): \(text)")
        #expect(text.contains("FAIL stores-nothing: bounded-gaps"), "\(text)")
        #expect(text.contains("\nengine stores-nothing"), "the scenario is printed: \(text)")
        let replay = lines.first { $0.hasPrefix("replay: lifeline-fixtures replay ") }
        let path = replay.map { String($0.dropFirst("replay: lifeline-fixtures replay ".count)) }
        #expect(path.map { FileManager.default.fileExists(atPath: $0) } == true, "\(text)")
    }
}

extension VerdictTrustTests {
    @Test("a failure that a fresh process does not repeat is no-state-outliving-process")
    func failureConfirmedInAFreshProcess() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runFixture([
            "fuzz", "--engine", "leaks-after-many-launches", "--jobs", "1", "--cases", "200",
            "--corpus", folder.path,
        ])
        #expect(!result.signalled, "\(result.error)")
        #expect(result.code == 1, "\(result.standard)\n\(result.error)")
        #expect(
            result.standard.hasPrefix("FAIL leaks-after-many-launches: no-state-outliving-process"),
            "\(result.standard)")
        #expect(
            result.standard.contains(
                "failed in the fuzzing process but not when the same "
                    + "scenario ran in a fresh process: this process logged"),
            "\(result.standard)")
    }
}

extension VerdictTrustTests {
    @Test("Ctrl-C with no failure found ends the run with its summary, exit 130")
    func interruptWithoutFailure() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The first progress line: the search is under way.
        let (termination, lines, _) = try runFixtureInterrupting(
            [
                "fuzz", "--engine", "standard", "--jobs", "1", "--cases", "100000", "--corpus",
                folder.path,
            ], cues: ["standard: 100 cases"])
        let text = lines.joined(separator: "\n")
        #expect(termination == .exited(130), "\(text)")
        #expect(
            text.contains(
                "lifeline-fixtures: interrupted: the summary covers the cases run so far"))
        #expect(lines.contains { $0.hasPrefix("standard ") && $0.hasSuffix("ok  ") }, "\(text)")
    }
}
