// The longest gap a correct engine may leave (layer 5): the slowest way iOS brings a tracking
// app back to a moving device, from the policy's numbers and the route's slowest speed.
import Simulation
import World

/// The bound `bounded-gaps` holds gaps to, and its parts, each from the policy.
///
/// The slowest path back is significant change (R-F7, R-A10): the device must cover
/// `significantChangeDistanceMeters` at the route's slowest moving speed, the event may wait
/// for `significantChangeIntervalMin` since the last one, then comes
/// `significantChangeLatency`, and the relaunch itself (the largest of the per-mechanism
/// relaunch latencies); the engine then records at its own interval. The parts are added, not
/// maximised, so the bound is generous: a correct engine must never come near it, and a
/// broken one that stays down leaves gaps far past it.
public struct GapBound: Sendable, Equatable, CustomStringConvertible {
    public var travel: VirtualDuration
    public var eventInterval: VirtualDuration
    public var eventLatency: VirtualDuration
    public var relaunchLatency: VirtualDuration
    public var recordingInterval: VirtualDuration
    /// The slowest moving speed the travel time is computed at.
    public var speedMetersPerSecond: Double

    public var total: VirtualDuration {
        travel + eventInterval + eventLatency + relaunchLatency + recordingInterval
    }

    /// The bound under `policy` for a route whose slowest moving speed is
    /// `speedMetersPerSecond` (above `policy.stationarySpeedMetersPerSecond`).
    public init(
        policy: IOSPolicy, speedMetersPerSecond: Double, recordingInterval: VirtualDuration
    ) {
        precondition(speedMetersPerSecond > 0, "a moving speed is positive")
        self.speedMetersPerSecond = speedMetersPerSecond
        travel = VirtualDuration(
            seconds: policy.significantChangeDistanceMeters / speedMetersPerSecond)
        eventInterval = policy.significantChangeIntervalMin
        eventLatency = policy.significantChangeLatency
        relaunchLatency = max(
            policy.relaunchLatencySession, policy.relaunchLatencySignificantChange,
            policy.relaunchLatencyRegion, policy.relaunchLatencyVisit)
        self.recordingInterval = recordingInterval
    }

    public var description: String {
        "\(TimeText.duration(total)) (significant change at "
            + "\(PlainText.fixed(speedMetersPerSecond, digits: 1)) m/s: "
            + "\(TimeText.duration(travel)) travel + \(TimeText.duration(eventInterval)) "
            + "interval + \(TimeText.duration(eventLatency)) latency + "
            + "\(TimeText.duration(relaunchLatency)) relaunch + "
            + "\(TimeText.duration(recordingInterval)) recording interval)"
    }
}
