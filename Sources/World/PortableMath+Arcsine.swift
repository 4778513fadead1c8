// Arcsine from basic arithmetic (layer 3): fdlibm's rational approximation.

extension PortableMath {
    /// The arcsine of `x` in radians, in [−π/2, π/2]; NaN outside [−1, 1] (fdlibm's e_asin.c).
    ///
    /// Below 1/2, asin x = x + x·R(x²) with R a rational approximation. From 1/2 on,
    /// asin x = π/2 − 2·asin √((1 − x)/2), where 1 − x is exact; below 0.975 the square root is
    /// split into a 21-bit head, whose square and π/4 − 2·head are exact, and a small tail.
    static func asin(_ x: Double) -> Double {
        let magnitude = x.magnitude
        guard magnitude < 1 else {
            if magnitude == 1 { return x > 0 ? halfPi + halfPiTail : -halfPi - halfPiTail }
            return .nan
        }
        if magnitude < asinReflectFrom {
            if magnitude < asinTiny { return x }
            return x + x * ratio(x * x)
        }
        let t = (1 - magnitude) * 0.5
        let r = ratio(t)
        let s = t.squareRoot()
        let angle: Double
        if magnitude >= asinNearOne {
            angle = halfPi - (2 * (s + s * r) - halfPiTail)
        } else {
            let head = Double(bitPattern: s.bitPattern & highWordMask)
            let correction = (t - head * head) / (s + head)
            let p = 2 * s * r - (halfPiTail - 2 * correction)
            let q = quarterPi - 2 * head
            angle = quarterPi - (p - q)
        }
        return x < 0 ? -angle : angle
    }

    /// R(t) = (asin √t − √t)/(√t)³ ≈ P(t)/Q(t), good to 2⁻⁵⁸·⁷⁵ on [0, 1/4].
    private static func ratio(_ t: Double) -> Double {
        let p = t * (pS[0] + t * (pS[1] + t * (pS[2] + t * (pS[3] + t * (pS[4] + t * pS[5])))))
        let q = 1 + t * (qS[0] + t * (qS[1] + t * (qS[2] + t * qS[3])))
        return p / q
    }

    /// The coefficients of P and of Q (after its leading 1), from fdlibm's e_asin.c pS0…pS5
    /// and qS1…qS4 (bit patterns in the comments).
    private static let pS: [Double] = [
        1.66666666666666657415e-01,  // 0x3FC55555_55555555
        -3.25565818622400915405e-01,  // 0xBFD4D612_03EB6F7D
        2.01212532134862925881e-01,  // 0x3FC9C155_0E884455
        -4.00555345006794114027e-02,  // 0xBFA48228_B5688F3B
        7.91534994289814532176e-04,  // 0x3F49EFE0_7501B288
        3.47933107596021167570e-05,  // 0x3F023DE1_0DFDF709
    ]
    private static let qS: [Double] = [
        -2.40339491173441421878e+00,  // 0xC0033A27_1C8A2D4B
        2.02094576023350569471e+00,  // 0x40002AE5_9C598AC8
        -6.88283971605453293030e-01,  // 0xBFE6066C_1B8D0159
        7.70381505559019352791e-02,  // 0x3FB3B8C5_B12E9282
    ]

    /// Below 2⁻²⁷ asin x rounds to x; from 1/2 on it is reflected through √((1 − x)/2); from
    /// about 0.975 (high word 0x3FEF3333) the square root needs no split (fdlibm's breakpoints).
    private static let asinTiny = 0x1p-27
    private static let asinReflectFrom = 0.5
    private static let asinNearOne = Double(bitPattern: 0x3FEF3333_00000000)

    /// Keeps the sign, exponent and first 20 fraction bits of a double: its square is exact.
    private static let highWordMask: UInt64 = 0xFFFF_FFFF_0000_0000
}
