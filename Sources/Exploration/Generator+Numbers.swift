// Number and boolean generators (layer 2), biased toward simple values and the ends of ranges.
import Simulation

extension Gen where Value == Int64 {
    /// Integers in `range`. They shrink toward 0 (or the end nearest it), in the order
    /// `0, 1, −1, 2, −2, …`. Generation favours the simplest value, small magnitudes (a
    /// log-uniform bit width) and both ends of the range.
    public static func int64(in range: ClosedRange<Int64>) -> Gen<Int64> {
        let encoding = IntegerEncoding(range)
        return Gen(
            "int64",
            parts: [UInt64(bitPattern: range.lowerBound), UInt64(bitPattern: range.upperBound)]
        ) { testCase in
            let index = testCase.draw(atMost: encoding.maxIndex, kind: .integer(range)) { random in
                biasedIndex(encoding, &random)
            }
            return encoding.value(at: index)
        }
    }
}

/// An index for a generated integer: 1/16 each the two ends, 1/16 the simplest value, 7/16 a
/// small one (uniform below a random power of two), 6/16 uniform over the whole range.
func biasedIndex(_ encoding: IntegerEncoding, _ random: inout Xoshiro256StarStar) -> UInt64 {
    let maxIndex = encoding.maxIndex
    let roll = random.nextBounded(below: 16)
    switch roll {
    case 0: return encoding.index(of: encoding.range.lowerBound)
    case 1: return encoding.index(of: encoding.range.upperBound)
    case 2: return 0
    case 3...9:
        let width = random.nextBounded(below: 64) + 1
        let limit = width == 64 ? UInt64.max : (UInt64(1) << width) - 1
        let bound = Swift.min(limit, maxIndex)
        return bound == .max ? random.next() : random.nextBounded(below: bound + 1)
    default:
        return maxIndex == .max ? random.next() : random.nextBounded(below: maxIndex + 1)
    }
}

extension Gen where Value == Int {
    /// Integers in `range` (see `int64(in:)`).
    public static func int(in range: ClosedRange<Int>) -> Gen<Int> {
        Gen<Int64>.int64(in: Int64(range.lowerBound)...Int64(range.upperBound)).map { Int($0) }
    }

    /// Any `Int`, biased toward small magnitudes.
    public static var int: Gen<Int> { int(in: Int.min...Int.max) }
}

extension Gen where Value == Int16 {
    /// Any 16-bit integer, biased toward small magnitudes and the two ends.
    public static var int16: Gen<Int16> {
        Gen<Int64>.int64(in: Int64(Int16.min)...Int64(Int16.max)).map { Int16($0) }
    }
}

extension Gen where Value == Bool {
    /// `false` (the simpler) or `true`, evenly.
    public static var bool: Gen<Bool> {
        Gen("bool") { testCase in
            testCase.draw(atMost: 1, kind: .index) { $0.nextBounded(below: 2) } == 1
        }
    }
}

extension Gen where Value == Double {
    /// Doubles in `range` on a grid of 2^53 steps, shrinking toward the end nearest 0 (or 0
    /// itself); generation favours that value, both ends and values near the simplest.
    public static func double(in range: ClosedRange<Double>) -> Gen<Double> {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "a finite range")
        let steps: UInt64 = 1 << 53
        let width = range.upperBound - range.lowerBound
        // Offsets from the simplest point, as integer grid steps, encoded like integers.
        let zero =
            range.contains(0) ? 0.0 : (range.lowerBound > 0 ? range.lowerBound : range.upperBound)
        let below = Int64(((zero - range.lowerBound) / width * Double(steps)).rounded(.down))
        let above = Int64(((range.upperBound - zero) / width * Double(steps)).rounded(.down))
        let grid = Gen<Int64>.int64(in: -below...above)
        return Gen("double", parts: [range.lowerBound.bitPattern, range.upperBound.bitPattern]) {
            testCase in
            let step = grid.generate(testCase)
            // The grid's ends are the range's ends exactly, whatever the rounding in between.
            if step == -below { return range.lowerBound }
            if step == above { return range.upperBound }
            let value = zero + Double(step) / Double(steps) * width
            return Swift.min(Swift.max(value, range.lowerBound), range.upperBound)
        }
    }
}
