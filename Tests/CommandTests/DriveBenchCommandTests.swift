// `lifeline bench drive`: one drive of H hours, run and judged, with its time and peak memory,
// beyond the 24 h cap of a scenario file.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("bench drive")
struct DriveBenchCommandTests {
    @Test("one hour: every built-in invariant holds and the line names its figures")
    func oneHour() {
        let result = runTool(["bench", "drive", "--hours", "1"])
        #expect(result.code == 0, "\(result.error)")
        let line = result.standard.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("hours=1 deliveries="), "\(line)")
        #expect(line.contains(" violations=0 "), "\(line)")
        #expect(line.contains(" wall_s=") && line.contains(" peak_rss_mb="), "\(line)")
        // One fix a second for an hour reaches the app, with their commits and timers.
        let deliveries = line.split(separator: " ").first { $0.hasPrefix("deliveries=") }
            .flatMap { Int($0.dropFirst("deliveries=".count)) }
        #expect((deliveries ?? 0) > 3_600, "\(line)")
    }

    @Test("an impossible number of hours is exit 2, naming the range")
    func badHours() {
        for hours in ["0", "673", "a day"] {
            let result = runTool(["bench", "drive", "--hours", hours])
            #expect(result.code == 2, "\(hours)")
            #expect(result.error.contains("--hours"), "\(result.error)")
        }
    }
}
