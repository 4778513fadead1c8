// no-state-outliving-process (layer 5): the engine keeps nothing past its simulated process,
// checked by running one scenario twice in the same real process.
import Invariants
import Scenarios
import Simulation
import World

/// The fuzzer's check that an engine's state dies with its simulated process.
///
/// A `static`, a global or a singleton lives as long as the real process running the
/// simulation, so it survives a simulated force-quit, purge, crash or reboot, and hides the
/// very losses Lifeline looks for (iOS starts a killed app from nothing). Swift gives no way to
/// list a program's statics, so the check looks at what they do instead: a run depends only on
/// its scenario, so the same scenario run twice in one process must give the same run, entry
/// for entry. State left behind by the first run (a launch counter, a "started" flag, a cached
/// manager) makes the second run differ from its first launch on.
///
/// The fuzzer runs it before its search, on the first valid generated case, on the calling
/// thread. Per-process state belongs in `ProcessLocal` (docs/concurrency.md), which starts
/// again at every launch.
package enum ProcessStateCheck {
    package static let invariant = "no-state-outliving-process"

    /// Runs `scenario` (generated case `caseIndex`) twice; the failure when the two runs
    /// differ, nil when they agree or the scenario cannot be run.
    package static func failure(_ scenario: Scenario, caseIndex: Int) -> FuzzFailure? {
        guard let first = try? scenario.record(keepsNarration: false),
            let second = try? scenario.record(keepsNarration: false),
            let difference = difference(first, second)
        else { return nil }
        let violation = Violation(
            invariant: invariant, instant: difference.instant,
            explanation: "the same scenario run twice in one process differed: "
                + "\(difference.what). Something the engine keeps outlived its simulated "
                + "process: a static, a global or a singleton survives a simulated kill, where iOS "
                + "starts the app afresh. Keep per-process state in "
                + "ProcessLocal (docs/concurrency.md)")
        return FuzzFailure(
            invariant: invariant, scenario: scenario, violations: [violation],
            origin: .generated(caseIndex: caseIndex), corpusPath: nil,
            originalEventCount: scenario.events.count, shrinkRuns: 0)
    }

    /// Where two runs of one scenario first part, if they do: the app's log entry by entry,
    /// then the disk and the server.
    static func difference(_ first: RunRecord, _ second: RunRecord) -> (
        instant: Instant, what: String
    )? {
        for index in 0..<min(first.log.count, second.log.count) {
            // Most entries of a long run are packed fixes and commits, compared as they are
            // kept: describing every entry took 240 M of the 254 M instructions this loop took
            // in `fuzz --engine session --cases 100 --long` (callgrind), 9 % of the command.
            if first.log.isSamePackedEntry(at: index, in: second.log) { continue }
            let one = first.log[index]
            let other = second.log[index]
            let said = one.description
            let again = other.description
            guard said != again else { continue }
            return (
                min(one.instant, other.instant),
                "the first run logged \"\(said)\" where the second logged \"\(again)\""
            )
        }
        if first.log.count != second.log.count {
            return (
                min(first.log.last?.instant ?? .start, second.log.last?.instant ?? .start),
                "the first run logged \(first.log.count) entries, the second "
                    + "\(second.log.count)"
            )
        }
        if first.storedRows != second.storedRows {
            return (
                first.horizon,
                "the first run left \(first.storedRows.count) rows on disk, the second "
                    + "\(second.storedRows.count)"
            )
        }
        if first.server.accepted.count != second.server.accepted.count {
            return (
                first.horizon,
                "the server accepted \(first.server.accepted.count) batches in the "
                    + "first run, \(second.server.accepted.count) in the second"
            )
        }
        return nil
    }
}
