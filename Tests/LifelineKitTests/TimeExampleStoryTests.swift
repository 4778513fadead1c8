// The time examples' stories that a 5,000-case fuzz of `lifeline-examples` found, each as the
// fuzzer wrote it (the scenario text of the shrunk failure), checked against the invariants
// of their fuzz: the user turned tracking off, the device rebooted, and a relaunch before the
// first unlock read the switch as unset (R-D9).
import Engines
import ExampleEngines
import Fuzzing
import Invariants
import Testing

@Suite("LifelineKit: the time examples' stories")
struct TimeExampleStoryTests {
    /// Seed 1, case 1,474 of the reporter's fuzz, shrunk to 5 events: the relaunch after the
    /// reboot read "tracking off" as unset, started location, and at the open stored (and
    /// sent) 599 fixes the user had said no to.
    @Test(
        "R-D9: the reporter, tracking off, a reboot and a relaunch before the unlock: nothing stored"
    )
    func reporterTrackingOffSurvivesTheFirstUnlock() throws {
        let events = "  0s open\n  0s tracking off\n  1m reboot\n  1m silent-push\n  1m open"
        for engine in [batchedReporter, sleepingReporter] {
            let found = try exampleStoryViolations(engine, Invariant.builtIn, events: events)
            #expect(found == [], "\(engine)")
        }
    }

    /// Seed 1, case 901 of the recorder's fuzz (4 events), and case 1,474 of its twin's.
    @Test(
        "R-D9: the recorder, tracking off, a reboot and a relaunch before the unlock: nothing stored"
    )
    func recorderTrackingOffSurvivesTheFirstUnlock() throws {
        let stories = [
            "  0s open\n  0s tracking off\n  1s reboot\n  1m tracking off",
            "  0s open\n  0s tracking off\n  1m reboot\n  3m open",
        ]
        for engine in [debouncedRecorder, sleepingRecorder] {
            for events in stories {
                let found = try exampleStoryViolations(
                    engine, ExampleEngines.recorderInvariants, events: events)
                #expect(found == [], "\(engine): \(events)")
            }
        }
    }
}
