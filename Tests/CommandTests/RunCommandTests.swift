// `lifeline run FILE`: the timeline, metrics and verdicts of a passing and a failing scenario,
// the JSON object, the JSON Lines trace, and exit code 2 with a clear message for a file that
// cannot be read or run and a trace that cannot be written.
import Foundation
import Fuzzing
import Scenarios
import Simulation
import Testing

@testable import LifelineCommands

@Suite("Run command")
struct RunCommandTests {
    static let invariantNames = [
        "no-fix-lost-after-restore", "restore-exactly-what-was-running",
        "foreground-rule-for-sessions", "no-capability-trap", "configuration-honoured",
        "uploaded-once", "bounded-gaps", "causality", "no-watchdog-kill", "uploaded-in-order",
    ]

    @Test("a passing scenario exits 0 with its timeline, its metrics and ok for every invariant")
    func passing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let result = runTool(["run", path])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let text = result.standard
        #expect(text.hasPrefix("scenario  \(path)\nengine    session\n"))
        // The kill and iOS's relaunch stand out in the timeline.
        #expect(text.contains("<< 00:15:00.000  process 1     killed (memory)"))
        #expect(text.contains(">> 00:25:01.000  process 2     launch background"))
        #expect(text.contains("\nmetrics\n  fixes produced "))
        #expect(text.contains("longest gap "))
        #expect(text.contains("relaunch latencies [00:10:01.000]"))
        #expect(text.contains("GNSS on "))
        for name in Self.invariantNames {
            #expect(text.contains("\n  ok    \(name)\n"), "\(name) is not ok")
        }
        #expect(!text.contains("FAIL"))
        #expect(!text.contains("!! "))
    }

    @Test(
        "a scenario the retry-without-idempotency mutant fails exits 1 with FAIL for uploaded-once")
    func mutantFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("retry.scenario", SampleScenarios.retryWithoutIdempotency())
        let result = runTool(["run", path])
        #expect(result.code == 1, "\(result.error)")
        let text = result.standard
        // A lost answer made the mutant send a batch again under a new key: each of its rows
        // is one violation, listed in the verdict and marked in the timeline.
        let repeated = try #require(SampleScenarios.firstRepeatedUpload(in: text))
        #expect(text.contains("\n  FAIL  uploaded-once: \(repeated.batchRows) violations\n"))
        #expect(
            text.contains("\n          \(repeated.instant) fix at \(repeated.fix) was accepted"))
        #expect(text.contains("!! \(repeated.instant)  uploaded-once  fix at \(repeated.fix)"))
        for name in Self.invariantNames where name != "uploaded-once" {
            #expect(text.contains("\n  ok    \(name)\n"), "\(name) is not ok")
        }
        #expect(text.hasSuffix("FAIL: uploaded-once\n"))
    }

    @Test(
        "--json prints one object with the scenario, engine, metrics and every invariant's verdict")
    func json() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("retry.scenario", SampleScenarios.retryWithoutIdempotency())
        let result = runTool(["run", path, "--json"])
        #expect(result.code == 1)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["scenario", "engine", "metrics", "invariants"])
        #expect(object["scenario"] as? String == path)
        #expect(object["engine"] as? String == "retry-without-idempotency")
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect(
            Set(metrics.keys) == [
                "fixesProduced", "fixesDelivered", "fixesStored", "fixesUploaded",
                "longestGapSeconds", "meanGapSeconds", "relaunchLatenciesSeconds",
                "gnssOnSeconds",
            ])
        // Every stored fix is uploaded, some twice: more accepted than stored.
        let stored = try #require(metrics["fixesStored"] as? Int)
        let uploaded = try #require(metrics["fixesUploaded"] as? Int)
        #expect(stored > 0 && uploaded > stored)
        #expect(metrics["relaunchLatenciesSeconds"] as? [Double] == [])
        let invariants = try #require(object["invariants"] as? [[String: Any]])
        #expect(invariants.map { $0["name"] as? String } == Self.invariantNames)
        for invariant in invariants {
            let failed = invariant["name"] as? String == "uploaded-once"
            #expect(invariant["passed"] as? Bool == !failed)
            let violations = try #require(invariant["violations"] as? [String])
            if !failed { #expect(violations.isEmpty) }
        }
        let violations = try #require(invariants[5]["violations"] as? [String])
        let repeated = try #require(SampleScenarios.firstRepeatedUpload(in: violations[0]))
        #expect(violations.count == repeated.batchRows)
        #expect(violations[0].hasPrefix("\(repeated.instant) fix at \(repeated.fix) was accepted"))
    }

    @Test("--json on the passing scenario gives its relaunch latency in seconds")
    func jsonRelaunch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let result = runTool(["run", "--json", path])
        #expect(result.code == 0)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [String: Any])
        let metrics = try #require(object["metrics"] as? [String: Any])
        #expect(metrics["relaunchLatenciesSeconds"] as? [Double] == [601])
        let invariants = try #require(object["invariants"] as? [[String: Any]])
        #expect(invariants.allSatisfy { $0["passed"] as? Bool == true })
    }

    @Test("--trace writes one JSON object per delivered message, the run's whole trace")
    func trace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let tracePath = folder.path("kill.jsonl")
        let result = runTool(["run", path, "--trace", tracePath])
        #expect(result.code == 0, "\(result.error)")
        let record = try Scenario(contentsOfFile: path).record(keepsTrace: true)
        let trace = try #require(record.trace)
        let deliveries = trace.records.count
        #expect(record.digest.deliveryCount == deliveries)
        #expect(deliveries > 1000)
        let bytes = try #require(FileManager.default.contents(atPath: tracePath))
        let lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the file ends with a newline")
        let objects = lines.dropLast()
        #expect(objects.count == deliveries)
        var hash = TraceHash()
        for (index, line) in objects.enumerated() {
            let object = try #require(
                JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "line \(index + 1) is not a JSON object")
            #expect(object["ns"] is Int && object["actor"] is Int && object["message"] is String)
            hash.fold(line: String(line))
        }
        #expect(hash.value == trace.hash.value, "the file is the run's trace")
        let hashText = trace.hash.hexadecimal
        #expect(
            result.standard.contains(
                "trace     \(tracePath) (\(deliveries) lines, hash \(hashText))"))
    }

    @Test("--trace keeps an existing file unless --replace is given")
    func traceKeepsFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let tracePath = try folder.write("kept.jsonl", "keep me\n")
        let kept = runTool(["run", path, "--trace", tracePath])
        #expect(kept.code == 2)
        #expect(kept.error.contains("\(tracePath): cannot write the trace: the file exists"))
        #expect(kept.standard.isEmpty)
        #expect(FileManager.default.contents(atPath: tracePath) == Data("keep me\n".utf8))
        let replaced = runTool(["run", path, "--trace", tracePath, "--replace"])
        #expect(replaced.code == 0)
        let text = String(
            decoding: FileManager.default.contents(atPath: tracePath) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("{\"instant\":\"00:00:00.000\",\"ns\":0,"))
    }

    @Test("--trace into a directory exits 2, says so, and prints nothing")
    func traceIntoDirectory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("kill.scenario", SampleScenarios.passing)
        let result = runTool(["run", path, "--trace", folder.path])
        #expect(result.code == 2)
        #expect(
            result.error
                == "lifeline: \(folder.path): cannot write the trace: it is a directory; "
                + "name a file\n")
        #expect(result.standard.isEmpty)
    }

    @Test("a missing scenario file exits 2 and names it, without the usage")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("nonesuch.scenario")
        let result = runTool(["run", path])
        #expect(result.code == 2)
        #expect(result.error == "lifeline: \(path): cannot read the scenario file: no such file\n")
        #expect(result.standard.isEmpty)
    }

    @Test("a malformed scenario exits 2 with path:line:column and what was expected")
    func malformed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "bad.scenario",
            """
            engine session
            horizon 10m
            route
              drive 1m at 13.9 m/s
            events
              0s open
              5m forcequit
            """)
        let result = runTool(["run", path])
        #expect(result.code == 2)
        #expect(result.error.hasPrefix("lifeline: \(path):7:6: expected an event (open, leave"))
        #expect(result.error.contains("found 'forcequit'"))
        #expect(!result.error.contains("usage:"))
        #expect(result.standard.isEmpty)
    }

    @Test("a scenario whose GPX route file is missing exits 2 at the route's line and column")
    func missingGPX() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let gpx = folder.path("nonesuch.gpx")
        let path = try folder.write(
            "gpx.scenario",
            """
            engine session
            horizon 10m
            route gpx \(gpx)
            events
              0s open
            """)
        let result = runTool(["run", path])
        #expect(result.code == 2)
        #expect(result.error == "lifeline: \(path):3:11: cannot read the GPX file '\(gpx)'\n")
        #expect(result.standard.isEmpty)
    }

    @Test("run without a file, or with --replace alone, is a usage error")
    func usage() {
        let none = runTool(["run"])
        #expect(none.code == 2 && none.error.contains("run needs a scenario file"))
        #expect(none.error.contains("usage: lifeline run FILE"))
        let replace = runTool(["run", "x.scenario", "--replace"])
        #expect(replace.code == 2 && replace.error.contains("--replace goes with --trace"))
        let extra = runTool(["run", "a.scenario", "b.scenario"])
        #expect(extra.code == 2 && extra.error.contains("unexpected argument 'b.scenario'"))
    }
}
