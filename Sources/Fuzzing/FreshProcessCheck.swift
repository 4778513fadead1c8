// A failure confirmed in a fresh process (layer 5): before the fuzzer reports a failure, it
// runs the failing scenario once more in a new worker process; a failure that does not happen
// there came from state the engine kept in the process that found it.
import Foundation
import Invariants
import Scenarios
import Simulation

/// The fuzzer's check that a failure is the scenario's, not the process's.
///
/// A run depends only on its scenario (the project's determinism), so a failure found in the
/// fuzzing process must happen again in a process that has run nothing else. One that does not
/// was caused by something an earlier case left behind: a static, a global or a singleton that
/// outlived its simulated process (`no-state-outliving-process`), which `ProcessStateCheck`
/// only catches when the first case already shows it. The fresh run's log is compared entry
/// by entry with the run in this process, and the report says where they part.
///
/// Only failures are replayed, once each, so a clean search pays nothing.
enum FreshProcessCheck {
    /// `failure` as reported: itself when the fresh run breaks its invariant too (or cannot be
    /// run there, which confirms nothing either way), else a `no-state-outliving-process`
    /// failure of the same scenario saying where the two runs part.
    static func confirmed(_ failure: FuzzFailure, executable: String) -> FuzzFailure {
        guard !failure.isProcessFailure, failure.invariant != ProcessStateCheck.invariant else {
            return failure
        }
        let worker = CaseWorker(
            executable: executable, arguments: [CaseWorker.subcommand],
            caseTimeoutSeconds: timeoutSeconds)
        defer { worker.stop() }
        let fresh = worker.run(failure.scenario, checking: failure.invariant)
        guard fresh.outcome == .completed, let count = fresh.violationCount, count == 0,
            let here = try? failure.scenario.record(keepsNarration: false)
        else { return failure }
        let parting = parting(here, fresh: fresh.log)
        let violation = Violation(
            invariant: ProcessStateCheck.invariant, instant: parting.instant,
            explanation: "\(failure.invariant) failed in the fuzzing process but not when the "
                + "same scenario ran in a fresh process: \(parting.what). Something the engine "
                + "keeps outlived its simulated process (a static, a global or a singleton left "
                + "by an earlier case), where iOS starts the app afresh. Keep per-process state "
                + "in ProcessLocal (docs/concurrency.md)")
        var unconfirmed = failure
        unconfirmed.invariant = ProcessStateCheck.invariant
        unconfirmed.violations = [violation]
        unconfirmed.explanation = nil
        return unconfirmed
    }

    /// Wall-clock seconds the fresh run may take: a shrunk scenario runs in milliseconds.
    static let timeoutSeconds = 60.0

    /// Where the run in this process and the fresh one (its log in words) first part.
    static func parting(_ here: RunRecord, fresh: [String]) -> (instant: Instant, what: String) {
        for index in here.log.indices {
            let said = here.log[index].description.replacingOccurrences(of: "\n", with: " ")
            guard index < fresh.count else {
                return (
                    here.log[index].instant,
                    "the fresh run's log ends after \(fresh.count) entries, where this process "
                        + "logged \"\(said)\""
                )
            }
            if fresh[index] != said {
                return (
                    here.log[index].instant,
                    "this process logged \"\(said)\" where the fresh one logged "
                        + "\"\(fresh[index])\""
                )
            }
        }
        if fresh.count > here.log.count {
            return (
                here.log.last?.instant ?? .start,
                "the fresh run logged \"\(fresh[here.log.count])\" after the "
                    + "\(here.log.count) entries both logged"
            )
        }
        return (
            here.horizon,
            "both logged the same \(here.log.count) entries; they differ on the disk or the "
                + "server"
        )
    }
}
