// Virtual time for the kernel (layer 1): an instant is a whole number of nanoseconds since the
// scenario's start. Integers keep time exact, cheap to compare and free of drift.

/// A point in virtual time: whole nanoseconds since the scenario started.
///
/// Virtual time never runs backwards inside a run; the scheduler checks that on every send.
/// The readable form is `hh:mm:ss.mmm` (`00:12:03.250`), with nanosecond digits only when the
/// instant is not a whole millisecond (`00:00:01.000000500`).
///
///     let fix = Instant.start + .seconds(723) + .milliseconds(250)
///     print(fix)   // 00:12:03.250
public struct Instant: Hashable, Comparable, Sendable {
    /// Nanoseconds since the scenario's start; never negative.
    public var nanosecondsSinceStart: Int64

    /// The scenario's first instant.
    public static let start = Instant(nanosecondsSinceStart: 0)

    /// Creates an instant `nanosecondsSinceStart` after the start (which must be >= 0).
    @inlinable
    public init(nanosecondsSinceStart: Int64) {
        precondition(nanosecondsSinceStart >= 0, "an instant lies at or after the start")
        self.nanosecondsSinceStart = nanosecondsSinceStart
    }

    /// Seconds since the start, for display and statistics only (never for ordering).
    public var secondsSinceStart: Double { Double(nanosecondsSinceStart) / 1e9 }

    @inlinable
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanosecondsSinceStart < rhs.nanosecondsSinceStart
    }

    /// The instant `duration` later. Traps on overflow (about 292 years of virtual time).
    @inlinable
    public static func + (lhs: Instant, rhs: VirtualDuration) -> Instant {
        Instant(nanosecondsSinceStart: lhs.nanosecondsSinceStart + rhs.nanoseconds)
    }

    /// The duration from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: Instant, rhs: Instant) -> VirtualDuration {
        VirtualDuration(nanoseconds: lhs.nanosecondsSinceStart - rhs.nanosecondsSinceStart)
    }
}

extension Instant: CustomStringConvertible {
    /// `hh:mm:ss.mmm`, with nine fractional digits when the instant is not a whole millisecond.
    public var description: String {
        let total = nanosecondsSinceStart
        let seconds = total / 1_000_000_000
        let fraction = total % 1_000_000_000
        let clock =
            twoDigits(seconds / 3600) + ":" + twoDigits(seconds / 60 % 60) + ":"
            + twoDigits(seconds % 60)
        if fraction % 1_000_000 == 0 {
            return clock + "." + zeroPadded(fraction / 1_000_000, width: 3)
        }
        return clock + "." + zeroPadded(fraction, width: 9)
    }
}

extension Instant {
    /// Parses the readable form `hh:mm:ss[.fraction]` (as printed) or a duration since the start
    /// such as `90s` or `1h30m`. Returns nil when `text` is neither.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3 {
            guard let hours = Int64(parts[0]), let minutes = Int64(parts[1]),
                hours >= 0, (0..<60).contains(minutes),
                let seconds = try? VirtualDuration(parsing: String(parts[2]) + "s"),
                seconds.nanoseconds < 60_000_000_000
            else { return nil }
            let (wholeMinutes, overflow) = hours.multipliedReportingOverflow(by: 60)
            guard !overflow, wholeMinutes < Int64.max / 60_000_000_000 else { return nil }
            let nanoseconds = (wholeMinutes + minutes) * 60_000_000_000 + seconds.nanoseconds
            self.init(nanosecondsSinceStart: nanoseconds)
            return
        }
        guard let offset = try? VirtualDuration(parsing: text) else { return nil }
        self.init(nanosecondsSinceStart: offset.nanoseconds)
    }
}

@inline(__always)
func twoDigits(_ value: Int64) -> String { zeroPadded(value, width: 2) }
