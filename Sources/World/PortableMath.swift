// Trigonometry that gives the same bits on every platform (layer 3): the one place the world
// computes sin, cos, asin and atan2, from IEEE-754 basic arithmetic only.

/// Sine, cosine, arcsine and two-argument arctangent built from IEEE-754 basic arithmetic only.
///
/// libm's trigonometry is not specified to the last bit: glibc and Apple's libm round some
/// results differently, so a scenario recorded on a Mac would replay on Linux with positions a
/// bit apart, and the traces would diverge. These functions use only `+ − × ÷`, `squareRoot()`
/// (all correctly rounded by IEEE 754), comparisons, and exact operations (`rounded()`, sign and
/// exponent bits), written as separate operations so that no compiler may fuse them: the same
/// input gives the same bits on every platform. Swift does not contract `a * b + c` into a
/// fused multiply-add by default, and nothing here asks it to.
///
/// The algorithms and polynomial coefficients are those of fdlibm 5.3 (Sun Microsystems,
/// freely distributable), as kept in FreeBSD's msun: Cody–Waite reduction by π/2
/// (`e_rem_pio2.c`), the sine and cosine kernels (`k_sin.c`, `k_cos.c`), the arctangent
/// (`s_atan.c`, `e_atan2.c`) and the arcsine (`e_asin.c`). Their error is below one ulp of the
/// exact result, so within about one ulp of any good libm (`PortableMathTests` measures it:
/// at most one ulp from glibc over its grids).
///
/// Domain: `sin` and `cos` are accurate for |x| ≤ 2²⁰·π/2 ≈ 1.6 × 10⁶ rad (geodesy needs a few
/// radians); beyond that, and for infinities, they return NaN rather than a wrong number.
/// `atan2` and `asin` are accurate over all of theirs.
enum PortableMath {
    /// π/2 and π/4 rounded to doubles (exact scalings of `Double.pi`), and the part of π/2 the
    /// rounding lost (fdlibm's pio2_lo). Up to π/4 the sine and cosine kernels take x unreduced.
    static let halfPi = Double.pi / 2
    static let quarterPi = Double.pi / 4
    static let halfPiTail = 6.12323399573676603587e-17  // 0x3C91A626_33145C07
}
