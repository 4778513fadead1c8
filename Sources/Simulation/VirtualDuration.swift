// A length of virtual time (layer 1), in whole nanoseconds, with exact integer arithmetic.

/// A length of virtual time in whole nanoseconds.
///
/// Policy values (grace periods, latencies) and delays are durations. They print compactly
/// (`1h30m`, `11.5s`, `250ms`) and parse from the same forms, so files a person writes read
/// naturally: `90s`, `15m`, `1h30m`, `1.5s`, `250ms`.
///
///     let grace = try VirtualDuration(parsing: "11.5s")
///     grace.nanoseconds   // 11_500_000_000
public struct VirtualDuration: Hashable, Comparable, Sendable {
    /// The length in nanoseconds. Negative only as the result of subtracting a later instant.
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualDuration(nanoseconds: 0)

    @inlinable
    public static func nanoseconds(_ value: Int64) -> VirtualDuration { .init(nanoseconds: value) }
    public static func microseconds(_ value: Int64) -> VirtualDuration {
        .init(nanoseconds: value * 1_000)
    }
    public static func milliseconds(_ value: Int64) -> VirtualDuration {
        .init(nanoseconds: value * 1_000_000)
    }
    public static func seconds(_ value: Int64) -> VirtualDuration {
        .init(nanoseconds: value * 1_000_000_000)
    }
    public static func minutes(_ value: Int64) -> VirtualDuration { .seconds(value * 60) }
    public static func hours(_ value: Int64) -> VirtualDuration { .seconds(value * 3600) }

    /// The duration closest to `value` seconds, rounded toward zero to a whole nanosecond.
    /// For converting measured or configured real numbers; never used for ordering.
    public init(seconds value: Double) {
        precondition(value.isFinite && abs(value) < 9.2e9, "a duration in seconds fits 292 years")
        self.init(nanoseconds: Int64(value * 1e9))
    }

    /// The length in seconds, for display and statistics only.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (lhs: VirtualDuration, rhs: VirtualDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
    public static func + (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        .init(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }
    public static func - (lhs: VirtualDuration, rhs: VirtualDuration) -> VirtualDuration {
        .init(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
    public static func * (lhs: VirtualDuration, rhs: Int64) -> VirtualDuration {
        .init(nanoseconds: lhs.nanoseconds * rhs)
    }
}
