// The escalation passes, each alone on a small property whose minimum is known and out of
// reach of the base passes (two full rounds of them are run first, and leave the case as it
// was, or short of the minimum): two values moved or swapped together, a mirrored pair of
// elements deleted, a high bit cleared, a coin lowered with the sub-value it drew, a run of
// elements deleted in a few evaluations.
import Testing

@testable import Exploration

/// Two rounds of the base passes, as `shrink()` runs them before any escalation pass.
func baseRounds(_ shrinker: Shrinker) {
    for _ in 0..<2 {
        for pass in shrinker.basePasses { pass.run() }
    }
}

/// A shrinker from `start` run through two rounds of the base passes.
func afterBaseRounds<Value>(
    _ generator: Gen<Value>, from start: [UInt64], fails: @escaping (Value) -> Bool
) -> Shrinker {
    let older = shrinker(generator, from: start, fails: fails)
    baseRounds(older)
    return older
}

var pairsOfInts: Gen<(Int, Int)> {
    Gen.zip(Gen<Int>.int(in: -1000...1000), Gen<Int>.int(in: -1000...1000))
}

@Suite("Escalation shrink passes")
struct EscalationPassTests {
    @Test("shiftPairs moves a pair across 0, the difference kept: (1, 0) becomes (0, -1)")
    func shiftPairsAcrossZero() {
        let encoding = IntegerEncoding(-1000...1000)
        let start = [encoding.index(of: 1), encoding.index(of: 0)]
        let differenceIsOne: ((Int, Int)) -> Bool = { $0.0 - $0.1 == 1 }
        let older = afterBaseRounds(pairsOfInts, from: start, fails: differenceIsOne)
        #expect(value(pairsOfInts, older) == (1, 0))
        let subject = shrinker(pairsOfInts, from: start, fails: differenceIsOne)
        subject.shiftPairs()
        #expect(value(pairsOfInts, subject) == (0, -1))
    }

    @Test("shiftPairs mirrors a negative pair and reflects the second about the first")
    func shiftPairsMirror() {
        let encoding = IntegerEncoding(-1000...1000)
        let start = [encoding.index(of: -1000), encoding.index(of: -1001 + 2)]
        let close: ((Int, Int)) -> Bool = { abs($0.0) >= 1000 && abs($0.0 - $0.1) == 1 }
        let older = afterBaseRounds(pairsOfInts, from: start, fails: close)
        #expect(value(pairsOfInts, older) == (-1000, -999))
        let subject = shrinker(pairsOfInts, from: start, fails: close)
        subject.shiftPairs()
        #expect(value(pairsOfInts, subject) == (1000, 999))
    }

    @Test("deleteSpanPairs deletes two letters at mirrored places of a palindrome")
    func deleteSpanPairs() {
        let word = Gen.array(of: Gen<Int>.int(in: 0...25), length: 0...20)
        // "qfzfq": a coin before each letter, then the closing coin.
        let start: [UInt64] = [1, 16, 1, 5, 1, 25, 1, 5, 1, 16, 0]
        // A palindrome of 3 letters or more with a z in the middle: deleting one letter, even
        // the middle one, breaks it.
        let palindrome: ([Int]) -> Bool = {
            $0 == $0.reversed() && $0.count >= 3 && $0[$0.count / 2] == 25
        }
        let older = afterBaseRounds(word, from: start, fails: palindrome)
        #expect(value(word, older).count == 5, "deleting one letter breaks the palindrome")
        let subject = shrinker(word, from: start, fails: palindrome)
        subject.deleteSpanPairs()
        #expect(value(word, subject) == [5, 25, 5])
    }

    @Test("swapValueGroups exchanges two repeated values: [1, 0, 1, 0] becomes [0, 1, 0, 1]")
    func swapValueGroups() {
        let list = Gen.array(of: Gen<Int>.int(in: 0...1000), length: 0...10)
        let start: [UInt64] = [1, 1, 1, 0, 1, 1, 1, 0, 0]
        let repeatsPair: ([Int]) -> Bool = {
            $0.count == 4 && $0[0] != $0[1] && $0[0] == $0[2] && $0[1] == $0[3]
        }
        let older = afterBaseRounds(list, from: start, fails: repeatsPair)
        #expect(value(list, older) == [1, 0, 1, 0])
        let subject = shrinker(list, from: start, fails: repeatsPair)
        subject.swapValueGroups()
        #expect(value(list, subject) == [0, 1, 0, 1])
        #expect(subject.evaluationCount == 1)
    }

    @Test("lowerHighBits brings a colliding key down to the table's size")
    func lowerHighBits() {
        let keys = Gen.zip(Gen<Int>.int(in: 0...100_000), Gen<Int>.int(in: 0...100_000))
        let start: [UInt64] = [0, 7 * 1024]
        let collide: ((Int, Int)) -> Bool = { $0.0 != $0.1 && $0.0 % 1024 == $0.1 % 1024 }
        let older = afterBaseRounds(keys, from: start, fails: collide)
        #expect(value(keys, older) == (0, 7 * 1024))
        let subject = shrinker(keys, from: start, fails: collide)
        subject.lowerHighBits()
        #expect(value(keys, subject) == (0, 1024))
        #expect(subject.evaluationCount == 3, "4096 cleared, then 2048, then 512 tried")
    }

    @Test("lowerWithDependants lowers a coin together with the sub-value it drew")
    func lowerWithDependants() {
        // An optional triple (a coin, then three integers), then an integer.
        let triple = Gen.zip(
            Gen<Int>.int(in: 0...100), Gen<Int>.int(in: 0...100), Gen<Int>.int(in: 0...100))
        let optional = Gen<(Int, Int, Int)?>("optional-triple") { testCase in
            Gen<Bool>.bool.generate(testCase) ? triple.generate(testCase) : nil
        }
        let generator = Gen.zip(optional, Gen<Int>.int(in: 0...100))
        let start: [UInt64] = [1, 5, 6, 7, 10]
        let lastAtLeastTen: (((Int, Int, Int)?, Int)) -> Bool = { $0.1 >= 10 }
        let older = afterBaseRounds(generator, from: start, fails: lastAtLeastTen)
        #expect(older.current.values.count == 5, "the triple stays")
        let subject = shrinker(generator, from: start, fails: lastAtLeastTen)
        subject.lowerWithDependants()
        #expect(subject.current.values == [0, 10])
    }

    @Test("deleteSpanRuns deletes a long tail of elements in a few evaluations")
    func deleteSpanRuns() {
        let list = Gen.array(of: Gen<Int>.int(in: 0...1000), length: 0...100)
        let start = [1, 7] + Array(repeating: [1, 1], count: 32).flatMap { $0 } + [0]
        let startsWithSeven: ([Int]) -> Bool = { $0.first == 7 }
        let subject = shrinker(list, from: start.map(UInt64.init), fails: startsWithSeven)
        subject.deleteSpanRuns()
        #expect(value(list, subject) == [7])
        #expect(subject.evaluationCount <= 6, "2, 4, 8, 16 and 32 elements, not 32 deletions")
        let older = shrinker(list, from: start.map(UInt64.init), fails: startsWithSeven)
        older.deleteSpans()
        #expect(older.evaluationCount >= 32)
    }
}
