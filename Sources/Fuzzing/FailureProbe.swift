// The explain phase's oracle (layer 5): does a variant of a failing scenario still break the
// same invariant, counted against a run budget; and the outward search along one direction.
import Invariants
import Scenarios

/// Runs variants of a failing scenario and says whether each still breaks one invariant,
/// spending at most `runMax` runs in all.
///
/// A variant that breaks only other invariants, or cannot run (a policy that does not load),
/// counts as passing: the explanation is about this failure.
struct FailureProbe {
    /// Just the invariant the failure breaks.
    let invariants: [Invariant]
    /// Runs allowed in all.
    let runMax: Int
    /// Runs made so far. invariant: runs <= runMax
    private(set) var runs = 0
    /// A run was asked for after the budget was spent.
    private(set) var wasRefused = false

    init(invariant: Invariant, runMax: Int) {
        precondition(runMax >= 0, "a run budget is not negative")
        invariants = [invariant]
        self.runMax = runMax
    }

    /// The budget is used up.
    var isSpent: Bool { runs >= runMax }

    /// Whether `scenario` still breaks the invariant; nil, without running it, once the budget
    /// is spent.
    mutating func fails(_ scenario: Scenario) -> Bool? {
        guard !isSpent else {
            wasRefused = true
            return nil
        }
        runs += 1
        guard let violations = try? Fuzzer.check(scenario, invariants).violations else {
            return false
        }
        // Only this invariant counts: a variant that escapes the simulation instead does not.
        return violations.contains { $0.invariant == invariants[0].name }
    }

    /// How far one direction reaches from a failing point: the largest offset in
    /// `0...limit` up to which every probe failed, probing offsets 1, 2, 4, … (capped at
    /// `limit`) until one passes, then bisecting between the last failing and the first
    /// passing one. `variant(n)` is the scenario at offset n; offset 0 is known to fail.
    /// Spends at most `runMax` runs of this probe's budget.
    /// - Returns: the offset, and whether it is exact (it is `limit`, or the offset after it
    ///   passed); not exact when the budget ran out first.
    mutating func reach(
        limit: Int64, runMax: Int, variant: (Int64) -> Scenario
    ) -> (offset: Int64, isExact: Bool) {
        precondition(limit >= 0, "a search reaches no further than its limit")
        var failing: Int64 = 0
        var passing: Int64?
        var used = 0
        var step: Int64 = 1
        while passing == nil, failing < limit {
            let offset = min(step, limit)
            guard used < runMax, let fails = fails(variant(offset)) else {
                return (failing, false)
            }
            used += 1
            if fails { failing = offset } else { passing = offset }
            step *= 2
        }
        guard var above = passing else { return (failing, true) }
        while above - failing > 1 {
            let middle = failing + (above - failing) / 2
            guard used < runMax, let fails = fails(variant(middle)) else {
                return (failing, false)
            }
            used += 1
            if fails { failing = middle } else { above = middle }
        }
        assert(failing + 1 == above, "bisection ends next to a passing offset")
        return (failing, true)
    }
}
