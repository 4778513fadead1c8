// Seeded randomness: the generators against their authors' reference outputs, and the draws
// built on them (bounded integers without bias, unit doubles, independent sub-streams).
import Testing

@testable import Simulation

@Suite("Seeded randomness")
struct RandomnessTests {
    @Test("SplitMix64 seeded 1234567 gives the published reference sequence")
    func splitMixReference() {
        var random = SplitMix64(seed: 1_234_567)
        let expected: [UInt64] = [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ]
        #expect((0..<5).map { _ in random.next() } == expected)
    }

    @Test("xoshiro256** from state {1, 2, 3, 4} gives the authors' reference sequence")
    func xoshiroReference() {
        var random = Xoshiro256StarStar(state: (1, 2, 3, 4))
        let expected: [UInt64] = [
            11520, 0, 1_509_978_240, 1_215_971_899_390_074_240, 1_216_172_134_540_287_360,
            607_988_272_756_665_600, 16_172_922_978_634_559_625, 8_476_171_486_693_032_832,
            10_595_114_339_597_558_777, 2_904_607_092_377_533_576,
        ]
        #expect((0..<10).map { _ in random.next() } == expected)
    }

    @Test("a seed is expanded into the xoshiro state by SplitMix64")
    func seedingUsesSplitMix() {
        var seeder = SplitMix64(seed: 99)
        var expanded = Xoshiro256StarStar(
            state: (seeder.next(), seeder.next(), seeder.next(), seeder.next()))
        var seeded = Xoshiro256StarStar(seed: 99)
        #expect((0..<8).map { _ in seeded.next() } == (0..<8).map { _ in expanded.next() })
    }

    @Test("bounded draws stay below the bound and are not biased", arguments: [1, 3, 7, 10])
    func boundedDrawsAreUniform(bound: UInt64) {
        var random = Xoshiro256StarStar(seed: 2024)
        let drawCount = 60_000
        var counts = [Int](repeating: 0, count: Int(bound))
        for _ in 0..<drawCount {
            let value = random.nextBounded(below: bound)
            #expect(value < bound)
            counts[Int(min(value, bound - 1))] += 1
        }
        // Each bucket within 5 standard deviations of its expectation.
        let expected = Double(drawCount) / Double(bound)
        let tolerance = 5 * (expected * (1 - 1 / Double(bound))).squareRoot() + 1
        for count in counts { #expect(abs(Double(count) - expected) <= tolerance) }
    }

    @Test("a bound that is not a power of two rejects the biased low products")
    func boundedDrawRejectsBiasedProducts() {
        // Bound 2^63 + 1: a product whose low word falls under (2^64 − bound) mod bound must be
        // redrawn. Raw output 2 gives low word 2 (rejected); a plain multiply-high would take it.
        final class Scripted: RandomNumberGenerator {
            var outputs: [UInt64]
            init(_ outputs: [UInt64]) { self.outputs = outputs }
            func next() -> UInt64 { outputs.removeFirst() }
        }
        var random = Scripted([2, UInt64.max])
        let bound = (UInt64(1) << 63) + 1
        let value = random.nextBounded(below: bound)
        #expect(random.outputs.isEmpty, "the first, biased product was rejected")
        #expect(value == UInt64.max.multipliedFullWidth(by: bound).high)
    }

    @Test("integers in a closed range cover both ends")
    func integersCoverTheRange() {
        var random = Xoshiro256StarStar(seed: 5)
        var seen = Set<Int64>()
        for _ in 0..<2_000 {
            let value = random.nextInteger(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
        var extremes = Set<Bool>()
        for _ in 0..<64 { extremes.insert(random.nextInteger(in: Int64.min...Int64.max) < 0) }
        #expect(extremes == [true, false], "the full range yields both signs")
    }

    @Test("unit doubles lie in [0, 1) on the 2^-53 grid")
    func unitDoubles() {
        var random = Xoshiro256StarStar(seed: 11)
        for _ in 0..<10_000 {
            let value = random.nextUnitDouble()
            #expect(value >= 0 && value < 1)
            #expect((value * 0x1.0p53).rounded() == value * 0x1.0p53)
        }
        final class AllOnes: RandomNumberGenerator { func next() -> UInt64 { .max } }
        var ones = AllOnes()
        #expect(ones.nextUnitDouble() == 1 - 0x1.0p-53)
    }

    @Test("a derived stream depends on its label only, not on other streams' draws")
    func derivedStreamsAreIndependent() {
        let root = Seed(42)
        #expect(root.derive("device") == root.derive("device"))
        #expect(root.derive("device") != root.derive("daemon"))
        #expect(root.derive(0) != root.derive(1))
        #expect(Seed(43).derive("device") != root.derive("device"))
        var first = Xoshiro256StarStar(seed: root.derive("daemon"))
        var device = Xoshiro256StarStar(seed: root.derive("device"))
        _ = (0..<100).map { _ in device.next() }  // another stream draws a lot
        var again = Xoshiro256StarStar(seed: root.derive("daemon"))
        #expect((0..<5).map { _ in first.next() } == (0..<5).map { _ in again.next() })
    }

    @Test("FNV-1a matches its published test vectors")
    func fnvVectors() {
        var empty = FNV1a64()
        #expect(empty.value == 0xcbf2_9ce4_8422_2325)
        empty.combine("a")
        #expect(empty.value == 0xaf63_dc4c_8601_ec8c)
        var foobar = FNV1a64()
        foobar.combine("foobar")
        #expect(foobar.value == 0x8594_4171_f739_67e8)
    }
}
