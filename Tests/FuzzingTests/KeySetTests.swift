// KeySet and KeyPairSet, the open-addressing sets behind `LifecyclePath`: they must
// answer membership exactly as a `Set` does, through growth, probe chains and zero keys.
import Simulation
import Testing

@testable import Fuzzing

@Suite("Key set")
struct KeySetTests {
    @Test("insert says new exactly when Set<UInt64> does, over 20,000 keys with repeats")
    func agreesWithSet() {
        var keys = KeySet(capacity: 2)  // small, so that it grows many times
        // Few distinct values, so that most inserts repeat a key already held.
        let distinct = insertsAgreeWithSet(seed: 7, draw: { $0.next() % 5_000 }) {
            keys.insert($0)
        }
        #expect(keys.count == distinct)
    }

    @Test("keys that share a home slot are kept apart by probing")
    func collidingKeys() {
        var keys = KeySet(capacity: 4)
        // Keys that differ only in their high bits: many of them share a home slot in a
        // small table, and must still be told apart.
        let colliding: [UInt64] = (1...40).map { UInt64($0) << 40 }
        let firstTimes = colliding.map { keys.insert($0) }
        let secondTimes = colliding.map { keys.insert($0) }
        #expect(firstTimes.allSatisfy { $0 })
        #expect(secondTimes.allSatisfy { !$0 })
        #expect(keys.count == colliding.count)
    }

    @Test("the key 0, the table's empty mark, is a key like any other")
    func zeroKey() {
        var keys = KeySet()
        let answers = [keys.insert(0), keys.insert(0), keys.insert(1), keys.insert(0)]
        #expect(answers == [true, false, true, false])
        #expect(keys.count == 2)
    }
}

@Suite("Key pair set")
struct KeyPairSetTests {
    private struct Pair: Hashable {
        var first: UInt64
        var second: UInt64
    }

    @Test("insert says new exactly when a Set of pairs does, over 20,000 pairs with repeats")
    func agreesWithSet() {
        var pairs = KeyPairSet(capacity: 2)  // small, so that it grows many times
        // Few distinct values, so that most inserts repeat a pair already held, and the same
        // keys appear in both places.
        let distinct = insertsAgreeWithSet(
            seed: 11, draw: { Pair(first: $0.next() % 80, second: $0.next() % 80) }
        ) { pairs.insert($0.first, $0.second) }
        #expect(pairs.count == distinct)
    }

    @Test("a pair and its reverse are two pairs, and zeros are keys like any other")
    func orderAndZero() {
        var pairs = KeyPairSet()
        let answers = [
            pairs.insert(1, 2), pairs.insert(2, 1), pairs.insert(1, 2), pairs.insert(0, 0),
            pairs.insert(0, 0), pairs.insert(0, 1),
        ]
        #expect(answers == [true, true, false, true, false, true])
        #expect(pairs.count == 4)
    }

    @Test("pairs that share a home slot are kept apart by probing")
    func collidingPairs() {
        var pairs = KeyPairSet(capacity: 4)
        // Pairs that differ only in low bits the mix moves little: many share a home slot in
        // a small table, and must still be told apart.
        let colliding = (1...40).map { (UInt64($0) << 50, UInt64($0) << 50) }
        let firstTimes = colliding.map { pairs.insert($0.0, $0.1) }
        let secondTimes = colliding.map { pairs.insert($0.0, $0.1) }
        #expect(firstTimes.allSatisfy { $0 })
        #expect(secondTimes.allSatisfy { !$0 })
        #expect(pairs.count == colliding.count)
    }
}

/// Inserts 20,000 values drawn from `seed` with `insert` and into a `Set`, expecting the same
/// answer (new or not) each time; returns the number of distinct values.
private func insertsAgreeWithSet<Value: Hashable>(
    seed: UInt64, draw: (inout SplitMix64) -> Value, insert: (Value) -> Bool
) -> Int {
    var generator = SplitMix64(seed: seed)
    var reference: Set<Value> = []
    for _ in 0..<20_000 {
        let value = draw(&generator)
        let isNew = insert(value)
        #expect(isNew == reference.insert(value).inserted, "\(value)")
    }
    return reference.count
}
