// The example tracker's stories that its short fuzz did not reach, each as the fuzzer wrote it
// (the scenario text of the shrunk failure), checked against the same invariants as its fuzz.
import DelegateTrackerExample
import ExampleEngines
import Fuzzing
import Invariants
import Scenarios
import Testing

@Suite("LifelineKit: the example tracker's stories")
struct ExampleTrackerStoryTests {
    /// The violations of `ExampleTrackerTests.invariants` in the run of `events` on a drive
    /// east, Always, the measured policy.
    static func violations(_ events: String, drive: String = "11m") throws -> [Violation] {
        let text = """
            engine delegate-tracker
            policy measured
            authorization always
            accuracy full
            capabilities location-background
            seed 1
            horizon \(drive)
            route from 51.5007,-0.1246 heading 90
              drive \(drive) at 13.9 m/s
            events
            \(events)
            end
            """
        let scenario = try Scenario(
            parsing: text, path: "story.scenario", engines: [delegateTracker])
        return try scenario.record().violations(of: ExampleTrackerTests.invariants)
    }

    /// Seed 1, case 1,474 of the long fuzz, shrunk to 5 events: the reboot's relaunch runs
    /// before the first unlock, where `UserDefaults` reads empty, so the user's "tracking off"
    /// read as on and the tracker started; at the unlock it saw "off" but left location
    /// running, and stored 599 fixes. R-D9: nothing is decided before the unlock.
    @Test("R-D9: tracking off, a reboot and a relaunch before the unlock store nothing")
    func trackingOffSurvivesTheFirstUnlock() throws {
        let found = try Self.violations(
            """
              0s open
              0s tracking off
              1m reboot
              1m silent-push
              1m open
            """)
        #expect(found.map(\.description) == [])
    }

    /// Swiped away half a second after the launch: its only locations are the significant
    /// change's (a cell tower's, ±1.4 km, R-F7, R-F10). A 150 m restart region centred on one
    /// may lie wholly away from the device, which then never leaves it (R-F8): no relaunch for
    /// the 30 minutes of the drive.
    @Test("R-F8: a swipe right after a ±1.4 km significant-change fix still gets a relaunch")
    func restartRegionCoversACellFix() throws {
        let found = try Self.violations(
            """
              0s open
              500ms force-quit
            """, drive: "30m")
        #expect(found.map(\.description) == [])
    }

    /// Swiped away at the instant it opened: the app has no location yet (none was delivered,
    /// `CLLocationManager.location` is nil), so it can place no region, and after a swipe-away
    /// iOS relaunches it for significant change no more (R-B5 under the measured policy).
    /// Nothing the app could have done brings it back, so `bounded-gaps` wants no fixes after
    /// the swipe: no restart region is expected of an app that never had a location.
    @Test(
        "swiped away at the instant it opened: no location to leave a region at, and no gap blamed")
    func swipedAtLaunchIsNotBlamed() throws {
        let found = try Self.violations(
            """
              0s open
              0s force-quit
            """, drive: "30m")
        #expect(found.map(\.description) == [])
    }
}
