// Arctangent from basic arithmetic (layer 3): fdlibm's atan and atan2.

extension PortableMath {
    /// The angle of the point (x, y) from the positive x axis, in (−π, π], with IEEE 754's
    /// signs for zeros and infinities (fdlibm's e_atan2.c).
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return x + y }
        if x == 1 { return atan(y) }
        let yNegative = y.sign == .minus
        let xNegative = x.sign == .minus
        if y == 0 {
            // atan2(±0, +anything) = ±0; atan2(±0, −anything) = ±π.
            return xNegative ? (yNegative ? -Double.pi : .pi) : y
        }
        if x == 0 { return yNegative ? -halfPi : halfPi }
        if x.isInfinite {
            let angle: Double
            if y.isInfinite {
                angle = xNegative ? threeQuarterPi : quarterPi
            } else {
                angle = xNegative ? .pi : 0
            }
            return yNegative ? -angle : angle
        }
        if y.isInfinite { return yNegative ? -halfPi : halfPi }
        // The exponent difference says when y/x would overflow or is negligible.
        let scale = Int(y.exponentBitPattern) - Int(x.exponentBitPattern)
        let z: Double
        if scale > quotientNegligible {
            z = halfPi + 0.5 * piTail
        } else if xNegative && scale < -quotientNegligible {
            z = 0
        } else {
            z = atan((y / x).magnitude)
        }
        switch (yNegative, xNegative) {
        case (false, false): return z
        case (true, false): return -z
        case (false, true): return .pi - (z - piTail)
        case (true, true): return (z - piTail) - .pi
        }
    }

    /// The arctangent of `x` in radians, in [−π/2, π/2] (fdlibm's s_atan.c): |x| is reduced
    /// to |t| < 7/16 around one of four anchors whose arctangents are stored in two parts, and
    /// atan t comes from an odd polynomial.
    static func atan(_ x: Double) -> Double {
        if x.isNaN { return x + x }
        let magnitude = x.magnitude
        if magnitude >= atanSaturation {
            return x > 0 ? halfPi + halfPiTail : -halfPi - halfPiTail
        }
        if magnitude < atanDirect {
            if magnitude < atanTiny { return x }
            return x - x * atanSeries(x)
        }
        let anchor: Anchor
        let t: Double
        if magnitude < aroundOneFrom {
            anchor = anchors[0]
            t = (2 * magnitude - 1) / (2 + magnitude)
        } else if magnitude < aroundThreeHalvesFrom {
            anchor = anchors[1]
            t = (magnitude - 1) / (magnitude + 1)
        } else if magnitude < aroundInfinityFrom {
            anchor = anchors[2]
            t = (magnitude - 1.5) / (1 + 1.5 * magnitude)
        } else {
            anchor = anchors[3]
            t = -1 / magnitude
        }
        let z = anchor.high - ((t * atanSeries(t) - anchor.low) - t)
        return x < 0 ? -z : z
    }

    /// An arctangent stored in two parts, high + low, for the reduction around a point.
    private typealias Anchor = (high: Double, low: Double)

    /// atan(1/2), atan(1), atan(3/2) and atan(∞) = π/2, each as high and low parts, from
    /// fdlibm's s_atan.c (bit patterns in the comments). Around anchor a, atan x =
    /// atan a + atan t with t = (x − a)/(1 + a·x), which `atan` writes as (2x − 1)/(2 + x),
    /// (x − 1)/(x + 1), (x − 1.5)/(1 + 1.5x) and −1/x.
    private static let anchors: [Anchor] = [
        // 0x3FDDAC67_0561BB4F, 0x3C7A2B7F_222F65E2
        (4.63647609000806093515e-01, 2.26987774529616870924e-17),
        // 0x3FE921FB_54442D18, 0x3C81A626_33145C07
        (7.85398163397448278999e-01, 3.06161699786838301793e-17),
        // 0x3FEF730B_D281F69B, 0x3C700788_7AF0CBBD
        (9.82793723247329054082e-01, 1.39033110312309984516e-17),
        // 0x3FF921FB_54442D18, 0x3C91A626_33145C07
        (1.57079632679489655800e+00, 6.12323399573676603587e-17),
    ]

    /// (atan t − t)/(−t) ≈ T0·t² − T1·t⁴ + … for |t| < 7/16, summed as fdlibm does: the odd
    /// and even powers of t² apart, then together.
    private static func atanSeries(_ t: Double) -> Double {
        let z = t * t
        let w = z * z
        let odd = z * (aT[0] + w * (aT[2] + w * (aT[4] + w * (aT[6] + w * (aT[8] + w * aT[10])))))
        let even = w * (aT[1] + w * (aT[3] + w * (aT[5] + w * (aT[7] + w * aT[9]))))
        return odd + even
    }

    /// The coefficients of atan t ≈ t − aT0·t³ − aT1·t⁵ − … − aT10·t²³ on |t| ≤ 7/16, from
    /// fdlibm's s_atan.c (bit patterns in the comments).
    private static let aT: [Double] = [
        3.33333333333329318027e-01,  // 0x3FD55555_5555550D
        -1.99999999998764832476e-01,  // 0xBFC99999_9998EBC4
        1.42857142725034663711e-01,  // 0x3FC24924_920083FF
        -1.11111104054623557880e-01,  // 0xBFBC71C6_FE231671
        9.09088713343650656196e-02,  // 0x3FB745CD_C54C206E
        -7.69187620504482999495e-02,  // 0xBFB3B0F2_AF749A6D
        6.66107313738753120669e-02,  // 0x3FB10D66_A0D03D51
        -5.83357013379057348645e-02,  // 0xBFADDE2D_52DEFD9A
        4.97687799461593236017e-02,  // 0x3FA97B4B_24760DEB
        -3.65315727442169155270e-02,  // 0xBFA2B444_2C6A6C2F
        1.62858201153657823623e-02,  // 0x3F90AD3A_E322DA11
    ]

    /// Below 7/16 atan takes x unreduced; below 2⁻²⁹ atan x rounds to x; from 2⁶⁶ on it rounds
    /// to ±π/2; between, x is reduced around 1/2, then 1 from 11/16, 3/2 from 19/16 and ∞ from
    /// 39/16 (fdlibm's breakpoints, each exact in binary).
    private static let atanDirect = 0.4375
    private static let aroundOneFrom = 0.6875
    private static let aroundThreeHalvesFrom = 1.1875
    private static let aroundInfinityFrom = 2.4375
    private static let atanTiny = 0x1p-29
    private static let atanSaturation = 0x1p66

    /// Past 2⁶⁰ in y/x the arctangent is π/2 to within rounding (fdlibm's atan2 cut-off).
    private static let quotientNegligible = 60

    /// 3π/4 rounded to a double, and the part of π its rounding lost.
    private static let threeQuarterPi = 3 * quarterPi
    private static let piTail = 1.2246467991473531772e-16  // 0x3CA1A626_33145C07
}
