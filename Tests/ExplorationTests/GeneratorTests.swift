// Generators: every value lies in its bounds, generation is biased toward simple values and
// the ends of ranges, and a recorded sequence rebuilds the same value.
import Testing

@testable import Exploration

/// `count` values of `generator`, one per seed.
func samples<Value>(_ generator: Gen<Value>, count: Int = 2_000, seed: UInt64 = 1) -> [Value] {
    (0..<UInt64(count)).map { generator.generate(TestCase(seed: seed &+ $0 &* 7919)) }
}

@Suite("Generators")
struct GeneratorTests {
    @Test(
        "integer encoding: 0, 1, −1, 2, −2, … and then the longer side",
        arguments: [
            (-3...3, [0, 1, -1, 2, -2, 3, -3]), (-1...4, [0, 1, -1, 2, 3, 4]),
            (-4...1, [0, 1, -1, -2, -3, -4]),
            (5...8, [5, 6, 7, 8]), (-8 ... -5, [-5, -6, -7, -8]),
        ] as [(ClosedRange<Int64>, [Int64])])
    func integerEncodingOrder(range: ClosedRange<Int64>, order: [Int64]) {
        let encoding = IntegerEncoding(range)
        #expect((0...encoding.maxIndex).map(encoding.value(at:)) == order)
        for (index, value) in order.enumerated() {
            #expect(encoding.index(of: value) == UInt64(index))
        }
    }

    @Test("integer encoding covers the whole 64-bit range")
    func fullRangeEncoding() {
        let encoding = IntegerEncoding(Int64.min...Int64.max)
        #expect(encoding.maxIndex == UInt64.max)
        #expect(encoding.value(at: .max) == Int64.min)
        #expect(encoding.value(at: .max - 1) == -Int64.max)
        #expect(encoding.value(at: .max - 2) == Int64.max)
        for value: Int64 in [0, 1, -1, Int64.max, Int64.min, 12345, -98765] {
            #expect(encoding.value(at: encoding.index(of: value)) == value)
        }
    }

    @Test(
        "integers stay in their range and favour the simplest value and both ends",
        arguments: [
            -50...50, 10...1000, -1000 ... -10, 0...3,
        ] as [ClosedRange<Int64>])
    func integerRangesAndBias(range: ClosedRange<Int64>) {
        let values = samples(Gen<Int64>.int64(in: range))
        #expect(values.allSatisfy(range.contains))
        let simplest = IntegerEncoding(range).target
        let share = { (value: Int64) in
            Double(values.filter { $0 == value }.count) / Double(values.count)
        }
        let uniform = 1 / Double(range.count)
        #expect(share(simplest) >= min(0.04, 2 * uniform) || range.count <= 4)
        #expect(share(range.lowerBound) >= 0.04 || range.count <= 4)
        #expect(share(range.upperBound) >= 0.04 || range.count <= 4)
        #expect(Set(values).count > min(Int(range.count) / 2, 20), "not only the special values")
    }

    @Test("arbitrary integers are biased toward small magnitudes")
    func smallMagnitudes() {
        let values = samples(Gen<Int>.int)
        let small = values.filter { $0.magnitude < 1 << 16 }.count
        #expect(Double(small) / Double(values.count) > 0.1, "uniform would give 2^-47")
        #expect(values.contains(Int.min) && values.contains(Int.max))
    }

    @Test("doubles stay in range and hit both ends")
    func doubles() {
        let values = samples(Gen<Double>.double(in: -2.5...10))
        #expect(values.allSatisfy { (-2.5...10).contains($0) })
        #expect(values.contains(-2.5) && values.contains(10) && values.contains(0))
    }

    @Test("booleans: both, false the simpler")
    func booleans() {
        let values = samples(Gen<Bool>.bool, count: 200)
        #expect(values.contains(true) && values.contains(false))
        #expect(Gen<Bool>.bool.generate(TestCase()) == false)
    }

    @Test(
        "arrays respect their length bounds; exact counts are exact",
        arguments: [0...0, 0...5, 3...7, 10...10])
    func arrayLengths(length: ClosedRange<Int>) {
        let values = samples(Gen.array(of: Gen<Int>.int(in: 0...9), length: length), count: 500)
        #expect(values.allSatisfy { length.contains($0.count) })
        if length.count > 1 { #expect(Set(values.map(\.count)).count > 1) }
        #expect(
            Gen.array(of: Gen<Int>.int, length: length).generate(TestCase()).count
                == length.lowerBound)
    }

    @Test("elements, one-of and weights: replaying zeros gives the first choice")
    func choices() {
        #expect(Set(samples(Gen.element(of: ["a", "b", "c"]), count: 300)) == ["a", "b", "c"])
        let weighted = Gen<String>.weighted([(1, .constant("rare")), (9, .constant("common"))])
        let common = samples(weighted, count: 1_000).filter { $0 == "common" }.count
        #expect((800...980).contains(common))
        #expect(
            weighted.generate(TestCase()) == "rare", "index 0 is the simplest, whatever its weight")
        #expect(Gen<Int>.oneOf([.constant(1), .constant(2)]).generate(TestCase()) == 1)
    }

    @Test("map, zip and flatMap compose; flatMap's inner value depends on the outer")
    func composition() {
        let pairs = samples(
            Gen.zip(Gen<Int>.int(in: 0...5), Gen<Bool>.bool).map { "\($0)\($1)" }, count: 300)
        #expect(Set(pairs).count == 12)
        let sized = Gen<Int>.int(in: 1...20).flatMap { count in
            Gen.array(of: Gen<Int>.int(in: 0...1), count: count)
        }
        let lists = samples(sized, count: 300)
        #expect(lists.allSatisfy { (1...20).contains($0.count) })
        #expect(Set(lists.map(\.count)).count > 5)
    }

    @Test("recursion stops at its depth bound")
    func recursionDepth() {
        indirect enum Tree {
            case leaf
            case node(Tree, Tree)
            var depth: Int {
                if case .node(let l, let r) = self { 1 + max(l.depth, r.depth) } else { 0 }
            }
        }
        let trees = Gen<Tree>.recursive(depthMax: 4, base: .constant(.leaf)) { smaller in
            .oneOf([.constant(.leaf), Gen.zip(smaller, smaller).map { Tree.node($0, $1) }])
        }
        let depths = samples(trees, count: 500).map(\.depth)
        #expect(depths.allSatisfy { $0 <= 4 } && depths.contains(4))
    }

    @Test("filter keeps only accepted values and rejects the case when nothing passes")
    func filters() {
        let even = Gen<Int>.int(in: 0...100).filter { $0 % 2 == 0 }
        #expect(samples(even, count: 300).allSatisfy { $0 % 2 == 0 })
        let impossible = Gen<Int>.int(in: 0...100).filter("never", attemptMax: 5) { _ in false }
        let testCase = TestCase(seed: 3)
        _ = impossible.generate(testCase)
        #expect(testCase.status == .invalid(reason: "never rejected 5 values in a row"))
    }

    @Test("a recorded sequence rebuilds the same value")
    func replayRebuilds() {
        let generator = Gen.array(of: Gen.zip(Gen<Int>.int, Gen<Bool>.bool), length: 0...30)
        for seed: UInt64 in 0..<50 {
            let recorded = TestCase(seed: seed)
            let value = generator.generate(recorded)
            let replayed = generator.generate(TestCase(prefix: recorded.values))
            #expect(value.map { "\($0)" } == replayed.map { "\($0)" })
        }
    }

    @Test("a truncated or misaligned sequence still builds a valid, simpler value")
    func editedSequences() {
        let generator = Gen.array(of: Gen<Int>.int(in: 10...20), length: 2...30)
        let recorded = TestCase(seed: 9)
        let value = generator.generate(recorded)
        let truncated = generator.generate(TestCase(prefix: Array(recorded.values.prefix(1))))
        #expect(truncated.count == 2 && truncated.allSatisfy { (10...20).contains($0) })
        #expect(value.count >= truncated.count)
        let misaligned = TestCase(prefix: [UInt64.max, 999])
        #expect(
            generator.generate(misaligned) == [10, 10], "values above their bound are taken as 0")
    }

    @Test("a case that needs more choices than allowed overruns, and stops drawing")
    func overrun() {
        let testCase = TestCase(seed: 1, choiceCountMax: 10)
        let value = Gen.array(of: Gen<Int>.int(in: 1...5), length: 50...50).generate(testCase)
        #expect(testCase.status == .overrun)
        #expect(testCase.values.count == 10 && value.count == 50)
    }

    @Test("swarm masks turn features off, and weighted choice honours them")
    func swarm() {
        let masks = samples(Gen<FeatureMask>.swarm(featureCount: 3), count: 200)
        #expect(Set(masks.map(\.bits)).count == 8)
        let mask = FeatureMask(bits: 0b100, count: 3)
        let picks = samples(
            Gen<String>.weighted(
                [(1, .constant("a")), (1, .constant("b")), (1, .constant("c"))],
                enabledBy: mask), count: 100)
        #expect(Set(picks) == ["c"])
    }
}

@Suite("Near misses")
struct NearMissTests {
    /// Two integers of a wide range that must differ by 1 to 3, neither below 1,000.
    static var pair: Gen<(Int, Int)> {
        Gen.zip(Gen<Int>.int(in: 0...1_000_000_000), Gen<Int>.int(in: 0...1_000_000_000))
    }
    static func nearlyEqual(_ pair: (Int, Int)) -> Bool {
        (1...3).contains(abs(pair.0 - pair.1)) && min(pair.0, pair.1) >= 1_000
    }

    /// Of 100 seeds of 100 cases each, how many find a failure, and their shrunk values.
    static func search(nearMissOneIn: UInt64) -> (found: Int, shrunk: [(Int, Int)]) {
        var shrunk: [(Int, Int)] = []
        for seed: UInt64 in 1...100 {
            var settings = ExplorationSettings(seed: seed, caseCount: 100)
            settings.nearMissOneIn = nearMissOneIn
            let result = Explorer.explore(pair, settings: settings) {
                try check(!nearlyEqual($0))
            }
            if let failure = result.failure { shrunk.append(failure.value) }
        }
        return (shrunk.count, shrunk)
    }

    @Test("reusing and nudging earlier integers finds values that must nearly match")
    func findsNearMisses() {
        let with = Self.search(nearMissOneIn: TestCase.nearMissOneInDefault)
        let without = Self.search(nearMissOneIn: 0)
        #expect(with.found >= 80, "found in \(with.found) of 100 seeds")
        #expect(without.found <= 10, "found in \(without.found) of 100 seeds without near misses")
        // Shrinking still goes toward 0: the smaller at 1,000, the larger one above it.
        #expect(with.shrunk.allSatisfy { $0 == (1_000, 1_001) || $0 == (1_001, 1_000) })
    }

    @Test("a near miss is recorded as drawn: its sequence replays the same value")
    func nearMissesReplay() {
        var replayed = 0
        for seed: UInt64 in 0..<500 {
            let generated = TestCase(seed: seed)
            let value = Self.pair.generate(generated)
            guard value.0 == value.1 || Self.nearlyEqual(value) else { continue }
            replayed += 1
            let replay = Self.pair.generate(TestCase(prefix: generated.values))
            #expect(replay == value, "seed \(seed)")
        }
        #expect(replayed >= 10, "near misses come up (\(replayed) in 500)")
    }
}

@Suite("Recursive generator with a context")
struct RecursiveContextTests {
    /// Heaps written with `Gen.recursive(from:depthMax:base:)`: a size and a floor go down.
    static func heaps(size: Int) -> Gen<TestHeap> {
        Gen<TestHeap>.recursive(
            from: (size: size, floor: 0), depthMax: size + 1, base: { _ in .constant(.empty) }
        ) { context, child in
            Gen("test-node") { testCase in
                guard context.size > 0 else { return .empty }
                let key = context.floor + Gen<Int>.int(in: 0...100).generate(testCase)
                let left =
                    context.size == 1
                    ? 0 : Gen<Int>.int(in: 0...context.size - 1).generate(testCase)
                return .node(
                    key, child((left, key)).generate(testCase),
                    child((context.size - 1 - left, key)).generate(testCase))
            }
        }
    }

    static var sized: Gen<TestHeap> { Gen<Int>.int(in: 0...12).flatMap { heaps(size: $0) } }

    @Test("each node gets its parent's context: keys never fall, and the size is exact")
    func contextGoesDown() {
        func isHeap(_ heap: TestHeap, floor: Int) -> Bool {
            guard case .node(let key, let left, let right) = heap else { return true }
            return key >= floor && isHeap(left, floor: key) && isHeap(right, floor: key)
        }
        for seed: UInt64 in 0..<300 {
            let size = Int(seed % 13)
            let heap = Self.heaps(size: size).generate(TestCase(seed: seed))
            #expect(heap.keys.count == size, "seed \(seed)")
            #expect(isHeap(heap, floor: 0), "seed \(seed): \(heap)")
        }
        // The same heap with keys that do rise: the check above can fail.
        #expect(!isHeap(.node(5, .node(3, .empty, .empty), .empty), floor: 0))
    }

    @Test("every level shares one label, so a subtree can replace its ancestor")
    func oneLabel() {
        let testCase = TestCase(prefix: [4, 0, 3, 0, 1, 1, 0])
        let heap = Self.sized.generate(testCase)
        #expect(heap.keys.count == 4)
        let nodeLabel = Self.heaps(size: 4).label
        #expect(testCase.spans.filter { $0.label == nodeLabel }.count == 4)
        let subject = shrinker(Self.sized, from: testCase.values) { $0.unsorted }
        subject.shrink()
        #expect(
            value(Self.sized, subject)
                == .node(0, .node(1, .empty, .empty), .node(0, .empty, .empty)))
    }
}
