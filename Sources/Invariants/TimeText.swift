// Virtual times as a person reads them (layer 5), for violations and timelines.
import Simulation

/// Instants and durations as text: `HH:MM:SS.mmm` from the run's start (milliseconds,
/// truncated) and durations in the same clock form, computed in integers.
public enum TimeText {
    /// `instant` as `HH:MM:SS.mmm` since the start.
    public static func clock(_ instant: Instant) -> String {
        clock(nanoseconds: instant.nanosecondsSinceStart)
    }

    /// `duration` as `HH:MM:SS.mmm` (a leading `-` when negative).
    public static func duration(_ duration: VirtualDuration) -> String {
        let nanoseconds = duration.nanoseconds
        return nanoseconds < 0
            ? "-" + clock(nanoseconds: -nanoseconds) : clock(nanoseconds: nanoseconds)
    }

    private static let nanosecondsPerMillisecond: Int64 = 1_000_000
    private static let millisecondsPerSecond: Int64 = 1_000
    private static let secondsPerMinute: Int64 = 60
    private static let secondsPerHour: Int64 = 3_600

    private static func clock(nanoseconds: Int64) -> String {
        let milliseconds = nanoseconds / nanosecondsPerMillisecond
        let seconds = milliseconds / millisecondsPerSecond
        return padded(seconds / secondsPerHour, 2) + ":"
            + padded(seconds / secondsPerMinute % secondsPerMinute, 2) + ":"
            + padded(seconds % secondsPerMinute, 2) + "."
            + padded(milliseconds % millisecondsPerSecond, 3)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width
            ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
