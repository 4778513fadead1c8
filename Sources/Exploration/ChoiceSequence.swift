// Choice sequences (layer 2): the one structure that is drawn, replayed, shrunk and saved.

/// The simplicity order on choice sequences: shorter is simpler, and among equal lengths the
/// lexicographically smaller one (Hypothesis's shortlex). Every choice is an index where 0 is
/// the simplest answer, so this order is also the order on the values the sequences build.
public func isSimpler(_ candidate: [UInt64], than current: [UInt64]) -> Bool {
    if candidate.count != current.count { return candidate.count < current.count }
    return candidate.lexicographicallyPrecedes(current)
}

/// What a recorded choice stands for, so that shrink passes can work in value space.
public enum ChoiceKind: Hashable, Sendable {
    /// A bounded index with no further meaning (a branch, a coin, an ordering pick).
    case index
    /// An integer in `range`, encoded by `IntegerEncoding` around its simplest value.
    case integer(ClosedRange<Int64>)
}

/// A region of the choice sequence produced by one generator call: deleting, zeroing or
/// replacing a span changes one sub-value as a whole.
public struct Span: Hashable, Sendable {
    /// Identifies the generator that drew it (stable across processes; see `Gen.label`).
    public var label: UInt64
    /// First choice of the span.
    public var start: Int
    /// One past the last choice of the span.
    public var end: Int
    /// Nesting depth (0 for outermost).
    public var depth: Int

    public var count: Int { end - start }
}

/// Integers in a range as choice indices: index 0 is the simplest value (0 if the range holds
/// it, else the end nearest 0), then alternately one step up and one down (`0, 1, −1, 2, −2…`,
/// the order of CHALLENGES.md §1.4), and once one side is used up, the rest of the other side.
public struct IntegerEncoding: Sendable {
    public let range: ClosedRange<Int64>
    /// The simplest value.
    public let target: Int64
    let upward: UInt64
    let downward: UInt64
    var shorterSide: UInt64 { Swift.min(upward, downward) }

    public init(_ range: ClosedRange<Int64>) {
        self.range = range
        target =
            range.contains(0) ? 0 : (range.lowerBound > 0 ? range.lowerBound : range.upperBound)
        upward = UInt64(bitPattern: range.upperBound &- target)
        downward = UInt64(bitPattern: target &- range.lowerBound)
    }

    /// The largest index (the range holds `maxIndex + 1` values).
    public var maxIndex: UInt64 { upward &+ downward }

    /// The value at `index` (<= maxIndex).
    public func value(at index: UInt64) -> Int64 {
        precondition(index <= maxIndex, "the index lies in the range")
        if index == 0 { return target }
        let side = shorterSide
        if index <= 2 &* side && side > 0 {
            let step = Int64(bitPattern: (index &+ 1) / 2)
            return index % 2 == 1 ? target &+ step : target &- step
        }
        let step = side &+ (index &- 2 &* side)
        return upward > downward
            ? target &+ Int64(bitPattern: step) : target &- Int64(bitPattern: step)
    }

    /// The index of `value` (which must lie in the range).
    public func index(of value: Int64) -> UInt64 {
        precondition(range.contains(value), "the value lies in the range")
        let side = shorterSide
        if value >= target {
            let step = UInt64(bitPattern: value &- target)
            if step == 0 { return 0 }
            return step <= side ? 2 &* step &- 1 : 2 &* side &+ (step &- side)
        }
        let step = UInt64(bitPattern: target &- value)
        return step <= side ? 2 &* step : 2 &* side &+ (step &- side)
    }
}
