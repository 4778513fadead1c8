// Source A's four background probes as the article writes them (Examples/BackgroundProbes,
// whose `Tally.swift` and `Probes.swift` this target compiles through symbolic links in
// BackgroundProbes/), driven by a simulated device's `simctl`: source A's background table,
// with the `Date()` offsets in virtual seconds since leaving the app.
import Foundation
import LifelineKit
import Testing

/// What the probes' app delegate hands back when the test body ends.
final class ProbeOutcome: @unchecked Sendable { var table: BackgroundTable? }

/// Boots a device with the probes' host app, as the example's `main.swift` does, and runs it.
func runBackgroundProbes() async -> BackgroundTable? {
    let host = "dev.swiftbydeya.Host"
    let outcome = ProbeOutcome()
    let device = SimulatedDevice(app: host, fixPhase: 0.45) { simctl in
        HostAppDelegate(simctl: simctl, host: host) { outcome.table = $0 }
    }
    device.simctl.privacy(.grant, .location, host)
    device.simctl.location.set(CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.1246))
    startDrive(device.simctl)
    await device.simctl.launch(host)
    device.run(for: 100)
    return outcome.table
}

@Suite struct BackgroundProbesTests {
    @Test func theArticlesProbesPrintSourceAsBackgroundTable() async throws {
        let table = try #require(await runBackgroundProbes())
        let counts = table.rows.map(\.fixTimes.count)
        try #require(counts.count == 4)
        // Source A: 10, 19, 11 and 20 fixes in the 20 s after leaving (over two runs, ±1).
        #expect([10, 11].contains(counts[0]), "plain manager: \(counts[0])")
        #expect([19, 20].contains(counts[1]), "allowsBackgroundLocationUpdates: \(counts[1])")
        #expect([10, 11].contains(counts[2]), "bare liveUpdates: \(counts[2])")
        #expect([19, 20].contains(counts[3]), "liveUpdates with a session: \(counts[3])")
        // The plain manager is told `denied` (code 1) about 2 s after its last fix; the
        // others are told nothing.
        let plain = table.rows[0]
        #expect(plain.failures.map(\.code) == [1])
        if let failure = plain.failures.first, let last = plain.fixTimes.last {
            #expect(abs(failure.at.timeIntervalSince(last) - 2) < 0.6)
        }
        #expect(table.rows[1...].allSatisfy { $0.failures.isEmpty })
    }

    @Test func theProbesDatesAreVirtual() async throws {
        let table = try #require(await runBackgroundProbes())
        try #require(table.rows.count == 4)
        // The device's clock starts at VirtualClock.startDate (2026-01-01): the first phase
        // leaves the app 1 s in (its `Task.sleep(for: .seconds(1))`), and each later one
        // exactly 24.2 s after the one before (0.6 s per `simctl launch`, the 20 s, 2 s and
        // 1 s sleeps). A real clock gives neither.
        let leftAt = table.rows.map { $0.leftAt.timeIntervalSince(VirtualClock.startDate) }
        #expect(abs(leftAt[0] - 1) < 1e-6, "\(leftAt)")
        for (earlier, later) in zip(leftAt, leftAt.dropFirst()) {
            #expect(abs(later - earlier - 24.2) < 1e-6, "\(leftAt)")
        }
        for row in table.rows {
            // The fixes come 0.45 s past whole seconds of the device's clock, within the
            // 20.6 s after leaving.
            for fix in row.fixTimes {
                let offset = fix.timeIntervalSince(row.leftAt)
                #expect(offset > 0 && offset < 20.6, "\(row.configuration): \(offset)")
                let since = fix.timeIntervalSince(VirtualClock.startDate)
                #expect(abs(since - since.rounded(.down) - 0.45) < 1e-6, "\(since)")
            }
        }
    }
}
