// Argument reduction by π/2 from basic arithmetic (layer 3): Cody–Waite with a three-part π/2.

extension PortableMath {
    /// The largest |x| that `reducedByHalfPi` reduces accurately: n = round(x·2/π) is at most
    /// 2²⁰, so n times each 33-bit part of π/2 is exact (fdlibm's medium-size range).
    static let reductionLimit = 0x1p20 * halfPi

    /// x = n·π/2 + (head + tail) with |head + tail| ≤ about π/4, head + tail accurate to well
    /// beyond a double; returns n mod 4 as `quadrant`. Nil for |x| > `reductionLimit`, for
    /// infinities and NaN. (fdlibm's `__ieee754_rem_pio2`, medium-size case.)
    static func reducedByHalfPi(_ x: Double) -> (quadrant: Int, head: Double, tail: Double)? {
        let t = x.magnitude
        guard t <= reductionLimit else { return nil }
        let n = roundedHalfAway(t * twoOverPi)
        let exponent = Int(t.exponentBitPattern)
        // First step: 33 bits of π/2, exact product, good to about 85 bits.
        var r = t - n * halfPi1
        var w = n * halfPi1Tail
        var head = r - w
        if exponent - Int(head.exponentBitPattern) > secondStepCancellation {
            // Cancellation ate more than 16 bits: take the next 33 bits of π/2 (118 bits).
            var rest = r
            w = n * halfPi2
            r = rest - w
            w = n * halfPi2Tail - ((rest - r) - w)
            head = r - w
            if exponent - Int(head.exponentBitPattern) > thirdStepCancellation {
                // Still more: the third 33 bits cover every double in range (151 bits).
                rest = r
                w = n * halfPi3
                r = rest - w
                w = n * halfPi3Tail - ((rest - r) - w)
                head = r - w
            }
        }
        let tail = (r - head) - w
        // n ≤ 2²⁰ is an exact integer, so converting it and taking it mod 4 are exact.
        let quadrant = Int(n) & quadrantMask
        if x < 0 { return ((quadrantCount - quadrant) & quadrantMask, -head, -tail) }
        return (quadrant, head, tail)
    }

    /// `v.rounded()` (to the nearest integer, halves away from zero) for 0 ≤ v < 2⁶², from
    /// exact operations only: the truncation to an integer, its conversion back, and the
    /// fraction `v − ⌊v⌋` are all exact in that range (`rounded()` is a call into libm).
    @inline(__always)
    static func roundedHalfAway(_ v: Double) -> Double {
        let whole = Double(Int(v))
        return v - whole >= 0.5 ? whole + 1 : whole
    }

    /// Quadrants of the circle: n mod 4 picks ±sin or ±cos.
    private static let quadrantCount = 4
    private static let quadrantMask = quadrantCount - 1

    /// Bits lost to cancellation past which the next part of π/2 is needed (fdlibm).
    private static let secondStepCancellation = 16
    private static let thirdStepCancellation = 49

    /// 2/π, and π/2 split in three 33-bit parts each with the rounded rest as its tail, from
    /// fdlibm's e_rem_pio2.c (bit patterns in the comments).
    private static let twoOverPi = 6.36619772367581382433e-01  // 0x3FE45F30_6DC9C883
    private static let halfPi1 = 1.57079632673412561417e+00  // 0x3FF921FB_54400000
    private static let halfPi1Tail = 6.07710050650619224932e-11  // 0x3DD0B461_1A626331
    private static let halfPi2 = 6.07710050630396597660e-11  // 0x3DD0B461_1A600000
    private static let halfPi2Tail = 2.02226624879595063154e-21  // 0x3BA3198A_2E037073
    private static let halfPi3 = 2.02226624871116645580e-21  // 0x3BA3198A_2E000000
    private static let halfPi3Tail = 8.47842766036889956997e-32  // 0x397B839A_252049C1
}
