// The structure passes of issue 12, each alone on a small property whose minimum is known and
// out of reach of the older passes: a pair that must keep its difference, value moved onto an
// integer at 0, an element deleted from a full list, a subtree promoted under a drawn size.
import Testing

@testable import Exploration

/// A shrinker over `generator` starting from the case `choices` build, failing when `fails`.
func shrinker<Value>(
    _ generator: Gen<Value>, from choices: [UInt64], fails: @escaping (Value) -> Bool
) -> Shrinker {
    let start = TestCase(prefix: choices)
    precondition(fails(generator.generate(start)), "the start fails")
    return Shrinker(failing: start, evaluationMax: 1_000) { choices in
        let testCase = TestCase(prefix: choices)
        let value = generator.generate(testCase)
        guard testCase.status == .valid else { return .invalid }
        return fails(value) ? .failed(testCase) : .passed
    }
}

/// A heap as a test value: `(key, left, right)` or nil.
indirect enum TestHeap: Equatable {
    case empty
    case node(Int, TestHeap, TestHeap)

    var keys: [Int] {
        if case .node(let key, let left, let right) = self { return [key] + left.keys + right.keys }
        return []
    }
    /// Unsorted when some left-subtree key exceeds a right-subtree key beside it.
    var unsorted: Bool { keys != keys.sorted() }
}

/// A heap of `size` nodes with keys at least `floor` (a delta in 0...100 each), the left
/// child's size drawn before the children, as the heap challenge draws it.
func testHeap(size: Int, floor: Int) -> Gen<TestHeap> {
    Gen("test-heap-node") { testCase in
        guard size > 0 else { return .empty }
        let key = floor + Gen<Int>.int(in: 0...100).generate(testCase)
        let leftSize = size == 1 ? 0 : Gen<Int>.int(in: 0...size - 1).generate(testCase)
        let left = testHeap(size: leftSize, floor: key).generate(testCase)
        let right = testHeap(size: size - 1 - leftSize, floor: key).generate(testCase)
        return .node(key, left, right)
    }
}

var sizedHeaps: Gen<TestHeap> { Gen<Int>.int(in: 0...15).flatMap { testHeap(size: $0, floor: 0) } }

@Suite("Shrink passes for structure")
struct StructurePassTests {
    @Test("shiftGroups moves two times by one amount, keeping their difference")
    func shiftGroups() {
        let times = Gen.zip(Gen<Int>.int(in: 0...100_000), Gen<Int>.int(in: 0...100_000))
        let encoding = IntegerEncoding(0...100_000)
        let start = [encoding.index(of: 50_000), encoding.index(of: 50_007)]
        let gapIsSeven: ((Int, Int)) -> Bool = { $0.1 - $0.0 == 7 }
        let alone = shrinker(times, from: start, fails: gapIsSeven)
        alone.lowerChoices()
        alone.redistributePairs()
        #expect(value(times, alone) == (50_000, 50_007), "lowering one time breaks the gap")
        let subject = shrinker(times, from: start, fails: gapIsSeven)
        subject.shiftGroups()
        #expect(value(times, subject) == (0, 7))
        #expect(subject.evaluationCount == 1)
    }

    @Test("shiftGroups finds the largest common shift that still fails")
    func shiftGroupsPartly() {
        let times = Gen.zip(Gen<Int>.int(in: 0...100_000), Gen<Int>.int(in: 0...100_000))
        let encoding = IntegerEncoding(0...100_000)
        let start = [encoding.index(of: 40_000), encoding.index(of: 40_010)]
        let subject = shrinker(times, from: start) { $0.1 - $0.0 == 10 && $0.0 >= 1_234 }
        subject.shiftGroups()
        #expect(value(times, subject) == (1_234, 1_244))
        #expect(subject.evaluationCount < 60, "a search, not a walk")
    }

    @Test("redistributeOntoZero moves value onto a later integer at 0")
    func redistributeOntoZero() {
        let pair = Gen.zip(Gen<Int>.int(in: -1000...1000), Gen<Int>.int(in: -1000...1000))
        let encoding = IntegerEncoding(-1000...1000)
        let start = [encoding.index(of: 500), 0]
        let sumAtLeast500: ((Int, Int)) -> Bool = { $0.0 + $0.1 >= 500 && $0.1 < 800 }
        let older = shrinker(pair, from: start, fails: sumAtLeast500)
        older.redistributePairs()
        #expect(value(pair, older) == (500, 0), "the older pass refuses a partner at 0")
        let subject = shrinker(pair, from: start, fails: sumAtLeast500)
        subject.redistributeOntoZero()
        #expect(value(pair, subject) == (0, 500))
    }

    @Test("redistributeOntoZero moves part of the value when all of it passes")
    func redistributeOntoZeroPartly() {
        let pair = Gen.zip(Gen<Int>.int(in: -1000...1000), Gen<Int>.int(in: -1000...1000))
        let encoding = IntegerEncoding(-1000...1000)
        let subject = shrinker(pair, from: [encoding.index(of: 600), 0]) {
            $0.0 + $0.1 >= 600 && $0.1 <= 300
        }
        subject.redistributeOntoZero()
        #expect(value(pair, subject) == (300, 300))
    }

    @Test("deleteElements deletes from a list at its maximum length and puts back the stop")
    func deleteElementsFullList() {
        let eventsAndAlarm = Gen.zip(
            Gen.array(of: Gen<Int>.int(in: 0...1000), length: 0...4), Gen<Int>.int(in: 0...1000))
        let encoding = IntegerEncoding(0...1000)
        // ([0, 0, 0, 10], 10): four coins and elements, no closing coin, then the alarm (where
        // the challenge `maxlength` stopped in a quarter of its runs before this pass).
        let start = [1, 0, 1, 0, 1, 0, 1, 10].map { UInt64($0) } + [encoding.index(of: 10)]
        let alarmOnEvent: (([Int], Int)) -> Bool = { $0.1 >= 10 && $0.0.contains($0.1) }
        let older = shrinker(eventsAndAlarm, from: start, fails: alarmOnEvent)
        for _ in 0..<2 {
            older.deleteSpans()
            older.deleteChunks()
            older.zeroSpans()
            older.lowerChoices()
            older.lowerDuplicates()
            older.redistributePairs()
            older.sortSiblingSpans()
            older.swapAdjacentSpans()
        }
        #expect(older.current.values == start, "a plain deletion loses the alarm")
        let subject = shrinker(eventsAndAlarm, from: start, fails: alarmOnEvent)
        subject.deleteElements()
        // The list is no longer full: its closing coin is back, and a plain deletion works.
        #expect(value(eventsAndAlarm, subject) == ([0, 0, 10], 10))
        subject.deleteSpans()
        #expect(value(eventsAndAlarm, subject) == ([10], 10))
    }

    @Test("deleteElements deletes from a list whose length was drawn first, lowering it")
    func deleteElementsCountedList() {
        let counted = Gen<Int>.int(in: 1...5).flatMap { count in
            Gen.array(of: Gen<Int>.int(in: 0...1000), count: count)
        }
        // n = 3 (index 2), then [900, 5, 950]: the failure needs 950 last.
        let start: [UInt64] = [2, 900, 5, 950]
        let lastIsLarge: ([Int]) -> Bool = { $0.last! >= 950 }
        let older = shrinker(counted, from: start, fails: lastIsLarge)
        older.deleteSpans()
        #expect(value(counted, older).count == 3, "a plain deletion pads the list with a 0")
        let subject = shrinker(counted, from: start, fails: lastIsLarge)
        subject.deleteElements()
        #expect(value(counted, subject) == [950])
    }

    @Test("replaceWithDescendantResized promotes a subtree and lowers the size drawn first")
    func replaceWithDescendantResized() {
        // n = 4: a root 0 whose left subtree (3 nodes) is the minimal failing heap.
        let start: [UInt64] = [4, 0, 3, 0, 1, 1, 0]
        let minimal = TestHeap.node(0, .node(1, .empty, .empty), .node(0, .empty, .empty))
        #expect(
            sizedHeaps.generate(TestCase(prefix: start))
                == .node(0, minimal, .empty))
        let older = shrinker(sizedHeaps, from: start) { $0.unsorted }
        older.replaceWithDescendant()
        #expect(value(sizedHeaps, older) != minimal, "the old size pads the promoted subtree")
        let subject = shrinker(sizedHeaps, from: start) { $0.unsorted }
        subject.replaceWithDescendantResized()
        #expect(value(sizedHeaps, subject) == minimal)
        #expect(subject.current.values == [3, 0, 1, 1, 0])
    }

    @Test("replaceWithDescendantResized promotes inside the tree, lowering every count above")
    func replaceWithDescendantResizedInside() {
        // (0, (0, (0), (1)), (0)): the left subtree's right child should replace it.
        let start: [UInt64] = [5, 0, 3, 0, 1, 0, 1, 0]
        let older = shrinker(sizedHeaps, from: start) { $0.unsorted }
        older.replaceWithDescendant()
        #expect(older.current.values == start, "a padded subtree makes a longer case")
        let subject = shrinker(sizedHeaps, from: start) { $0.unsorted }
        subject.replaceWithDescendantResized()
        #expect(
            value(sizedHeaps, subject)
                == .node(0, .node(1, .empty, .empty), .node(0, .empty, .empty)))
        #expect(subject.current.values == [3, 0, 1, 1, 0], "the drawn size and left size lowered")
    }
}
