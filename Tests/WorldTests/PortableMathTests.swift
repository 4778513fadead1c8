// Portable trigonometry: within an ulp or two of the platform's libm over deterministic grids
// of the domain geodesy uses, the same bits as pinned for fixed inputs, and IEEE 754's answers
// at zeros, infinities and NaN.
import Foundation
import Testing

@testable import World

/// How many doubles lie between `a` and `b` (0 when equal, also for two NaNs).
private func ulpDistance(_ a: Double, _ b: Double) -> UInt64 {
    if a == b || (a.isNaN && b.isNaN) { return 0 }
    if a.isNaN || b.isNaN { return .max }
    // Map the sign-magnitude bit patterns onto one ordered line of integers.
    func ordinal(_ x: Double) -> Int64 {
        let bits = Int64(bitPattern: x.bitPattern)
        return bits < 0 ? Int64.min - bits : bits
    }
    return ordinal(a) > ordinal(b)
        ? UInt64(bitPattern: ordinal(a) &- ordinal(b))
        : UInt64(bitPattern: ordinal(b) &- ordinal(a))
}

/// `count + 1` evenly spaced points from `low` to `high`.
private func grid(_ low: Double, _ high: Double, count: Int) -> [Double] {
    (0...count).map { low + (high - low) * Double($0) / Double(count) }
}

/// The largest ulp distance between `portable` and `libm` over `inputs`.
private func maxUlps<Input>(
    _ inputs: [Input], _ portable: (Input) -> Double, _ libm: (Input) -> Double
) -> UInt64 {
    inputs.map { ulpDistance(portable($0), libm($0)) }.max() ?? 0
}

/// The bound against libm: fdlibm's algorithms are within an ulp of the exact result, and so
/// is a good libm, so the two can differ by two at most (glibc: one over these grids).
private let libmTolerance: UInt64 = 2

/// One pinned result: the function, its arguments, and the exact bits it must give.
struct Pin: Sendable, CustomStringConvertible {
    var name: String
    var arguments: [Double]
    var function: @Sendable ([Double]) -> Double
    var libm: @Sendable ([Double]) -> Double
    var bits: UInt64
    var description: String { "\(name)(\(arguments.map { "\($0)" }.joined(separator: ", ")))" }

    static func sin(_ x: Double, _ bits: UInt64) -> Pin {
        Pin(
            name: "sin", arguments: [x], function: { PortableMath.sin($0[0]) },
            libm: { Foundation.sin($0[0]) }, bits: bits)
    }
    static func cos(_ x: Double, _ bits: UInt64) -> Pin {
        Pin(
            name: "cos", arguments: [x], function: { PortableMath.cos($0[0]) },
            libm: { Foundation.cos($0[0]) }, bits: bits)
    }
    static func asin(_ x: Double, _ bits: UInt64) -> Pin {
        Pin(
            name: "asin", arguments: [x], function: { PortableMath.asin($0[0]) },
            libm: { Foundation.asin($0[0]) }, bits: bits)
    }
    static func atan2(_ y: Double, _ x: Double, _ bits: UInt64) -> Pin {
        Pin(
            name: "atan2", arguments: [y, x], function: { PortableMath.atan2($0[0], $0[1]) },
            libm: { Foundation.atan2($0[0], $0[1]) }, bits: bits)
    }
}

@Suite("Portable math")
struct PortableMathTests {
    @Test("sin and cos agree with libm from −2π to 2π, out to 10⁵ rad, and at multiples of π/2")
    func sineAndCosine() {
        let geodesy = grid(-2 * .pi, 2 * .pi, count: 40_000)
        let wide = grid(-1e5, 1e5, count: 20_011)
        let quadrants = (-1_000...1_000).map { Double($0) * (Double.pi / 2) }
        let tiny = grid(-1e-6, 1e-6, count: 2_000)
        for inputs in [geodesy, wide, quadrants, tiny] {
            #expect(maxUlps(inputs, PortableMath.sin, Foundation.sin) <= libmTolerance)
            #expect(maxUlps(inputs, PortableMath.cos, Foundation.cos) <= libmTolerance)
        }
    }

    @Test("atan2 agrees with libm over a grid of the plane and along the axes")
    func arctangent() {
        let coordinates = grid(-10, 10, count: 300).map { $0 + 0.012_345 }
        let plane = coordinates.flatMap { y in coordinates.map { x in (y, x) } }
        let steep = grid(-1e-7, 1e-7, count: 2_000).flatMap { [($0, 0.9), (0.9, $0)] }
        for inputs in [plane, steep] {
            #expect(maxUlps(inputs, PortableMath.atan2, Foundation.atan2) <= libmTolerance)
        }
    }

    @Test("asin agrees with libm over [−1, 1] and next to ±1")
    func arcsine() {
        let whole = grid(-1, 1, count: 100_000)
        let gaps: [Double] = (0..<2_000).map { Double($0) * 0x1p-40 }
        let nearOne: [Double] = gaps.map { 1 - $0 } + gaps.map { $0 - 1 }
        for inputs in [whole, nearOne] {
            #expect(maxUlps(inputs, PortableMath.asin, Foundation.asin) <= libmTolerance)
        }
    }

    @Test("zeros, infinities and NaN give IEEE 754's answers, bit for bit as libm")
    func specialValues() {
        let specials: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, .nan]
        for y in specials {
            for x in specials {
                #expect(ulpDistance(PortableMath.atan2(y, x), Foundation.atan2(y, x)) == 0)
            }
        }
        for x: Double in [0, -0.0, 1, -1, 0x1p-1070, -0x1p-1070] {
            #expect(PortableMath.asin(x).bitPattern == Foundation.asin(x).bitPattern)
            #expect(PortableMath.sin(x).bitPattern == Foundation.sin(x).bitPattern)
            #expect(PortableMath.cos(x).bitPattern == Foundation.cos(x).bitPattern)
        }
        #expect(PortableMath.asin(1.5).isNaN && PortableMath.asin(.nan).isNaN)
        #expect(PortableMath.sin(.infinity).isNaN && PortableMath.cos(.nan).isNaN)
    }

    @Test("beyond the reduction domain sin and cos are NaN, not a wrong number")
    func outsideDomain() {
        let limit = PortableMath.reductionLimit
        #expect(!PortableMath.sin(limit).isNaN && !PortableMath.cos(-limit).isNaN)
        #expect(PortableMath.sin(limit.nextUp).isNaN && PortableMath.cos(-limit.nextUp).isNaN)
    }

    /// Changing these bits changes every replayed position: do it on purpose or not at all.
    @Test(
        "pinned results: these exact bits, each within 1 ulp of libm",
        arguments: [
            Pin.sin(0.5, 0x3FDE_AEE8_744B_05F0), Pin.sin(0.8988, 0x3FE9_0AE6_147F_2107),
            Pin.sin(3, 0x3FC2_1038_6DB6_D55B), Pin.sin(-2.5, 0xBFE3_26AF_0DCF_CAB0),
            Pin.sin(100, 0xBFE0_3425_B78C_4DB8), Pin.sin(12_345.678, 0xBFE6_87D5_8909_74A5),
            Pin.cos(0.5, 0x3FEC_1528_065B_7D50), Pin.cos(0.8988, 0x3FE3_EBEC_F4B0_A47C),
            Pin.cos(3, 0xBFEF_AE04_BE85_E5D2), Pin.cos(-2.5, 0xBFE9_A2F7_EF85_8B7D),
            Pin.cos(100, 0x3FEB_981D_BF66_5FDF), Pin.cos(12_345.678, 0x3FE6_B94C_3BBE_24B8),
            Pin.atan2(1, 2, 0x3FDD_AC67_0561_BB4F), Pin.atan2(1, -2, 0x4005_6C6E_7397_F5AE),
            Pin.atan2(-3, 0.5, 0xBFF6_7D88_63BC_99BD),
            Pin.atan2(0.001, 0.999, 0x3F50_6680_481A_4809),
            Pin.atan2(-2, -7, 0xC006_E806_2854_DB5E),
            Pin.asin(0.3, 0x3FD3_8015_9E14_F6FF), Pin.asin(-0.6, 0xBFE4_978F_A326_9EE1),
            Pin.asin(0.9, 0x3FF1_EA93_705F_A172), Pin.asin(0.99, 0x3FF6_DE3C_6F33_D51D),
        ])
    func pinned(_ pin: Pin) {
        let result = pin.function(pin.arguments)
        #expect(result.bitPattern == pin.bits)
        #expect(ulpDistance(result, pin.libm(pin.arguments)) <= 1)
    }
}
