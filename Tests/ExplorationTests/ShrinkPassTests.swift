// The shrinker's passes, one at a time, on small properties whose minimum is known; and the
// shrinker as a whole: deterministic, within budget, never returning a passing value.
import Testing

@testable import Exploration

/// A shrinker for `property` over `generator`, starting from the first failing seeded case.
func shrinker<Value>(
    _ generator: Gen<Value>, budget: Int = 10_000, fails: @escaping (Value) -> Bool
) -> Shrinker {
    var seed: UInt64 = 0
    var start = TestCase(seed: seed)
    while !(start.status == .valid && fails(generator.generate(start))) {
        seed += 1
        start = TestCase(seed: seed)
    }
    return Shrinker(failing: start, evaluationMax: budget) { choices in
        let testCase = TestCase(prefix: choices)
        let value = generator.generate(testCase)
        guard testCase.status == .valid else { return .invalid }
        return fails(value) ? .failed(testCase) : .passed
    }
}

func value<Value>(_ generator: Gen<Value>, _ shrinker: Shrinker) -> Value {
    generator.generate(TestCase(prefix: shrinker.current.values))
}

var smallInts: Gen<[Int]> { Gen.array(of: Gen<Int>.int(in: -1000...1000), length: 0...50) }

@Suite("Shrink passes")
struct ShrinkPassTests {
    @Test("deleteSpans removes elements the failure does not need")
    func deleteSpans() {
        let subject = shrinker(smallInts) { $0.contains { $0 > 500 } }
        let before = value(smallInts, subject).count
        subject.deleteSpans()
        let after = value(smallInts, subject)
        #expect(after.count == 1 && after[0] > 500)
        #expect(before > 1)
    }

    @Test("deleteChunks merges adjacent inner lists")
    func deleteChunksMerges() {
        let nested = Gen.array(
            of: Gen.array(of: Gen<Int>.constant(0), length: 0...20), length: 0...20)
        let start = TestCase(prefix: [1, 1, 1, 0, 1, 1, 1, 0, 0])  // [[0, 0], [0, 0]]
        _ = nested.generate(start)
        let subject = Shrinker(failing: start, evaluationMax: 100) { choices in
            let testCase = TestCase(prefix: choices)
            return nested.generate(testCase).joined().count >= 4 ? .failed(testCase) : .passed
        }
        subject.deleteChunks()
        #expect(value(nested, subject) == [[0, 0, 0, 0]])
    }

    @Test("zeroSpans sets a whole sub-value to its simplest form")
    func zeroSpans() {
        let pairs = Gen.zip(
            Gen<Int>.int(in: 0...100), Gen.array(of: Gen<Int>.int(in: 0...100), length: 3...3))
        let subject = shrinker(pairs) { $0.0 > 10 }
        subject.zeroSpans()
        #expect(value(pairs, subject).1 == [0, 0, 0])
    }

    @Test("replaceWithDescendant puts a subtree in its parent's place")
    func replaceWithDescendant() {
        indirect enum Tree: Equatable {
            case leaf(Int)
            case node(Tree, Tree)
            var leaves: [Int] {
                if case .node(let l, let r) = self {
                    l.leaves + r.leaves
                } else if case .leaf(let v) = self {
                    [v]
                } else {
                    []
                }
            }
        }
        let trees = Gen<Tree>.recursive(depthMax: 6, base: Gen<Int>.int(in: 0...9).map(Tree.leaf)) {
            smaller in
            .oneOf([
                Gen<Int>.int(in: 0...9).map(Tree.leaf),
                Gen.zip(smaller, smaller).map { Tree.node($0, $1) },
            ])
        }
        let subject = shrinker(trees) { $0.leaves.contains(7) && $0.leaves.count >= 2 }
        subject.replaceWithDescendant()
        subject.shrink()
        let result = value(trees, subject)
        #expect(result.leaves.count == 2 && result.leaves.contains(7))
    }

    @Test("lowerChoices finds the threshold by binary search, keeping the sign")
    func lowerChoices() {
        let number = Gen<Int>.int
        let positive = shrinker(number) { $0 >= 1234 }
        positive.lowerChoices()
        #expect(value(number, positive) == 1234)
        let negative = shrinker(number) { $0 <= -777 }
        negative.lowerChoices()
        #expect(value(number, negative) == -777)
        #expect(negative.evaluationCount < 200, "a binary search, not a walk")
    }

    @Test("lowerDuplicates lowers equal values together")
    func lowerDuplicates() {
        let pair = Gen.zip(Gen<Int>.int(in: -1000...1000), Gen<Int>.int(in: -1000...1000))
        let start = TestCase(prefix: [
            IntegerEncoding(-1000...1000).index(of: 321),
            IntegerEncoding(-1000...1000).index(of: 321),
        ])
        _ = pair.generate(start)
        let subject = Shrinker(failing: start, evaluationMax: 100) { choices in
            let testCase = TestCase(prefix: choices)
            let (a, b) = pair.generate(testCase)
            return a == b && a != 0 ? .failed(testCase) : .passed
        }
        subject.lowerDuplicates()
        #expect(value(pair, subject) == (1, 1))
    }

    @Test("redistributePairs moves size from one integer to another, keeping their sum")
    func redistributePairs() {
        let pair = Gen.zip(Gen<Int>.int(in: -100...100), Gen<Int>.int(in: -100...100))
        let encoding = IntegerEncoding(-100...100)
        let start = TestCase(prefix: [encoding.index(of: -60), encoding.index(of: -70)])
        _ = pair.generate(start)
        let subject = Shrinker(failing: start, evaluationMax: 100) { choices in
            let testCase = TestCase(prefix: choices)
            let (a, b) = pair.generate(testCase)
            return a + b <= -130 ? .failed(testCase) : .passed
        }
        subject.redistributePairs()
        #expect(value(pair, subject) == (-30, -100))
    }

    @Test("swapAdjacentSpans sorts neighbouring elements")
    func swapAdjacentSpans() {
        let start = TestCase(prefix: [1, 2, 1, 0, 0])  // [-1, 0]
        _ = smallInts.generate(start)
        let subject = Shrinker(failing: start, evaluationMax: 100) { choices in
            let testCase = TestCase(prefix: choices)
            let list = smallInts.generate(testCase)
            return Set(list) == [-1, 0] ? .failed(testCase) : .passed
        }
        subject.swapAdjacentSpans()
        #expect(value(smallInts, subject) == [0, -1])
    }

    @Test("the shrinker is deterministic, stays within budget, and ends on a failing value")
    func wholeShrinker() {
        let lists = Gen.array(of: Gen<Int>.int, length: 0...100)
        let fails: ([Int]) -> Bool = { $0.reduce(0, &+) > 1000 }
        let first = shrinker(lists, fails: fails)
        first.shrink()
        let second = shrinker(lists, fails: fails)
        second.shrink()
        #expect(first.current.values == second.current.values)
        #expect(fails(value(lists, first)))
        #expect(value(lists, first) == [1001])
        let tight = shrinker(lists, budget: 5, fails: fails)
        tight.shrink()
        #expect(tight.evaluationCount <= 5 && tight.exhaustedBudget)
        #expect(fails(value(lists, tight)))
    }

    @Test("simpler means shorter, then lexicographically smaller")
    func shortlex() {
        #expect(isSimpler([5], than: [0, 0]))
        #expect(isSimpler([0, 1], than: [1, 0]))
        #expect(!isSimpler([1, 0], than: [1, 0]))
    }
}

@Suite("Shrink pass: sort")
struct SortPassTests {
    @Test("sortSiblingSpans puts a list's elements in order in one step")
    func sortSiblings() {
        let list = Gen.array(of: Gen<Int>.int(in: 0...9), length: 0...10)
        let start = TestCase(prefix: [1, 3, 1, 1, 1, 2, 1, 0, 0])  // [3, 1, 2, 0]
        _ = list.generate(start)
        let subject = Shrinker(failing: start, evaluationMax: 100) { choices in
            let testCase = TestCase(prefix: choices)
            return Set(list.generate(testCase)) == [0, 1, 2, 3] ? .failed(testCase) : .passed
        }
        subject.sortSiblingSpans()
        #expect(value(list, subject) == [0, 1, 2, 3])
        #expect(subject.evaluationCount == 1)
    }
}
