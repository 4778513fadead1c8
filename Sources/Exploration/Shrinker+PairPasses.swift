// Shrink passes that change two choices or two spans as one (layer 2): values tied by a
// difference, a sign or a collision, and list elements that must go in pairs. After
// Hypothesis's `lower_integers_together`, `redistribute_numeric_pairs` and its integer
// shrinker's bit masks (MacIver and Donaldson, ECOOP 2020). They run only once the other
// passes have stopped finding anything (`Shrinker.escalationPasses`), and each is bounded.

extension Shrinker {
    /// How many later integers `shiftPairs` tries as a partner for each integer (the nearest).
    static let pairPartnerMax = 4
    /// How many pairs of spans `deleteSpanPairs` tries in one call.
    static let spanPairCandidateMax = 256
    /// How many bits `lowerHighBits` clears from one integer in one call.
    static let bitClearMax = 64
    /// How many distinct integer values `swapValueGroups` considers (the first met).
    static let valueGroupMax = 8

    /// Moves two integers by one common amount (their difference kept), the first toward its
    /// simplest value, the second wherever that takes it, across its simplest value too:
    /// `(5, 4)` becomes `(1, 0)`, then `(0, −1)`. A first integer below its simplest value is
    /// first tried with both integers mirrored about their simplest values (`(−1000, −1001)`
    /// becomes `(1000, 1001)`), and the second is tried reflected about the first (their
    /// distance kept, the second on the other side: `(1000, 1001)` becomes `(1000, 999)`).
    /// Partners are the `pairPartnerMax` nearest later integers
    /// within `zeroPartnerDistanceMax` choices.
    func shiftPairs() {
        var first = 0
        while first < current.values.count && !exhaustedBudget {
            defer { first += 1 }
            guard case .integer = current.kinds[first], current.values[first] > 0 else { continue }
            var partners = 0
            var second = first + 1
            while second < min(current.values.count, first + 1 + Self.zeroPartnerDistanceMax)
                && partners < Self.pairPartnerMax && !exhaustedBudget
            {
                defer { second += 1 }
                guard case .integer = current.kinds[second] else { continue }
                partners += 1
                shiftPair(first, second)
                if first >= current.values.count || current.values[first] == 0 { break }
            }
        }
    }

    /// `shiftPairs` on the integers at `first` and `second`.
    func shiftPair(_ first: Int, _ second: Int) {
        guard second < current.values.count, case .integer(let firstRange) = current.kinds[first],
            case .integer(let secondRange) = current.kinds[second]
        else { return }
        let (firstEncoding, secondEncoding) = (
            IntegerEncoding(firstRange), IntegerEncoding(secondRange)
        )
        func values() -> (Int64, Int64) {
            (
                firstEncoding.value(at: current.values[first]),
                secondEncoding.value(at: current.values[second])
            )
        }
        func candidate(_ a: Int64, _ b: Int64) -> [UInt64]? {
            guard firstRange.contains(a), secondRange.contains(b) else { return nil }
            var candidate = current.values
            candidate[first] = firstEncoding.index(of: a)
            candidate[second] = secondEncoding.index(of: b)
            return candidate
        }
        var (a, b) = values()
        if a < firstEncoding.target,
            let mirrored = mirror(a, firstEncoding).flatMap({ a in
                mirror(b, secondEncoding).flatMap { candidate(a, $0) }
            }),
            consider(mirrored)
        {
            (a, b) = values()
        }
        // The second reflected about the first, their distance kept: `(1000, 1001)` becomes
        // `(1000, 999)` where lowering the second by one makes them equal.
        let (reflected, overflow) = a.multipliedReportingOverflow(by: 2)
        if !overflow, b != a, case (let other, false) = reflected.subtractingReportingOverflow(b),
            let reflection = candidate(a, other), consider(reflection)
        {
            (a, b) = values()
        }
        guard a != firstEncoding.target else { return }
        let above = a > firstEncoding.target
        let distance = magnitude(a, from: firstEncoding.target)
        // `remaining` is the first integer's distance from its simplest value after the move.
        func moved(_ remaining: UInt64) -> [UInt64]? {
            let step = Int64(bitPattern: distance - remaining)
            let (newB, overflow) =
                above ? b.subtractingReportingOverflow(step) : b.addingReportingOverflow(step)
            guard !overflow else { return nil }
            return candidate(above ? a &- step : a &+ step, newB)
        }
        if let whole = moved(0), consider(whole) { return }
        lowestFailing(below: distance) { moved($0) }
    }

    /// Deletes two spans of one list at once (two elements that are not neighbours): a
    /// palindrome's mirrored letters, the two halves of a matched pair. Each span, from the
    /// last, is paired with the earlier spans of its run of siblings, nearest first; at most
    /// `spanPairCandidateMax` pairs in all.
    func deleteSpanPairs() {
        var triedCount = 0
        var index = current.spans.count - 1
        while index >= 0 && triedCount < Self.spanPairCandidateMax && !exhaustedBudget {
            defer { index -= 1 }
            guard index < current.spans.count else { continue }
            let later = current.spans[index]
            guard later.count > 0 else { continue }
            let run = siblingRun(of: later)
            let partners = current.spans.filter {
                $0.label == later.label && $0.depth == later.depth && $0.count > 0
                    && $0.start >= run.lowerBound && $0.end < later.start
            }.sorted { $0.start > $1.start }
            for partner in partners where triedCount < Self.spanPairCandidateMax {
                triedCount += 1
                var candidate = current.values
                candidate.removeSubrange(later.start..<later.end)
                candidate.removeSubrange(partner.start..<partner.end)
                if consider(candidate) { break }
            }
        }
    }

    /// Exchanges two values of one integer range everywhere they occur, when one of them
    /// occurs more than once and the exchange makes the case simpler: `[1, 0, 1, 0]` becomes
    /// `[0, 1, 0, 1]` and `bab` becomes `aba`, where swapping any two neighbours alone breaks
    /// the pattern. The values are the first `valueGroupMax` distinct ones met.
    func swapValueGroups() {
        var groups: [(kind: ChoiceKind, value: UInt64, count: Int)] = []
        for (position, value) in current.values.enumerated() {
            guard case .integer = current.kinds[position] else { continue }
            if let slot = groups.firstIndex(where: {
                $0.kind == current.kinds[position] && $0.value == value
            }) {
                groups[slot].count += 1
            } else if groups.count < Self.valueGroupMax {
                groups.append((current.kinds[position], value, 1))
            }
        }
        for first in groups.indices where !exhaustedBudget {
            for second in groups.indices.dropFirst(first + 1) where !exhaustedBudget {
                let (one, other) = (groups[first], groups[second])
                guard one.kind == other.kind, one.count > 1 || other.count > 1 else { continue }
                var candidate = current.values
                for position in candidate.indices where current.kinds[position] == one.kind {
                    if candidate[position] == one.value {
                        candidate[position] = other.value
                    } else if candidate[position] == other.value {
                        candidate[position] = one.value
                    }
                }
                consider(candidate)
            }
        }
    }

    /// Lowers each integer by clearing the highest set bit of its distance from its simplest
    /// value (halving it when only one bit is set), as long as the value still fails: a
    /// difference that must stay a multiple of a power of two (a hash table's size) comes
    /// down to that power, which lowering by one or by a binary search never reaches. At most
    /// `bitClearMax` bits per integer.
    func lowerHighBits() {
        var position = 0
        while position < current.values.count && !exhaustedBudget {
            defer { position += 1 }
            var cleared = 0
            while cleared < Self.bitClearMax, position < current.values.count,
                case .integer(let range) = current.kinds[position], current.values[position] > 0,
                !exhaustedBudget
            {
                cleared += 1
                let encoding = IntegerEncoding(range)
                let value = encoding.value(at: current.values[position])
                let distance = magnitude(value, from: encoding.target)
                guard distance > 1 else { break }
                let highBit = UInt64(1) << (63 - UInt64(distance.leadingZeroBitCount))
                let lowered = distance.nonzeroBitCount > 1 ? distance - highBit : distance / 2
                let step = Int64(bitPattern: distance - lowered)
                let newValue = value > encoding.target ? value &- step : value &+ step
                guard range.contains(newValue) else { break }
                var candidate = current.values
                candidate[position] = encoding.index(of: newValue)
                if !consider(candidate) { break }
            }
        }
    }

    /// `value` mirrored about `encoding`'s simplest value, when the range holds it.
    func mirror(_ value: Int64, _ encoding: IntegerEncoding) -> Int64? {
        let (twice, overflow) = encoding.target.multipliedReportingOverflow(by: 2)
        guard !overflow else { return nil }
        let (mirrored, wrapped) = twice.subtractingReportingOverflow(value)
        return !wrapped && encoding.range.contains(mirrored) ? mirrored : nil
    }

    /// The distance between `value` and `target`.
    func magnitude(_ value: Int64, from target: Int64) -> UInt64 {
        value > target
            ? UInt64(bitPattern: value &- target) : UInt64(bitPattern: target &- value)
    }
}
