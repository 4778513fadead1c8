// Challenges of our own over numbers the shrinker was not tuned to: hash collisions in small
// and large tables, two numbers that must stay close, two whose difference must be exactly one,
// a budget split between two shares, and event times drawn as gaps (a sorted list).
import Exploration

extension ShrinkingChallenge {
    /// N06 `hashsmall`: a list of keys in `0...1_000_000` put in a table of 8 buckets (the key
    /// modulo 8). **Fails** iff two different keys share a bucket. **Tier A** `[0, 8]`.
    /// **Tier B** any failing list of two keys. **Why**: the two keys must move together,
    /// keeping their difference a multiple of the table's size, and that difference must then
    /// come down to the size itself (lowering it by one or halving it ends the collision).
    static let hashSmall = hashCollision("hashsmall", bucketCount: 8)

    /// N07 `hashlarge`: `hashsmall` with a table of 1024 buckets. **Tier A** `[0, 1024]`.
    static let hashLarge = hashCollision("hashlarge", bucketCount: 1024)

    static func hashCollision(_ name: String, bucketCount: Int) -> ShrinkingChallenge {
        make(
            name, generator: { .array(of: .int(in: 0...1_000_000), length: 0...50) },
            render: { renderList($0) },
            tier: { keys in
                if keys == [0, bucketCount] { return .a }
                return keys.count == 2 ? .b : .c
            },
            property: { keys in
                var owners: [Int: Int] = [:]  // bucket → key; looked up only, never iterated
                for key in keys {
                    let bucket = key % bucketCount
                    if let owner = owners[bucket], owner != key {
                        throw PropertyFailure("keys \(owner) and \(key) share bucket \(bucket)")
                    }
                    owners[bucket] = key
                }
            })
    }

    /// N08 `closepair`: two readings `(a, b)` in `-1_000_000...1_000_000`. **Fails** iff
    /// `|a| ≥ 1000` and the readings differ by 1 or 2. **Tier A** `(1000, 998)`: `a` is 1000 at
    /// best (before −1000 in §1.4's order), and of 998, 999, 1001 and 1002 the first is the
    /// simplest. **Tier B** any failing pair with `|a| = 1000`. **Why**: neither reading may
    /// move alone, both may be negative (and must change sign together), and the last step
    /// moves `b` across `a`.
    static let closePair = make(
        "closepair",
        generator: { .zip(.int(in: -1_000_000...1_000_000), .int(in: -1_000_000...1_000_000)) },
        render: { "(\($0.0), \($0.1))" },
        tier: { pair in
            if pair == (1000, 998) { return .a }
            return abs(pair.0) == 1000 ? .b : .c
        },
        property: { pair in
            let (a, b) = pair
            try check(abs(a) < 1000 || !(1...2).contains(abs(a - b)), "\(a) and \(b) are close")
        })

    /// N09 `notone`: two integers `(a, b)` in `-1000...1000` and the property that `a − b` is
    /// not 1. **Fails** iff `a − b = 1`. **Tier A** `(0, -1)`. **Tier B** `(1, 0)`. **Why**:
    /// the pair must move as one, and the last step takes both across 0, making the second
    /// one's choice larger while the first one's becomes 0.
    static let notOne = make(
        "notone", generator: { .zip(.int(in: -1000...1000), .int(in: -1000...1000)) },
        render: { "(\($0.0), \($0.1))" },
        tier: { pair in
            if pair == (0, -1) { return .a }
            return pair == (1, 0) ? .b : .c
        },
        property: { pair in
            try check(pair.0 - pair.1 != 1, "\(pair.0) − \(pair.1) is 1")
        })

    /// N10 `budget`: two shares `(a, b)` of a budget, each in `0...10_000`. **Fails** iff they
    /// add up to at least 1000 and the first is at least the second. **Tier A** `(500, 500)`.
    /// **Tier B** any failing pair adding up to 1000. **Why**: once the sum is at its bound,
    /// the first share comes down only by moving value onto the second.
    static let budget = make(
        "budget", generator: { .zip(.int(in: 0...10_000), .int(in: 0...10_000)) },
        render: { "(\($0.0), \($0.1))" },
        tier: { pair in
            if pair == (500, 500) { return .a }
            return pair.0 + pair.1 == 1000 ? .b : .c
        },
        property: { pair in
            try check(pair.0 + pair.1 < 1000 || pair.0 < pair.1, "\(pair) overspends")
        })

    /// N12 `gaps`: a day's event times drawn as gaps (each in `0...1000`) from the previous
    /// event, the first from midnight, so the times are sorted. **Fails** iff two events are
    /// exactly 1500 s apart. **Tier A** gaps `[0, 500, 1000]` (times `[0, 500, 1500]`): one
    /// gap is at most 1000, so the pair spans two gaps after the first event; the first gap
    /// is 0 at best, and the second is then at least 500. **Tier B** any failing list of
    /// three gaps. **Why**: deleting an event changes the time of every later one, so a gap
    /// must be folded into its neighbour before it goes, and the gaps then traded between
    /// them.
    static let gaps = make(
        "gaps", generator: { .array(of: .int(in: 0...1000), length: 0...50) },
        render: { "times " + renderList(times(fromGaps: $0)) },
        tier: { gaps in
            if gaps == [0, 500, 1000] { return .a }
            return gaps.count == 3 ? .b : .c
        },
        property: { gaps in
            let times = times(fromGaps: gaps)
            for (offset, time) in times.enumerated() {
                try check(
                    !times[(offset + 1)...].contains(time + 1500),
                    "events at \(time) and \(time + 1500)")
            }
        })
}

/// Event times from the gaps between them, the first from 0.
func times(fromGaps gaps: [Int]) -> [Int] {
    var time = 0
    return gaps.map {
        time += $0
        return time
    }
}
