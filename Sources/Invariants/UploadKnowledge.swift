// What the app could know of the server's acceptances (layer 5): which batch each upload
// completion answered, and whether a batch sent again to a server that stores every request
// was sent after the app could have kept the server's answer (R-S2).
import Simulation
import World

/// A batch sent again after the app could have known the server had accepted it: the resend
/// the app could have avoided.
struct AvoidableResend: CustomStringConvertible {
    let key: UploadBatchKey
    /// The resend's request: when and from which process.
    let sentAt: Instant
    let sender: Int
    /// Who learnt of the acceptance, and when.
    let learntAt: Instant
    let learner: Int

    var description: String {
        let kept =
            learner == sender
            ? "in the same process"
            : "and ran long enough after it to keep the answer (a commit, R-S1)"
        return "the engine sent \(key) again at \(TimeText.clock(sentAt)) from process "
            + "\(sender), though process \(learner) learnt at \(TimeText.clock(learntAt)) that "
            + "the server had accepted it, \(kept): a resend it could have avoided (R-S2 excuses "
            + "a retry only while the app cannot know the server has the batch)"
    }
}

/// The acceptances the app's code was told of (`didCompleteUpload` with `accepted`), each with
/// the batch it answered, read from the log and the requests the network received.
///
/// A resend to a server that stores every request is stored twice by the server's design:
/// excusable while the app could not know the first request landed (its answer was lost, or
/// the process that heard it ended before it could keep it). From the moment the app's code
/// hears "accepted", the same process sending the batch again is avoidable; a later process
/// sending it is avoidable when the process that heard it went on running for
/// `storeCommitDuration` (the time a commit takes, R-S1) and lost no store commit after it: it
/// could have made the answer durable in its store, as the `Uploader`'s done row does.
struct UploadKnowledge {
    private let record: RunRecord
    private let acceptances: [(key: UploadBatchKey, instant: Instant, generation: Int)]

    init(record: RunRecord) {
        self.record = record
        // Which batch each (process, task) sent: lookups only, never iterated.
        var keys: [Int: [UploadTaskID: UploadBatchKey]] = [:]
        for sent in record.digest.uploadsSent {
            keys[sent.generation, default: [:]][sent.task] = sent.key
        }
        var acceptances: [(key: UploadBatchKey, instant: Instant, generation: Int)] = []
        for entry in record.log.uncommon {
            guard case .uploadCompleted(let task, .accepted) = entry.kind,
                let key = keys[entry.generation]?[task]
            else { continue }
            acceptances.append((key, entry.instant, entry.generation))
        }
        self.acceptances = acceptances
    }

    /// Whether the request that the server accepted as `batch` was sent after the app could
    /// have known the server already had it; nil when it could not have (or the request is
    /// not one of the app's own: a background transfer's).
    func avoidableResend(of batch: AcceptedBatch) -> AvoidableResend? {
        guard
            let request = record.digest.uploadsSent.last(where: {
                $0.key == batch.key && $0.instant <= batch.instant
            })
        else { return nil }
        let processes = record.processes
        for known in acceptances where known.key == batch.key && known.instant < request.instant {
            let avoidable: Bool
            if known.generation == request.generation {
                avoidable = true
            } else if known.generation >= 1, known.generation <= processes.count {
                let learner = processes[known.generation - 1]
                let end = learner.endedAt ?? record.horizon
                avoidable =
                    learner.runs(
                        for: record.policy.storeCommitDuration, within: known.instant, end)
                    && !lostWrites(of: known.generation, after: known.instant)
            } else {
                avoidable = false
            }
            if avoidable {
                return AvoidableResend(
                    key: batch.key, sentAt: request.instant, sender: request.generation,
                    learntAt: known.instant, learner: known.generation)
            }
        }
        return nil
    }

    /// Whether process `generation` lost a store commit (or rows it never committed) at or
    /// after `instant`: it may have been keeping the answer.
    private func lostWrites(of generation: Int, after instant: Instant) -> Bool {
        record.log.uncommon.contains { entry in
            guard entry.generation == generation, entry.instant >= instant else { return false }
            switch entry.kind {
            case .commitLost, .uncommittedRowsLost: return true
            default: return false
            }
        }
    }
}

/// The batch each accepted batch repeats: the last one accepted before it under the same key.
/// Found by looking back from the batch, kept for the batch last asked about (its rows are
/// read one after another).
struct RepeatedBatches {
    private var last: (batch: Int, repeated: Int?)?

    mutating func batch(repeatedBy index: Int, in batches: UploadServer.Batches) -> Int? {
        if let last, last.batch == index { return last.repeated }
        let key = batches.key(at: index)
        let repeated = (0..<index).reversed().first { batches.key(at: $0) == key }
        last = (index, repeated)
        return repeated
    }
}
