// `lifeline fuzz`'s failure report: a failing corpus entry is replayed, explained, and printed
// with the explanation after the violations and before the scenario and its timeline.
import Foundation
import Testing

@Suite("Fuzz failure report")
struct FuzzReportTests {
    @Test("the explanation comes after the violations and before the scenario and timeline")
    func explanationPlacement() throws {
        let folder =
            NSTemporaryDirectory()
            + "lifeline-fuzz-report-\(ProcessInfo.processInfo.processIdentifier)"
        let engineFolder = folder + "/session-from-background"
        try FileManager.default.createDirectory(
            atPath: engineFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let entry = """
            # lifeline corpus 1
            # invariant: foreground-rule-for-sessions
            # found: by hand
            engine session-from-background
            authorization always
            horizon 11m
            route from 51.5007,-0.1246 heading 90
              drive 1m at 13.9 m/s
            events
              0s open
              0s leave
            end
            """
        try Data(entry.utf8).write(
            to: URL(fileURLWithPath: engineFolder + "/foreground-rule-for-sessions-0.scenario"))
        let result = runTool([
            "fuzz", "--engine", "session-from-background", "--cases", "1", "--corpus", folder,
        ])
        #expect(result.code == 1)
        let lines = result.standard.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let violation = try #require(
            lines.firstIndex { $0.hasPrefix("  00:00:01.500 foreground-rule-for-sessions:") })
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Explained (") })
        let scenario = try #require(
            lines.firstIndex { $0 == "engine session-from-background" })
        let timeline = try #require(lines.firstIndex { $0.hasSuffix("user          leave") })
        #expect(violation < heading && heading < scenario && scenario < timeline)
        #expect(lines[heading + 1] == "  00:00:00 open: only at 00:00:00")
        #expect(lines[heading + 2].hasPrefix("  00:00:00 leave: anywhere from 00:00:00 to "))
        #expect(lines[heading + 3].hasPrefix("  could be anything: "))
    }
}
