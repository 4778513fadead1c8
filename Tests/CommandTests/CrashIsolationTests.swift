// A crash is a finding: `lifeline fuzz` runs its cases in worker processes, so an engine that
// traps or hangs ends only a worker, and the case is reported as `no-crash` or `no-hang`,
// shrunk, saved and replayed. Run on `lifeline-fixtures`, a `lifeline` whose engines trap
// (`trapper`) and spin (`spinner`) on purpose, as a separate process.
import Foundation
import Fuzzing
import Simulation
import Testing

/// The fixture tool next to the test bundle (`swift build --build-tests` builds it).
let fixtureTool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("lifeline-fixtures").path

/// Runs the fixture tool; how it ended and what it printed (through `WorkerProcess`, whose
/// pipes are closed on exec, so that tests running side by side never hold each other's).
func runFixture(_ arguments: [String]) throws -> (
    code: Int32, signalled: Bool, standard: String, error: String
) {
    let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lifeline-fixture-\(UUID().uuidString).txt"
    ).path
    defer { try? FileManager.default.removeItem(atPath: errorPath) }
    let process = try WorkerProcess(
        executable: fixtureTool, arguments: arguments, pipesStandardStreams: true,
        eventStream: false, standardErrorPath: errorPath)
    process.closeInput()
    var lines: [String] = []
    // A bound, so that a pipe that never ends fails the test instead of hanging the run.
    let deadline = WallClock.seconds() + 300
    reading: while true {
        switch process.readLine(until: deadline) {
        case .line(let line): lines.append(line)
        case .end: break reading
        case .timeout:
            process.kill()
            Issue.record("the fixture's standard output did not end within 300 s: \(arguments)")
            break reading
        }
    }
    let termination = process.wait()
    let error = FileManager.default.contents(atPath: errorPath) ?? Data()
    var code: Int32 = -1
    if case .exited(let status) = termination { code = status }
    return (
        code, code == -1, lines.map { $0 + "\n" }.joined(), String(decoding: error, as: UTF8.self)
    )
}

/// Off unless `LIFELINE_CRASH_TESTS=1` (`.ci/run` sets it, with `VerdictTrustTests`): each test
/// starts the fixture tool, whose fuzz waits out wall-clock case timeouts, so a default
/// `swift test` leaves them to CI. Beside other suites their reads of the fixture's pipe end:
/// `WorkerProcess` makes its pipes and spawns under one lock (a child spawned at the same
/// moment would otherwise hold a pipe end open), and each read has a deadline that fails the
/// test rather than hang.
@Suite(
    "Crash isolation",
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: fixtureTool)
            && ProcessInfo.processInfo.environment["LIFELINE_CRASH_TESTS"] != nil))
struct CrashIsolationTests {
    /// The `fuzz --json` summary without its wall-clock seconds.
    static func summary(_ text: String) -> String {
        text.replacingOccurrences(
            of: #""seconds": [0-9.]+, "#, with: "", options: .regularExpression)
    }

    @Test("a trap in the engine is a no-crash finding, shrunk, saved and replayed; never our death")
    func trapIsAFinding() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let one = try runFixture([
            "fuzz", "--engine", "trapper", "--cases", "50", "--json", "--jobs", "1",
            "--corpus", folder.path("one"),
        ])
        #expect(!one.signalled, "the fuzz process died: \(one.error)")
        #expect(one.code == 1, "\(one.error)")
        #expect(
            one.standard.contains("\"invariant\": \"no-crash\", \"case\": 0"), "\(one.standard)")
        let events = one.standard.range(of: #""events": ([0-9]+)"#, options: .regularExpression)
            .map { Int(one.standard[$0].dropFirst(10)) ?? 99 }
        #expect(events.map { $0 <= 3 } == true, "\(one.standard)")
        // A fresh corpus: the saved entry would be replayed first (and reported as itself).
        try FileManager.default.removeItem(atPath: folder.path("one"))
        let two = try runFixture([
            "fuzz", "--engine", "trapper", "--cases", "50", "--json", "--jobs", "2",
            "--corpus", folder.path("one"),
        ])
        #expect(Self.summary(two.standard) == Self.summary(one.standard))

        let entries = try FileManager.default.contentsOfDirectory(
            atPath: folder.path("one/trapper"))
        #expect(entries.count == 1 && entries[0].hasPrefix("no-crash-"), "\(entries)")
        let replay = try runFixture(["replay", folder.path("one/trapper/\(entries[0])")])
        #expect(replay.code == 1, "\(replay.error)")
        #expect(replay.standard.hasPrefix("still crashes: no-crash (engine trapper)"))
        #expect(replay.standard.contains("the engine 'trapper', in one of its callbacks,"))
        #expect(replay.standard.contains("SIGTRAP") || replay.standard.contains("SIGILL"))
        #expect(replay.standard.contains("Index out of range"), "\(replay.standard)")
    }

    @Test("without worker processes (--isolation off) the same trap ends the fuzz process")
    func withoutIsolationTheProcessDies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runFixture([
            "fuzz", "--engine", "trapper", "--cases", "5", "--isolation", "off", "--corpus",
            folder.path,
        ])
        #expect(result.signalled)
    }

    @Test("a callback that never returns is a no-hang finding, and the run ends")
    func hangIsAFinding() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runFixture([
            "fuzz", "--engine", "spinner", "--cases", "20", "--case-timeout", "1", "--corpus",
            folder.path,
        ])
        #expect(!result.signalled)
        #expect(result.code == 1, "\(result.error)")
        #expect(result.standard.contains("FAIL spinner: no-hang"), "\(result.standard)")
        #expect(
            result.standard.contains("was still running after using 1.0 s of processor time"),
            "\(result.standard)")
    }
}
