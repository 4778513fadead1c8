// Sine and cosine from basic arithmetic (layer 3): reduction by π/2 and the fdlibm kernels.

extension PortableMath {
    /// The sine of `x` radians; NaN for |x| > `reductionLimit` and for infinities.
    static func sin(_ x: Double) -> Double {
        let magnitude = x.magnitude
        if magnitude <= quarterPi {
            return magnitude < kernelTiny ? x : kernelSin(x, tail: 0, hasTail: false)
        }
        guard let (quadrant, head, tail) = reducedByHalfPi(x) else { return .nan }
        switch quadrant {
        case 0: return kernelSin(head, tail: tail, hasTail: true)
        case 1: return kernelCos(head, tail: tail)
        case 2: return -kernelSin(head, tail: tail, hasTail: true)
        default: return -kernelCos(head, tail: tail)
        }
    }

    /// The cosine of `x` radians; NaN for |x| > `reductionLimit` and for infinities.
    static func cos(_ x: Double) -> Double {
        let magnitude = x.magnitude
        if magnitude <= quarterPi {
            return magnitude < kernelTiny ? 1 : kernelCos(x, tail: 0)
        }
        guard let (quadrant, head, tail) = reducedByHalfPi(x) else { return .nan }
        switch quadrant {
        case 0: return kernelCos(head, tail: tail)
        case 1: return -kernelSin(head, tail: tail, hasTail: true)
        case 2: return -kernelCos(head, tail: tail)
        default: return kernelSin(head, tail: tail, hasTail: true)
        }
    }

    /// Below this magnitude sin x rounds to x and cos x to 1 (fdlibm's 2⁻²⁷ shortcut, which also
    /// keeps the sign of a zero).
    private static let kernelTiny = 0x1p-27

    /// The coefficients of sin x ≈ x + S1·x³ + … + S6·x¹³ on [−π/4, π/4], from fdlibm's k_sin.c
    /// (bit patterns in the comments).
    private static let s1 = -1.66666666666666324348e-01  // 0xBFC55555_55555549
    private static let s2 = 8.33333333332248946124e-03  // 0x3F811111_1110F8A6
    private static let s3 = -1.98412698298579493134e-04  // 0xBF2A01A0_19C161D5
    private static let s4 = 2.75573137070700676789e-06  // 0x3EC71DE3_57B1FE7D
    private static let s5 = -2.50507602534068634195e-08  // 0xBE5AE5E6_8A2B9CEB
    private static let s6 = 1.58969099521155010221e-10  // 0x3DE5D93A_5ACFD57C

    /// The coefficients of cos x ≈ 1 − x²/2 + C1·x⁴ + … + C6·x¹⁴ on [−π/4, π/4], from fdlibm's
    /// k_cos.c (bit patterns in the comments).
    private static let c1 = 4.16666666666666019037e-02  // 0x3FA55555_5555554C
    private static let c2 = -1.38888888888741095749e-03  // 0xBF56C16C_16C15177
    private static let c3 = 2.48015872894767294178e-05  // 0x3EFA01A0_19CB1590
    private static let c4 = -2.75573143513906633035e-07  // 0xBE927E4F_809C52AD
    private static let c5 = 2.08757232129817482790e-09  // 0x3E21EE9E_BDB4B1C4
    private static let c6 = -1.13596475577881948265e-11  // 0xBDA8FAE9_BE8838D4

    /// sin(x + tail) for |x + tail| ≤ π/4, where `tail` is the low part of a reduced argument
    /// (FreeBSD's `__kernel_sin`).
    private static func kernelSin(_ x: Double, tail: Double, hasTail: Bool) -> Double {
        let z = x * x
        let w = z * z
        let r = s2 + z * (s3 + z * s4) + z * w * (s5 + z * s6)
        let v = z * x
        if !hasTail { return x + v * (s1 + z * r) }
        return x - ((z * (0.5 * tail - v * r) - tail) - v * s1)
    }

    /// cos(x + tail) for |x + tail| ≤ π/4 (FreeBSD's `__kernel_cos`): 1 − x²/2 is summed with
    /// its rounding error carried, so the result stays within an ulp.
    private static func kernelCos(_ x: Double, tail: Double) -> Double {
        let z = x * x
        var w = z * z
        let r = z * (c1 + z * (c2 + z * c3)) + w * w * (c4 + z * (c5 + z * c6))
        let halfZ = 0.5 * z
        w = 1 - halfZ
        return w + (((1 - w) - halfZ) + (z * r - x * tail))
    }
}
