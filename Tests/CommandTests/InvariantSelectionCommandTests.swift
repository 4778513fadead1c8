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
