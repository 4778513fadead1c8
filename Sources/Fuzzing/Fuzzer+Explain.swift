// The fuzzer's explain phase (layer 5): after shrinking, how far each event of the failing
// scenario can move and which of its settings could be anything, found by probing.
import Invariants
import Scenarios
import Simulation

extension Fuzzer {
    /// The step an event moves by while its window is probed (the generator's events come at
    /// whole seconds).
    public static let explainStep = VirtualDuration.seconds(1)

    /// Explains why `scenario` breaks `invariant` (Hypothesis's explain phase): for each event
    /// in order, the window its time can move over while the scenario still breaks it; then
    /// each discrete setting (`DiscreteSetting.all`) under whose every alternative it still
    /// does. Probes in a fixed order, so the same scenario gets the same explanation.
    ///
    /// An event is moved alone, the others fixed, in steps of `explainStep` from its time,
    /// down to the start and up to the horizon; the scenario keeps its events in time order
    /// (`Scenario.events`), so a moved event may pass a neighbour and is then run in its new
    /// place. Each direction doubles its step until a probe passes, then bisects.
    /// - Parameters:
    ///   - scenario: a scenario that breaks `invariant`.
    ///   - runMax: runs to spend in all; what it leaves unprobed is left out (see
    ///     `FailureExplanation`).
    ///   - eventRunMax: runs to spend on one event's window, half of them on each side
    ///     (what the earlier side leaves goes to the later one).
    public static func explain(
        _ scenario: Scenario, failing invariant: Invariant, runMax: Int, eventRunMax: Int
    ) -> FailureExplanation {
        precondition(eventRunMax >= 0, "a run budget is not negative")
        var probe = FailureProbe(invariant: invariant, runMax: runMax)
        var windows: [FailureExplanation.EventWindow] = []
        for index in scenario.events.indices where !probe.isSpent {
            windows.append(window(of: index, in: scenario, probe: &probe, runMax: eventRunMax))
        }
        var free: [String] = []
        for setting in DiscreteSetting.all {
            guard let isFree = isFree(setting, in: scenario, probe: &probe) else { break }
            if isFree { free.append(setting.name) }
        }
        return FailureExplanation(
            eventWindows: windows, freeSettings: free, runs: probe.runs,
            isBudgetSpent: probe.wasRefused)
    }

    /// The explanation of `failure` under `settings`' budgets; nil when the budget is 0 or
    /// the invariant is not among `settings.invariants`.
    static func explain(_ failure: FuzzFailure, settings: FuzzSettings) -> FailureExplanation? {
        guard settings.explainRunMax > 0,
            let invariant = settings.invariants.first(where: { $0.name == failure.invariant })
        else { return nil }
        return explain(
            failure.scenario, failing: invariant, runMax: settings.explainRunMax,
            eventRunMax: settings.explainEventRunMax)
    }

    // MARK: - Probing

    /// The window of the event at `index`: down from its time first, then up.
    static func window(
        of index: Int, in scenario: Scenario, probe: inout FailureProbe, runMax: Int
    ) -> FailureExplanation.EventWindow {
        let timed = scenario.events[index]
        let horizon = max(scenario.horizon, timed.at)
        func moved(to time: VirtualDuration) -> Scenario {
            var variant = scenario
            variant.events[index].at = time
            return variant
        }
        let before = probe.runs
        let down = probe.reach(limit: stepCount(timed.at), runMax: runMax / 2) { steps in
            moved(to: max(timed.at - explainStep * steps, .zero))
        }
        let up = probe.reach(
            limit: stepCount(horizon - timed.at), runMax: runMax - (probe.runs - before)
        ) { steps in
            moved(to: min(timed.at + explainStep * steps, horizon))
        }
        let earliest = max(timed.at - explainStep * down.offset, .zero)
        let latest = min(timed.at + explainStep * up.offset, horizon)
        return FailureExplanation.EventWindow(
            index: index, event: timed, earliest: earliest, latest: latest,
            isEarliestExact: down.isExact, isLatestExact: up.isExact,
            isAnywhere: earliest == .zero && latest == horizon)
    }

    /// Steps of `explainStep` needed to cover `span`, the last one possibly partial.
    static func stepCount(_ span: VirtualDuration) -> Int64 {
        let step = explainStep.nanoseconds
        return (max(span.nanoseconds, 0) + step - 1) / step
    }

    /// Whether every alternative of `setting` still fails; false for a setting with none; nil
    /// when the budget ran out before that was known.
    static func isFree(
        _ setting: DiscreteSetting, in scenario: Scenario, probe: inout FailureProbe
    ) -> Bool? {
        let alternatives = setting.alternatives(scenario)
        guard !alternatives.isEmpty else { return false }
        for alternative in alternatives {
            guard let fails = probe.fails(alternative) else { return nil }
            guard fails else { return false }
        }
        return true
    }
}
