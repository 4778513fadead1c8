// A run's figures (layer 5): fixes produced, delivered, stored and uploaded; gaps; relaunch
// latencies; time with GNSS on.
import Simulation
import World

/// What one run achieved, counted from its record.
///
/// - `fixesProduced`: locations with a fix the location daemon sent for the app (the trace's
///   `deliver` messages to the app), withheld ones included: one per updating manager or live
///   stream per fix epoch.
/// - `fixesDelivered`: locations with a fix handed to the app's code (the log's `location`
///   entries).
/// - `fixesStored`: rows with a fix on disk at the end, read with the app's reader
///   (`RunRecord.fix(in:)`, so that a team's own rows count).
/// - `fixesUploaded`: rows with a fix the server accepted (each batch once), read the same way.
/// - `longestGap`, `meanGap`: between consecutive stored fixes, by the fix's instant (zero
///   with fewer than two).
/// - `relaunchLatencies`: from each termination to the next launch, when that launch is into
///   the background (iOS's relaunch, not the user's open), in order.
/// - `gnssOnTime`: the energy proxy. The daemon runs one fix epoch per `policy.fixInterval`
///   while any manager or live stream wants fixes (the trace's `fix` timers at the daemon);
///   the receiver counts as on for the whole interval of each epoch, so this is the epochs
///   times the interval. It overstates a manager asking for Wi-Fi or cell accuracy, which
///   the model serves from the same epochs.
public struct RunMetrics: Sendable, Equatable {
    public var fixesProduced: Int
    public var fixesDelivered: Int
    public var fixesStored: Int
    public var fixesUploaded: Int
    public var longestGap: VirtualDuration
    public var meanGap: VirtualDuration
    public var relaunchLatencies: [VirtualDuration]
    public var gnssOnTime: VirtualDuration

    /// The figures of `record`.
    public init(_ record: RunRecord) {
        fixesProduced = record.digest.fixesProduced
        gnssOnTime = record.policy.fixInterval * record.digest.gnssEpochs
        let log = record.log
        fixesDelivered = log.indices.count { index in
            if case .location(hasFix: true) = log.routine(at: index) { true } else { false }
        }
        fixesStored = record.storedRows.count { record.fix(in: $0) != nil }
        var uploaded = 0
        record.server.accepted.forEachRow { _, row in
            if record.fix(in: row) != nil { uploaded += 1 }
            return true
        }
        fixesUploaded = uploaded
        let instants = record.storedFixes.fixInstants.sorted()
        let gaps = zip(instants, instants.dropFirst()).map { $1 - $0 }
        longestGap = gaps.max() ?? .zero
        meanGap =
            gaps.isEmpty
            ? .zero
            : VirtualDuration(
                nanoseconds: (instants[instants.count - 1] - instants[0]).nanoseconds
                    / Int64(gaps.count))
        relaunchLatencies = Self.relaunchLatencies(record.processes)
    }

    private static func relaunchLatencies(_ processes: [ProcessSpan]) -> [VirtualDuration] {
        zip(processes, processes.dropFirst()).compactMap { previous, next in
            guard let ended = previous.endedAt, next.launch.state == .background else {
                return nil
            }
            return next.launchedAt - ended
        }
    }
}

extension RunMetrics: CustomStringConvertible {
    /// The figures on one line each, for `lifeline run`.
    public var description: String {
        let latencies = relaunchLatencies.map(TimeText.duration).joined(separator: ", ")
        return [
            "fixes produced \(fixesProduced), delivered \(fixesDelivered), stored "
                + "\(fixesStored), uploaded \(fixesUploaded)",
            "longest gap \(TimeText.duration(longestGap)), mean gap \(TimeText.duration(meanGap))",
            "relaunch latencies [\(latencies)]",
            "GNSS on \(TimeText.duration(gnssOnTime))",
        ].joined(separator: "\n")
    }
}
