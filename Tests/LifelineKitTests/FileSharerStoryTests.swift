// The file sharer's story that a 5,000-case fuzz of its twin by `lifeline-examples` found (the
// scenario text of the shrunk failure), checked against the invariants of its fuzz.
import Engines
import ExampleEngines
import Scenarios
import Testing

@Suite("LifelineKit: the file sharer's stories")
struct FileSharerStoryTests {
    /// Seed 1, case 421 of the twin's fuzz, shrunk to 2 events: the restart region was left at
    /// the first location, a significant change's (±1.4 km) with a 150 m region, so the device
    /// was outside it from the start, no exit ever moved it, and after the swipe at 27 min
    /// nothing relaunched the app (R-B5). A region at least as wide as the location is uncertain holds the device.
    @Test("R-B5: swiped away after a drive that began with a cell fix, the sharer is relaunched")
    func swipedAfterCellFixIsRelaunched() throws {
        for engine in [FileSharer.twin, FileSharer.example] {
            let text = """
                engine \(engine.name)
                policy measured
                authorization always
                accuracy full
                capabilities location-background
                answers whenInUse=when-in-use always=always responseDelay=2s temporaryFullAccuracy=true
                ordering fifo
                seed 1
                horizon 43m
                route from 51.5007,-0.1246 heading 90
                  drive 1m at 13.9 m/s
                  park 2m
                  drive 30m at 13.9 m/s
                events
                  0s open
                  27m force-quit
                end
                """
            let scenario = try Scenario(parsing: text, path: "story.scenario", engines: [engine])
            let found = try scenario.record().violations(of: FileSharer.invariants)
            #expect(found.map(\.description) == [], "\(engine)")
        }
    }

    /// Seed 1, case 1,474 of the twin's fuzz, shrunk to 5 events: the relaunch after the
    /// reboot read the settings before the first unlock, as their defaults (sharing on), and
    /// at the open saved the locations the user had said no to.
    @Test("R-D9: sharing off, a reboot and a relaunch before the unlock: nothing saved")
    func sharingOffSurvivesTheFirstUnlock() throws {
        for engine in [FileSharer.twin, FileSharer.example] {
            let text = """
                engine \(engine.name)
                policy measured
                authorization always
                accuracy full
                capabilities location-background
                answers whenInUse=when-in-use always=always responseDelay=2s temporaryFullAccuracy=true
                ordering fifo
                seed 1
                horizon 11m
                route from 51.5007,-0.1246 heading 90
                  drive 1m at 13.9 m/s
                events
                  0s open
                  0s tracking off
                  1m reboot
                  1m silent-push
                  1m open
                end
                """
            let scenario = try Scenario(parsing: text, path: "story.scenario", engines: [engine])
            let found = try scenario.record().violations(of: FileSharer.invariants)
            #expect(found.map(\.description) == [], "\(engine)")
        }
    }
}
