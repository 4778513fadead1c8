// Draws built on raw 64-bit outputs (layer 1): unbiased bounded integers and unit doubles.
// Written here rather than taken from the standard library, whose algorithms may change
// between toolchains: a trace must not.

extension RandomNumberGenerator {
    /// A uniformly distributed integer in `0..<bound`, without modulo bias.
    ///
    /// Lemire's multiply-and-reject method ("Fast random integer generation in an interval",
    /// TOMS 2019): one multiplication in the common case, a rejection with probability below
    /// bound / 2^64.
    /// - Precondition: `bound > 0`.
    @inlinable
    public mutating func nextBounded(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "a bounded draw needs a positive bound")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniformly distributed integer in `range`, without bias.
    @inlinable
    public mutating func nextInteger(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if span == UInt64.max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: nextBounded(below: span + 1))
    }

    /// A double in [0, 1) from the top 53 bits of one draw: every value is a multiple of 2^-53.
    @inlinable
    public mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
