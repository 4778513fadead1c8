// A team's own engine fuzzed from its own package with `fuzzLifecycle`, against the built-in
// invariants plus one of the team's own, through Lifeline's public API only.
import Foundation
import LifelineTesting
import Testing

/// The team's engine: here, the session engine configured as the team ships it (stopping at
/// termination when the user asks), registered under the team's name.
let myTracker = CustomEngine(
    name: "my-tracker", summary: "our app's tracker: the session engine as we configure it"
) { rules in
    BuiltInEngine.session.make(launchRules: rules)
}

/// The team's own rule: no stored fix was taken after the run ended (a clock mix-up in their
/// past). It plugs in next to the built-in invariants.
let noFixFromTheFuture = Invariant(
    name: "no-fix-from-the-future", summary: "Every stored fix was taken before the run ended."
) { record in
    record.storedFixes.compactMap { stored in
        guard stored.fix.instant > record.horizon else { return nil }
        return Violation(
            invariant: "no-fix-from-the-future", instant: stored.fix.instant,
            explanation: "a fix stamped after the horizon was stored")
    }
}

@Suite("my-tracker's lifecycle")
struct LifecycleFuzzTests {
    @Test func myTrackerHoldsEveryInvariant() {
        let report = fuzzLifecycle(
            of: .custom(myTracker), checking: Invariant.builtIn + [noFixFromTheFuture],
            seed: 7, cases: 40, corpus: "Corpus")
        #expect(report?.failure == nil)
        #expect((report?.cases ?? 0) >= 40)
    }

    /// A time budget and a narrowed search: iOS 26 only, no reboots.
    @Test func myTrackerWithinABudget() {
        var generator = ScenarioGenerator(engine: .custom(myTracker))
        generator.presets = ["iOS26"]
        generator.eventFilter = { $0 != .reboot }
        let report = fuzzLifecycle(
            of: .custom(myTracker), seed: 3, seconds: 2, generator: generator)
        #expect(report?.failure == nil)
        #expect((report?.cases ?? 0) >= 1)
    }

    /// What a trap does inside `swift test` (`fuzzLifecycle`'s doc comment): it ends the test
    /// process. Run only when asked (`.ci/run` does, and expects the process to die).
    @Test(.enabled(if: Foundation.ProcessInfo.processInfo.environment["LIFELINE_TRAP_DEMO"] != nil))
    func aTrapEndsTheTestProcess() {
        let trapper = CustomEngine(name: "trapper", summary: "traps at its first launch") {
            rules in
            let slots: [Int] = []
            _ = slots[rules.startOnBoot ? 2 : 1]  // index out of range
            return BuiltInEngine.session.make(launchRules: rules)
        }
        fuzzLifecycle(of: .custom(trapper), cases: 5)
    }

    /// The failure path seen from outside: a known-broken engine is caught, shrunk and recorded
    /// as an issue with its story.
    @Test func aBrokenEngineIsCaught() {
        var report: FuzzReport??
        withKnownIssue("retry-without-idempotency uploads a fix twice") {
            report = fuzzLifecycle(of: .mutant(.retryWithoutIdempotency), seed: 7, cases: 100)
        }
        #expect(report??.failure?.invariant == "uploaded-once")
        #expect((report??.failure?.scenario.events.count ?? 99) <= 8)
    }
}
