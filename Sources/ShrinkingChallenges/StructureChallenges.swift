// Challenges of our own for structures the list challenges do not cover: two values
// that must keep their difference, and a list drawn at its maximum length. Each is defined as
// CHALLENGES.md defines its challenges: generator, property, what counts as minimal.
import Exploration

extension ShrinkingChallenge {
    /// L01 `difference`: two event times `(a, b)`, each in `0...86_400` (seconds of a day,
    /// drawn independently). **Fails** iff the second comes after the first by at most a
    /// minute: `1 <= b − a <= 60`. **Tier A** `(0, 1)`. **Tier B** any pair one second apart.
    /// **Why**: lowering either time alone breaks the failure (the gap leaves its window), so
    /// both must move by the same amount (Hypothesis's `lower_common_block_offset`).
    static let difference = make(
        "difference",
        generator: { Gen.zip(Gen<Int>.int(in: 0...86_400), Gen<Int>.int(in: 0...86_400)) },
        render: { "(\($0.0), \($0.1))" },
        tier: { pair in
            if pair == (0, 1) { return .a }
            return pair.1 - pair.0 == 1 ? .b : .c
        },
        property: { pair in
            let gap = pair.1 - pair.0
            try check(!(1...60).contains(gap), "the second event comes \(gap) s after the first")
        })

    /// L02 `maxlength`: a day's events (a list of at most 4 times in `0...1000`, so that more
    /// than half the lists are drawn at their maximum length, with no closing coin) and an
    /// alarm time in `0...1000` drawn after them. **Fails** iff the alarm is at least 10 and
    /// an event is at the alarm's time. **Tier A** `([10], 10)`. **Tier B** `([k], k)` for any
    /// `k >= 10`. **Why**: deleting an element of a full list shifts the alarm's choice into
    /// the list's place (the closing coin), so the alarm is lost unless a stop is put back.
    static let maxLength = make(
        "maxlength",
        generator: {
            Gen.zip(Gen.array(of: Gen<Int>.int(in: 0...1000), length: 0...4), .int(in: 0...1000))
        },
        render: { "(\(renderList($0.0)), \($0.1))" },
        tier: { pair in
            if pair.0 == [10] && pair.1 == 10 { return .a }
            return pair.0.count == 1 && pair.0[0] == pair.1 ? .b : .c
        },
        property: { pair in
            let (events, alarm) = pair
            try check(alarm < 10 || !events.contains(alarm), "an event is at the alarm \(alarm)")
        })
}
