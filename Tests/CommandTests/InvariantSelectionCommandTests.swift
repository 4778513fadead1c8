// What a run judges: the app's profile says whether it uploads at all (a tracker that keeps
// its data on the phone is not judged by `uploaded-once`, from the CLI and `fuzzLifecycle`
// alike), and `--only`/`--skip` narrow the rest by name, an unknown name being bad input.
import Engines
import Foundation
import Fuzzing
import Simulation
import Testing
import World

@testable import LifelineCommands

@Suite("Invariant selection")
struct InvariantSelectionCommandTests {
    @Test("a tracker that declares no uploads fuzzes clean; declared uploading, it fails")
    func phoneOnlyTrackerIsNotJudgedForUploads() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = [
            "fuzz", "--engine", "phone-only", "--cases", "40", "--jobs", "1", "--json",
            "--corpus", folder.path,
        ]
        let declared = runTool(arguments, engines: [CustomEngine.phoneOnly(uploads: .nothing)])
        #expect(declared.code == 0, "\(declared.standard)\n\(declared.error)")
        #expect(declared.standard.contains("\"failures\": []"), "\(declared.standard)")
        // The same tracker whose profile says it uploads is judged, and fails.
        let undeclared = runTool(arguments, engines: [CustomEngine.phoneOnly(uploads: .toServer)])
        #expect(undeclared.code == 1, "\(undeclared.error)")
        #expect(
            undeclared.standard.contains("\"invariant\": \"uploaded-once\""),
            "\(undeclared.standard)")
    }

    @Test("the summary shows an invariant the profile leaves out as -, not ok")
    func summaryShowsWhatWasNotJudged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = runTool(
            [
                "fuzz", "--engine", "phone-only", "--cases", "3", "--jobs", "1", "--corpus",
                folder.path,
            ],
            engines: [CustomEngine.phoneOnly(uploads: .nothing)])
        #expect(result.code == 0, "\(result.error)")
        let row = try #require(
            result.standard.split(separator: "\n").first {
                $0.hasPrefix("phone-only")
            })
        // The legend under the table names the columns: `I6  uploaded-once`.
        let names = result.standard.split(separator: "\n").filter {
            $0.first == "I" && $0.contains("  ")
        }.map { String($0.split(separator: " ").last ?? "") }
        let cells = row.split(separator: " ").dropFirst(2).map(String.init)
        #expect(cells.count == names.count, "\(row)")
        for (name, cell) in zip(names, cells) {
            #expect(cell == (name == "uploaded-once" ? "-" : "ok"), "\(name) in \(row)")
        }
    }

    @Test("replay judges what the profile applies: a tracker that declares no uploads passes")
    func replayFollowsTheProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // An entry written by hand (no content hash in its name): the tracker keeps its fixes
        // on the phone, so they are never uploaded.
        let entry = folder.path("phone-only/bounded-gaps.scenario")
        try FileManager.default.createDirectory(
            atPath: folder.path("phone-only"), withIntermediateDirectories: true)
        try """
        # lifeline corpus 1
        # invariant: bounded-gaps
        engine phone-only
        authorization always
        capabilities location-background scene-based
        horizon 30m
        route
          drive 30m at 13.9 m/s
        events
          0s open
        end

        """.write(toFile: entry, atomically: true, encoding: .utf8)
        // Before: "fails a different invariant: uploaded-once", exit 1.
        let declared = runTool(
            ["replay", entry], engines: [CustomEngine.phoneOnly(uploads: .nothing)])
        #expect(declared.code == 0, "\(declared.standard)\n\(declared.error)")
        #expect(declared.standard.hasPrefix("passes now: bounded-gaps"), "\(declared.standard)")
        #expect(!declared.standard.contains("uploaded-once"), "\(declared.standard)")
        // Declared uploading, the same tracker fails uploaded-once.
        let undeclared = runTool(
            ["replay", entry], engines: [CustomEngine.phoneOnly(uploads: .toServer)])
        #expect(undeclared.code == 1, "\(undeclared.standard)")
        #expect(undeclared.standard.contains("uploaded-once"), "\(undeclared.standard)")
    }

    @Test("--skip leaves an invariant out of fuzz; --only keeps only those named")
    func skipAndOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // retry-without-idempotency breaks uploaded-once (docs/fuzzing.md: case 4, seed 1).
        let base = [
            "fuzz", "--engine", "retry-without-idempotency", "--cases", "10", "--jobs", "1",
            "--json", "--corpus", folder.path,
        ]
        let judged = runTool(base)
        #expect(judged.code == 1, "\(judged.error)")
        #expect(judged.standard.contains("\"invariant\": \"uploaded-once\""))
        let skipped = runTool(base + ["--skip", "uploaded-once"])
        #expect(!skipped.standard.contains("\"invariant\": \"uploaded-once\""), "\(skipped)")
        let only = runTool(base + ["--only", "causality,bounded-gaps", "--only", "no-hang"])
        #expect(only.code == 2, "no-hang is no invariant a run can select: \(only.error)")
        let kept = runTool(base + ["--only", "causality,no-watchdog-kill"])
        #expect(kept.code == 0, "\(kept.error)")
    }

    @Test("an unknown invariant name is bad input naming the valid ones, exit 2")
    func unknownName() {
        for command in [["fuzz", "--cases", "1"], ["run", "x.scenario"]] {
            let result = runTool(command + ["--skip", "uploaded-twice"])
            #expect(result.code == 2)
            #expect(
                result.error.hasPrefix(
                    "lifeline: --skip: no invariant is called 'uploaded-twice'; the invariants "
                        + "are no-fix-lost-after-restore, "), "\(result.error)")
            #expect(result.standard.isEmpty)
        }
    }
}
