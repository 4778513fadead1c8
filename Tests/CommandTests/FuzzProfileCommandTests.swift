// `lifeline fuzz --fuzz-profile`: the app's profile is drawn too (issue 21).
import Foundation
import Testing

@Suite("lifeline fuzz --fuzz-profile")
struct FuzzProfileCommandTests {
    /// The summary of `fuzz --json` without its wall-clock seconds.
    static func summary(_ extra: [String], corpus: String) -> (code: Int32, text: String) {
        let result = runTool(
            [
                "fuzz", "--engine", "standard", "--cases", "15", "--jobs", "1", "--json",
                "--corpus", corpus,
            ] + extra)
        let text = result.standard.replacingOccurrences(
            of: #""seconds": [0-9.]+, "#, with: "", options: .regularExpression)
        return (result.code, text)
    }

    @Test("the flag is accepted, listed in the usage, and changes the scenarios drawn")
    func changesTheScenarios() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let kept = Self.summary([], corpus: folder.path + "/kept")
        let fuzzed = Self.summary(["--fuzz-profile"], corpus: folder.path + "/fuzzed")
        #expect(kept.code == 0 && fuzzed.code == 0, "\(kept.text) \(fuzzed.text)")
        #expect(kept.text != fuzzed.text)
        #expect(runTool(["fuzz", "--help"]).standard.contains("--fuzz-profile"))
    }
}
