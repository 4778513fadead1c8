// A fix's identity for counting (layer 5): fixes are values without an identifier, so two are
// the same fix when every field is bit-for-bit equal.
import Simulation
import World

/// A `Fix` as a table key (`FixTable`): instant, coordinate, accuracy and speed, by bit
/// pattern. Used only for membership and counts, never iterated, so no order reaches any output.
struct FixKey: Equatable {
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
}

/// How many times each fix occurs (a multiset), filled from arrays in order.
struct FixCounts {
    private var counts: FixTable<Int>

    init<S: Sequence>(_ fixes: S) where S.Element == Fix {
        self.init(capacity: fixes.underestimatedCount)
        for fix in fixes { add(fix) }
    }

    /// No fix yet, with room for `capacity` distinct fixes before the table grows.
    init(capacity: Int) { counts = FixTable(capacity: capacity) }

    mutating func add(_ fix: Fix) { counts.update(FixKey(fix), initial: 0) { $0 += 1 } }

    func count(of fix: Fix) -> Int { counts.value(for: FixKey(fix)) ?? 0 }

    /// Takes one occurrence of `fix` away; false when there was none.
    mutating func take(_ fix: Fix) -> Bool {
        var taken = false
        counts.update(FixKey(fix), initial: 0) { count in
            guard count > 0 else { return }
            count -= 1
            taken = true
        }
        return taken
    }
}
