import Scenarios
import Simulation
import Testing

// The explain phase on four mutants' shrunk failures: each window holds its event's time,
// fails at both ends and passes one step beyond an exact end; each free setting fails under
// every alternative and every other one passes under some; the same scenario gets the same
// explanation; the budgets bound the runs. Each claim is checked by running the scenario.
@testable import Fuzzing

@Suite("Explain phase")
struct FailureExplanationTests {
    @Test("the shrunk scenarios fail as found", arguments: FailingScenario.all)
    func scenariosFail(_ failing: FailingScenario) throws {
        #expect(try failing.fails(failing.scenario))
    }

    @Test(
        "every event has a window holding its time, and the scenario fails at both ends",
        arguments: FailingScenario.all)
    func windowsFailAtBothEnds(_ failing: FailingScenario) throws {
        let windows = failing.explanation.eventWindows
        #expect(windows.map(\.index) == Array(failing.scenario.events.indices))
        #expect(!failing.explanation.isBudgetSpent)
        for window in windows {
            #expect(window.event == failing.scenario.events[window.index])
            #expect(window.earliest <= window.event.at && window.event.at <= window.latest)
            #expect(window.earliest >= .zero && window.latest <= failing.scenario.horizon)
            #expect(window.isEarliestExact && window.isLatestExact)
            #expect(try failing.fails(failing.moving(window.index, to: window.earliest)))
            #expect(try failing.fails(failing.moving(window.index, to: window.latest)))
        }
    }

    @Test(
        "one step beyond a window's bounded end the scenario passes (or breaks another invariant)",
        arguments: FailingScenario.all)
    func windowsEndWhereTheFailureStops(_ failing: FailingScenario) throws {
        let step = Fuzzer.explainStep
        for window in failing.explanation.eventWindows {
            if window.earliest > .zero {
                let before = failing.moving(window.index, to: window.earliest - step)
                #expect(try !failing.fails(before), "event \(window.index) before its window")
            }
            if window.latest < failing.scenario.horizon {
                let after = failing.moving(window.index, to: window.latest + step)
                #expect(try !failing.fails(after), "event \(window.index) after its window")
            }
        }
    }

    @Test("windows reach past the event's own time where the failure allows it")
    func windowsAreWiderThanTheirInstant() throws {
        // The leave may come any time the background activity session can still begin before
        // the horizon; the opening cannot move (a later one comes after the leave).
        let session = FailingScenario.sessionFromBackground
        let open = try #require(session.window(0))
        #expect(open.earliest == open.event.at && open.latest == open.event.at)
        #expect(open.text == "only at 00:00:00")
        let leave = try #require(session.window(1))
        #expect(leave.latest > leave.event.at + .minutes(5))
        #expect(leave.latest < session.scenario.horizon && !leave.isAnywhere)
        // The force-quit kills the process during a commit under this ordering: a window of
        // seconds before 3 minutes, bounded on both sides.
        let acknowledged = FailingScenario.fixAcknowledgedBeforeCommit
        let forceQuit = try #require(acknowledged.window(1))
        #expect(forceQuit.earliest < forceQuit.event.at)
        #expect(forceQuit.earliest > .zero && forceQuit.latest < acknowledged.scenario.horizon)
        // The missing capability traps whenever the app opens.
        let trap = try #require(FailingScenario.backgroundWithoutCapability.window(0))
        #expect(trap.isAnywhere && trap.text == "anywhere")
    }

    @Test(
        "a setting named free fails under every alternative; every other passes under one",
        arguments: FailingScenario.all)
    func freeSettingsAreFree(_ failing: FailingScenario) throws {
        let free = failing.explanation.freeSettings
        let settings = DiscreteSetting.all
        #expect(free.allSatisfy { name in settings.contains { $0.name == name } })
        for setting in settings {
            let alternatives = setting.alternatives(failing.scenario)
            let failures = try alternatives.map { try failing.fails($0) }
            if free.contains(setting.name) {
                #expect(failures.allSatisfy { $0 }, "\(setting.name) is named free")
            } else {
                #expect(failures.contains(false), "\(setting.name) is not named free")
            }
        }
    }

    @Test("free settings match what each mutant's mistake needs")
    func freeSettingsFollowTheMistake() {
        // The trap needs the missing background mode; it happens with any seed.
        let trap = FailingScenario.backgroundWithoutCapability.explanation.freeSettings
        #expect(!trap.contains("location-background"))
        #expect(trap.contains("seed"))
        // No reboot in the story: startOnBoot cannot matter. The random ordering does.
        let session = FailingScenario.sessionFromBackground.explanation.freeSettings
        #expect(session.contains("startOnBoot"))
        // The swipe-away kills the transaction the mutant keeps open whatever the same-instant
        // order (each fix no longer ends in an upload, whose commit closed it under FIFO).
        let acknowledged = FailingScenario.fixAcknowledgedBeforeCommit.explanation.freeSettings
        #expect(acknowledged.contains("ordering"))
    }

    @Test("every alternative changes its setting only, to a value other than the scenario's")
    func alternativesDiffer() {
        let scenario = FailingScenario.fixAcknowledgedBeforeCommit.scenario
        let names = DiscreteSetting.all.map(\.name)
        #expect(Set(names).count == names.count)
        for setting in DiscreteSetting.all {
            let alternatives = setting.alternatives(scenario)
            #expect(!alternatives.isEmpty, "\(setting.name) has alternatives")
            for alternative in alternatives {
                #expect(alternative != scenario, "\(setting.name)")
                let changed = zip(
                    alternative.description.split(separator: "\n"),
                    scenario.description.split(separator: "\n")
                ).filter { $0 != $1 }
                #expect(changed.count == 1, "\(setting.name) changes one line of the text")
            }
        }
    }

    @Test("the same failure gets the same explanation, to the text")
    func deterministic() {
        let failing = FailingScenario.fixAcknowledgedBeforeCommit
        let again = Fuzzer.explain(
            failing.scenario, failing: failing.invariant, runMax: FailingScenario.runMax,
            eventRunMax: FailingScenario.eventRunMax)
        #expect(again == failing.explanation)
        #expect(again.description == failing.explanation.description)
    }

    @Test("the run budgets bound the runs, and a spent budget says so")
    func budgets() {
        let failing = FailingScenario.sessionFromBackground
        let settingRunMax = DiscreteSetting.all.map { $0.alternatives(failing.scenario).count }
            .reduce(0, +)
        #expect(
            failing.explanation.runs
                <= failing.scenario.events.count * FailingScenario.eventRunMax + settingRunMax)
        let short = Fuzzer.explain(
            failing.scenario, failing: failing.invariant, runMax: 6, eventRunMax: 40)
        #expect(short.runs == 6 && short.isBudgetSpent)
        #expect(short.description.contains("the explain budget ran out"))
        // Four runs for the opening's window: doubling up to 8 s, all failing, no edge yet.
        let trap = FailingScenario.backgroundWithoutCapability
        let narrow = Fuzzer.explain(
            trap.scenario, failing: trap.invariant, runMax: 400, eventRunMax: 4)
        let window = narrow.eventWindows[0]
        #expect(window.latest == .seconds(8) && !window.isLatestExact)
        #expect(
            window.text
                == "anywhere from 00:00:00 to 00:00:08 (or wider: the probe budget ran out)")
        #expect(!narrow.isBudgetSpent)
    }
}
