// Issue 25's inputs through the tool: files never overwritten without --replace, a sweep's
// total runs capped, exclusive options, the corpus folder made only when written, corpus
// entries that cannot be replayed reported as warnings (errors with --strict), and scenario
// files with a byte-order mark and CRLF or CR line endings run as meant.
import Foundation
import Research
import Scenarios
import Testing

@testable import Fuzzing
@testable import LifelineCommands

@Suite("Bad input through the tool")
struct BadInputCommandTests {
    static let scenario = """
        engine session
        authorization always
        horizon 3m
        route
          drive 3m at 13.9 m/s
        events
          0s open
          1m leave
        end

        """

    @Test("sweep --csv and --svg refuse an existing file without --replace and leave it as it was")
    func sweepKeepsExistingFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sweep = ["sweep", "--param", "whenInUseGrace=0...10:10", "--probes", "--jobs", "1"]
        for option in ["--csv", "--svg"] {
            let path = try folder.write("kept-\(option.dropFirst(2))", "keep me\n")
            let result = runTool(sweep + [option, path])
            #expect(result.code == 2)
            #expect(result.error.contains("\(path): cannot write"))
            #expect(result.error.contains("the file exists (pass --replace to overwrite it)"))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me\n")
            let replaced = runTool(sweep + [option, path, "--replace"])
            #expect(replaced.code == 0, "\(replaced.error)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) != "keep me\n")
        }
        let directory = runTool(sweep + ["--csv", folder.path])
        #expect(directory.code == 2)
        #expect(directory.error.contains("it is a directory; name a file"))
        #expect(!directory.error.contains("NSCocoaErrorDomain"))
    }

    @Test("sweep: the product of values and runs is capped, named in the message, before any run")
    func sweepRunCap() {
        let result = runTool([
            "sweep", "--param", "whenInUseGrace=0...999", "--param",
            "significantChangeLatency=0...999", "--generated", "2", "--engine", "session",
        ])
        #expect(result.code == 2)
        #expect(
            result.error.contains(
                "1000 × 1000 values × 2 runs = 2000000 runs; at most \(PolicySweep.runCountMax)"))
        #expect(result.standard.isEmpty)
    }

    @Test("sweep: a sweep of many runs reports its progress on standard error")
    func sweepProgress() {
        // Source A's 20 s probes (four, and the engine), not generated lifecycles: 50 runs,
        // the fewest that report progress, in a second of a debug build.
        let result = runTool([
            "sweep", "--param", "whenInUseGrace=0...9", "--probes", "--engine", "session",
        ])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.error.contains("sweep: 10 values × 5 runs = 50 runs"))
        #expect(result.error.contains("sweep: 50 of 50 runs"))
    }

    @Test("fuzz: --cases with --seconds exits 2; the corpus folder is made only when written")
    func fuzzOptions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let both = runTool(["fuzz", "--engine", "session", "--cases", "10", "--seconds", "5"])
        #expect(both.code == 2)
        #expect(both.error.contains("--cases and --seconds exclude one another"))
        let corpus = folder.path("corpus")
        let clean = runTool(["fuzz", "--engine", "session", "--cases", "3", "--corpus", corpus])
        #expect(clean.code == 0, "\(clean.error)")
        #expect(!FileManager.default.fileExists(atPath: corpus))
    }

    @Test(
        "fuzz: a hash mismatch, a symlink loop and an unknown engine folder are warnings with the path and reason; --strict makes them errors"
    )
    func corpusWarnings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let corpus = FuzzCorpus(directory: folder.path("corpus"))
        let scenario = try Scenario(parsing: Self.scenario, path: "s")
        let saved = try corpus.save(scenario, engine: "session", invariant: "x", found: "test")
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "1m leave", with: "2m leave").utf8).write(
            to: URL(fileURLWithPath: saved))
        let loop = folder.path("corpus/session/loop-0000000000000000.scenario")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        try folder.write("corpus/retired-engine/x-0123456789abcdef.scenario", text)
        let arguments = [
            "fuzz", "--engine", "session", "--cases", "2", "--corpus", corpus.directory,
        ]
        let warned = runTool(arguments)
        #expect(warned.code == 0, "\(warned.error)")
        #expect(warned.error.contains("\(saved): the content hash in the name is"))
        #expect(warned.error.contains("\(loop): cannot read the corpus entry: Too many levels"))
        #expect(warned.error.contains("retired-engine: no engine is named 'retired-engine'"))
        let strict = runTool(arguments + ["--strict"])
        #expect(strict.code == 2)
    }

    @Test("run: a byte-order mark, CRLF and CR line endings run as the LF file does")
    func lineEndings() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plain = runTool(["run", try folder.write("lf.scenario", Self.scenario)])
        #expect(plain.code == 0, "\(plain.error)")
        let variants = [
            "bom": "\u{FEFF}" + Self.scenario,
            "crlf": Self.scenario.replacingOccurrences(of: "\n", with: "\r\n"),
            "cr": Self.scenario.replacingOccurrences(of: "\n", with: "\r"),
        ]
        for (name, text) in variants.sorted(by: { $0.key < $1.key }) {
            let result = runTool(["run", try folder.write("\(name).scenario", text)])
            #expect(result.code == 0, "\(name): \(result.error)")
            let body = { (output: String) in output.split(separator: "\n").dropFirst().joined() }
            #expect(body(result.standard) == body(plain.standard), "\(name)")
        }
        let badCRLF = Self.scenario.replacingOccurrences(of: "13.9 m/s", with: "13.9 km/h")
            .replacingOccurrences(of: "\n", with: "\r\n")
        let bad = runTool(["run", try folder.write("bad.scenario", "\u{FEFF}" + badCRLF)])
        #expect(bad.code == 2)
        #expect(bad.error.contains("bad.scenario:5:20: expected 'm/s', found 'km/h'"))
    }
}
