// bounded-gaps (layer 5): while a fix is wanted and iOS allows one, the stretches with no
// stored fix stay within what the policy allows (`GapBound`).
import Engines
import Simulation
import World

extension Invariant {
    /// `bounded-gaps`: between two consecutive stored fixes (by the fix's instant; the run's
    /// start and horizon close the first and last stretch), the time a fix was wanted stays
    /// within `GapBound` (the slowest relaunch path at the route's slowest moving speed, plus
    /// `recordingInterval`, `policy.fixInterval` when nil).
    ///
    /// A fix is wanted at an instant when all hold:
    /// - the user wants tracking on (`TrackingIntent`: from the user's opens and toggles, and
    ///   the app's launch rules, never from the engine's own events);
    /// - the authorization is Always with full accuracy, or When In Use with full accuracy in
    ///   a process that asked for background configuration (a background activity session or
    ///   background updates; R-A3, R-A6, R-A7), a grant from no permission counting from the
    ///   user's next open; Always: from the configuration, then as the
    ///   `setAuthorization` and `setAccuracy` actions leave it (R-A3, R-F5, R-F10); a grant
    ///   back wants fixes again at once, since a nil location means none now, not that
    ///   updates stopped (R-C1), and a first grant from the user's next `open` (R-A13: the
    ///   engine rightly started nothing before it, and iOS wakes no app for it);
    /// - the app declares the location background mode (R-A3);
    /// - the engine never called an API the modelled iOS version lacks (an `unavailableAPI`
    ///   entry in the log: the engine targets a newer iOS, e.g. live updates on iOS 16, and
    ///   the log says so already); such a run is not checked at all;
    /// - the device moves faster than `policy.stationarySpeedMetersPerSecond` (R-C2);
    /// - no iOS rule has stopped the app for good: not from a `forceQuit`, `crash` or `exit`
    ///   action until the next launch (whether iOS relaunches after a swipe depends on the
    ///   preset and on what the engine held, R-B4–R-B6), except a force-quit whose
    ///   `applicationWillTerminate` ran under a policy that relaunches force-quit apps by
    ///   region exit, after a location had reached the app (R-B6, R-D7: the engine could
    ///   leave a region behind, around it), and not from a
    ///   `reboot` until a process of the app first runs with its data readable (R-B7, R-D9:
    ///   the relaunch and the user's unlock), and not from the next launch after a process
    ///   that lost a change to its saved record until the user next turns tracking on (the
    ///   enabled flag may be what was lost; before that launch nothing read the record, so the
    ///   loss explains nothing, R-S3).
    public static func boundedGaps(recordingInterval: VirtualDuration? = nil) -> Invariant {
        Invariant(
            name: BoundedGaps.name,
            summary: "While a fix is wanted and iOS allows one, no stretch without a stored "
                + "fix exceeds the policy's slowest relaunch path."
        ) { record in
            BoundedGaps(
                record: record,
                recordingInterval: recordingInterval ?? record.policy.fixInterval
            ).violations()
        }
    }
}

/// The check of `Invariant.boundedGaps(recordingInterval:)`.
struct BoundedGaps {
    static let name = "bounded-gaps"
    let record: RunRecord
    let recordingInterval: VirtualDuration

    func violations() -> [Violation] {
        guard let speed = slowestMovingSpeed() else { return [] }
        let bound = GapBound(
            policy: record.policy, speedMetersPerSecond: speed,
            recordingInterval: recordingInterval)
        let reducedBound = GapBound(
            policy: record.policy, speedMetersPerSecond: speed,
            recordingInterval: max(recordingInterval, record.policy.reducedAccuracyUpdateInterval))
        let wantedTime = WantedTime(record: record)
        // The start, every stored fix in time order, and the horizon, in one array (a week's
        // drive stores 600,000 fixes: 5 MB an array of their instants), which `fixInstants`
        // makes with room for the two ends.
        var points = record.storedFixes.fixInstants
        points.sort()
        points.insert(.start, at: 0)
        points.append(record.horizon)
        var found: [Violation] = []
        for (from, to) in zip(points, points.dropFirst()) where from < to {
            var (length, first) = wantedTime.stretches.measure(from: from, to: to)
            var bound = bound
            if length <= bound.total {
                (length, first) = wantedTime.reduced.measure(from: from, to: to)
                bound = reducedBound
            }
            guard length > bound.total, let first else { continue }
            let opening = from == .start ? "the start" : "the fix at \(TimeText.clock(from))"
            let closing = to == record.horizon ? "the horizon" : "the fix at \(TimeText.clock(to))"
            found.append(
                Violation(
                    invariant: Self.name, instant: first,
                    explanation: "no fix was stored from \(opening) to \(closing): "
                        + "\(TimeText.duration(length)) of that time "
                        + "a fix was wanted (tracking on, allowed in the background, moving, nothing "
                        + "stopping the app for good, from \(TimeText.clock(first))), over the bound "
                        + "\(bound)"))
        }
        return found
    }

    /// A leg's speed is read at its middle.
    private static let halves: Int64 = 2

    /// The slowest speed of any leg of the route that moves, nil when none does.
    private func slowestMovingSpeed() -> Double? {
        let route = record.route
        let threshold = record.policy.stationarySpeedMetersPerSecond
        var slowest: Double?
        for (start, end) in zip(route.waypoints, route.waypoints.dropFirst())
        where start.instant < end.instant && start.instant < record.horizon {
            let span = end.instant.nanosecondsSinceStart - start.instant.nanosecondsSinceStart
            let middle = Instant(
                nanosecondsSinceStart: start.instant.nanosecondsSinceStart + span / Self.halves)
            let speed = route.speed(at: middle)
            if speed > threshold { slowest = min(slowest ?? speed, speed) }
        }
        return slowest
    }
}
