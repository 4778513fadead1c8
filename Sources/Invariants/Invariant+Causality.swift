// causality (layer 5, meta): virtual time never runs backwards, and nothing reaches the code of
// a process that is not running.
import Simulation
import World

extension Invariant {
    /// `causality`: the trace's instants never decrease, nor do the log's; and every item the
    /// app's mailbox handed to the engine (a log entry of a location, failure, event,
    /// authorization, pause or resume, background task expiry, unlock, commit or upload
    /// completion, session diagnostic, monitor records or timer) was handed while its process
    /// was running (foreground or background, not suspended or ended), as the entry's
    /// `processState` records.
    public static var causality: Invariant {
        Invariant(
            name: Causality.name,
            summary: "Virtual time never runs backwards, and nothing is handed to a process "
                + "that is not running."
        ) { record in Causality(record: record).violations() }
    }
}

/// The check of `Invariant.causality`.
struct Causality {
    static let name = "causality"
    let record: RunRecord

    func violations() -> [Violation] {
        var found: [Violation] = []
        // The trace's deliveries out of time order were noted as the run went (`TraceDigest`).
        for delivery in record.digest.outOfOrder {
            found.append(
                violation(
                    delivery.instant,
                    "delivery \(delivery.traceIndex) of the trace (\(delivery.message)) is at "
                        + "\(TimeText.clock(delivery.instant)), before the delivery at "
                        + "\(TimeText.clock(delivery.previous)) that preceded it"))
        }
        // The log noted the entries to look at as they were appended (`AppLog`'s suspects):
        // each out of time order, or logged while its process was not running.
        let log = record.log
        for suspect in log.timeAndStateSuspects {
            let index = suspect.position
            let previous = suspect.latestBefore
            let stamp = log.stamp(at: index)
            let instant = stamp.instant
            if instant < previous {
                found.append(
                    violation(
                        instant,
                        "the log's entry \(log[index].kind) is at \(TimeText.clock(instant)), "
                            + "before the entry at \(TimeText.clock(previous)) logged before it"))
            }
            if !stamp.processState.isRunning, Self.isHanded(log[index].kind) {
                let entry = log[index]
                found.append(
                    violation(
                        entry.instant,
                        "\(entry.kind) was handed to process \(entry.generation) at "
                            + "\(TimeText.clock(entry.instant)) while it was "
                            + "\(entry.processState.rawValue)"))
            }
        }
        return found
    }

    /// True for the entries of items the mailbox handed to the engine's code.
    static func isHanded(_ kind: AppLogEntry.Kind) -> Bool {
        switch kind {
        case .location, .failure, .monitoringFailure, .monitoringStarted, .regionState, .event,
            .authorization,
            .accuracyAuthorization, .locationUpdatesPaused, .locationUpdatesResumed,
            .backgroundTaskExpiring, .protectedDataAvailable, .didCommit, .uploadCompleted,
            .sessionDiagnostic, .monitorRecords, .timerFired, .wake, .wakeExpiring,
            .backgroundTransferCompleted, .backgroundSessionEventsFinished:
            true
        default: false
        }
    }

    private func violation(_ instant: Instant, _ explanation: String) -> Violation {
        Violation(invariant: Self.name, instant: instant, explanation: explanation)
    }
}
