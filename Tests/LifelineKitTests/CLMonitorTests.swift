// `CLMonitor` on the world: made with `await`, a circular condition added, its events read
// from `events` with `for try await`, and its record.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite struct CLMonitorTests {
    @Test func aMonitorsEventsArriveAsAnAsyncSequence() {
        let (_, journal) = runProbe(
            route: drive(20), until: 120, actions: [(0, .open)]
        ) { app, _ in
            let journal = app.journal
            Task {
                let monitor = await CLMonitor("Places")
                let center = CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.1246)
                await monitor.add(
                    CLMonitor.CircularGeographicCondition(center: center, radius: 200),
                    identifier: "home", assuming: .satisfied)
                journal.note("identifiers \(await monitor.identifiers)")
                for try await event in await monitor.events {
                    let seconds = event.date.timeIntervalSince(VirtualClock.startDate)
                    journal.note("\(event.identifier) \(event.state) at \(Int(seconds))")
                    let record = await monitor.record(for: event.identifier)
                    journal.note("record \(record?.lastEvent.state == event.state)")
                    await monitor.remove("home")
                    journal.note("identifiers \(await monitor.identifiers)")
                }
            }
        }
        #expect(journal.notes.contains("identifiers [\"home\"]"))
        // Leaving a 200 m circle at 20 m/s: unsatisfied once the world determines the exit
        // (R-F8: past the circle's edge and the system's latency), at a virtual date.
        let event = journal.notes.first { $0.hasPrefix("home ") } ?? ""
        #expect(event.hasPrefix("home unsatisfied at "), "\(journal.notes)")
        let seconds = Int(event.split(separator: " ").last ?? "") ?? -1
        #expect((10...120).contains(seconds), "\(event)")
        #expect(journal.notes.contains("record true"))
        #expect(journal.notes.contains("identifiers []"))
    }

    @Test func aMonitorMadeOutsideASimulatedProcessIsDetached() async throws {
        let monitor = await CLMonitor("Detached")
        #expect(await monitor.identifiers.isEmpty)
        var count = 0
        for try await _ in await monitor.events { count += 1 }
        #expect(count == 0)
    }
}
