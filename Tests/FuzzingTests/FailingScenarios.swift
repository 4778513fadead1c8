// Shrunk failures of four mutants, as `lifeline fuzz` found them (seed 1), for the explain
// phase's tests, with each one's explanation computed once.
import EngineMutants
import Engines
import Invariants
import Scenarios
import Simulation
import World

@testable import Fuzzing

/// A scenario a mutant fails, the invariant it breaks, and its explanation.
struct FailingScenario: Sendable, CustomStringConvertible {
    var name: String
    var scenario: Scenario
    var invariant: Invariant
    var explanation: FailureExplanation

    init(_ mutant: Mutant, breaks invariant: String, _ body: (inout Scenario) -> Void) {
        name = mutant.rawValue
        scenario = Scenario.build {
            $0.engine = ScenarioEngine(.mutant(mutant))
            $0.authorization = .always
            body(&$0)
        }
        self.invariant = Invariant.builtIn(named: invariant)!
        explanation = Fuzzer.explain(
            scenario, failing: self.invariant, runMax: Self.runMax,
            eventRunMax: Self.eventRunMax)
    }

    /// `FuzzSettings`' defaults.
    static let runMax = 400
    static let eventRunMax = 40

    var description: String { name }

    /// Whether `variant` breaks this failure's invariant.
    func fails(_ variant: Scenario) throws -> Bool {
        try !Fuzzer.check(variant, [invariant]).violations.isEmpty
    }

    /// The scenario with event `index` moved to `time`, the others kept.
    func moving(_ index: Int, to time: VirtualDuration) -> Scenario {
        var variant = scenario
        variant.events[index].at = time
        return variant
    }

    /// The window of event `index`.
    func window(_ index: Int) -> FailureExplanation.EventWindow? {
        explanation.eventWindows.first { $0.index == index }
    }

    /// The leave starts the session in the background at once.
    static let sessionFromBackground = FailingScenario(
        .sessionFromBackground, breaks: "foreground-rule-for-sessions"
    ) {
        $0.drive(.minutes(1), speed: 13.9)
        $0.at(.zero, .open)
        $0.at(.zero, .leave)
        $0.horizon = .minutes(11)
    }

    /// A force-quit under a random ordering loses a fix acknowledged before its commit.
    static let fixAcknowledgedBeforeCommit = FailingScenario(
        .fixAcknowledgedBeforeCommit, breaks: "no-fix-lost-after-restore"
    ) {
        $0.ordering = .random(seed: 1)
        $0.drive(.minutes(1), speed: 13.9)
        $0.at(.zero, .open)
        $0.at(.minutes(3), .forceQuit)
        $0.horizon = .minutes(11)
    }

    /// A force-quit soon after the launch, while the launch's slow work runs.
    static let restoreAfterSlowWork = FailingScenario(
        .restoreAfterSlowWork, breaks: "restore-exactly-what-was-running"
    ) {
        $0.park(.minutes(1))
        $0.drive(.minutes(1), speed: 13.9)
        $0.at(.zero, .open)
        $0.at(.seconds(1), .forceQuit)
        $0.horizon = .minutes(12)
    }

    /// Background updates enabled without the Info.plist mode: a crash at the first launch.
    static let backgroundWithoutCapability = FailingScenario(
        .backgroundWithoutCapability, breaks: "no-capability-trap"
    ) {
        $0.capabilities.locationBackgroundMode = false
        $0.drive(.minutes(1), speed: 13.9)
        $0.at(.zero, .open)
        $0.horizon = .minutes(11)
    }

    static let all = [
        sessionFromBackground, fixAcknowledgedBeforeCommit, restoreAfterSlowWork,
        backgroundWithoutCapability,
    ]
}
