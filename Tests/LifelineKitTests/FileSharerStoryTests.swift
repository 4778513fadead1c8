// The file sharer's story that a 5,000-case fuzz of its twin by `lifeline-examples` found (the
// scenario text of the shrunk failure), checked against the invariants of its fuzz.
import Engines
import ExampleEngines
import Testing

@Suite("LifelineKit: the file sharer's stories")
struct FileSharerStoryTests {
    /// Seed 1, case 421 of the twin's fuzz, shrunk to 2 events: the restart region was left at
    /// the first location, a significant change's (±1.4 km) with a 150 m region, so the device
    /// was outside it from the start, no exit ever moved it, and after the swipe at 27 min
    /// nothing relaunched the app (R-B5). A region at least as wide as the location is
    /// uncertain holds the device.
    @Test("R-B5: swiped away after a drive that began with a cell fix, the sharer is relaunched")
    func swipedAfterCellFixIsRelaunched() throws {
        for engine in [FileSharer.twin, FileSharer.example] {
            let found = try exampleStoryViolations(
                engine, FileSharer.invariants, horizon: "43m",
                route: "  drive 1m at 13.9 m/s\n  park 2m\n  drive 30m at 13.9 m/s",
                events: "  0s open\n  27m force-quit")
            #expect(found == [], "\(engine)")
        }
    }

    /// Seed 1, case 1,474 of the twin's fuzz, shrunk to 5 events: the relaunch after the
    /// reboot read the settings before the first unlock, as their defaults (sharing on), and
    /// at the open saved the locations the user had said no to.
    @Test("R-D9: sharing off, a reboot and a relaunch before the unlock: nothing saved")
    func sharingOffSurvivesTheFirstUnlock() throws {
        let events = "  0s open\n  0s tracking off\n  1m reboot\n  1m silent-push\n  1m open"
        for engine in [FileSharer.twin, FileSharer.example] {
            let found = try exampleStoryViolations(engine, FileSharer.invariants, events: events)
            #expect(found == [], "\(engine)")
        }
    }
}
