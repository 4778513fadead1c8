// A fix's identity for counting (layer 5): fixes are values without an identifier, so two are
// the same fix when every field is bit-for-bit equal.
import Simulation
import World

/// A `Fix` as a dictionary key: instant, coordinate, accuracy and speed, by bit pattern. Used
/// only for membership and counts, never iterated, so no hashing order reaches any output.
struct FixKey: Hashable {
    let nanoseconds: Int64
    let latitudeBits: UInt64
    let longitudeBits: UInt64
    let accuracyBits: UInt64
    let speedBits: UInt64

    init(_ fix: Fix) {
        nanoseconds = fix.instant.nanosecondsSinceStart
        latitudeBits = fix.coordinate.latitude.bitPattern
        longitudeBits = fix.coordinate.longitude.bitPattern
        accuracyBits = fix.horizontalAccuracyMeters.bitPattern
        speedBits = fix.speedMetersPerSecond.bitPattern
    }

    /// The instant and the position: two fixes that share them are the same fix in practice,
    /// and equality still compares every field.
    func hash(into hasher: inout Hasher) {
        hasher.combine(nanoseconds)
        hasher.combine(latitudeBits ^ longitudeBits)
    }
}

/// How many times each fix occurs (a multiset), filled from arrays in order.
struct FixCounts {
    private var counts: [FixKey: Int] = [:]

    init<S: Sequence>(_ fixes: S) where S.Element == Fix {
        counts.reserveCapacity(fixes.underestimatedCount)
        for fix in fixes { add(fix) }
    }

    mutating func add(_ fix: Fix) { counts[FixKey(fix), default: 0] += 1 }

    func count(of fix: Fix) -> Int { counts[FixKey(fix)] ?? 0 }

    /// Takes one occurrence of `fix` away; false when there was none.
    mutating func take(_ fix: Fix) -> Bool {
        let key = FixKey(fix)
        guard let count = counts[key], count > 0 else { return false }
        counts[key] = count - 1
        return true
    }
}
