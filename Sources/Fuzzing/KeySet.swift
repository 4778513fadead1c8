// A set of 64-bit keys for the fuzzer's hot loop (layer 5): `LifecyclePath` asks it, at
// almost every entry of every run's log, whether a state or transition was reached before.

/// A set of `UInt64` keys that are already hashes (FNV-1a keys of `LifecycleState`), kept in
/// an open-addressing table with linear probing. `Set<UInt64>` hashes each key again with
/// SipHash, which cost more than everything else in a membership test; a key here is spread
/// over the table by one multiplication (Fibonacci hashing) instead. Membership only: it is
/// never iterated, so its layout never reaches an output.
struct KeySet {
    // invariant: `slots.count` is a power of two, at least twice `count`; 0 marks an empty
    // slot, and the key 0 itself is held by `holdsZero`.
    private var slots: [UInt64]
    private var holdsZero = false
    private(set) var count = 0

    /// An empty set with room for `capacity` keys before it grows.
    init(capacity: Int = 32) {
        var size = 1
        while size < 2 * capacity { size <<= 1 }
        slots = Array(repeating: 0, count: size)
    }

    /// Adds `key`; returns whether it was not in the set before.
    mutating func insert(_ key: UInt64) -> Bool {
        if key == 0 {
            guard !holdsZero else { return false }
            holdsZero = true
            count += 1
            return true
        }
        let mask = slots.count - 1
        var index = Self.home(of: key, mask: mask)
        while slots[index] != 0 {
            if slots[index] == key { return false }
            index = (index + 1) & mask
        }
        slots[index] = key
        count += 1
        if 2 * (count + 1) > slots.count { grow() }
        return true
    }

    // Fibonacci hashing: the high bits of the key times 2⁶⁴/φ, as a slot index.
    private static func home(of key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: 2 * old.count)
        let mask = slots.count - 1
        for key in old where key != 0 {
            var index = Self.home(of: key, mask: mask)
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = key
        }
    }
}

/// A set of ordered pairs of `UInt64` keys (a transition's source and target states), kept in
/// an open-addressing table with linear probing. `LifecyclePath` asks it first whether a pair
/// was reached before, so that the FNV-1a transition key (64 byte steps) is computed only for
/// a pair reached for the first time in a run. Membership only: never iterated.
struct KeyPairSet {
    // invariant: `slots.count` is a power of two, at least twice `count`; nil marks an empty
    // slot; a pair's slot is on the probe sequence from its home slot with no empty slot
    // before it.
    private var slots: [(first: UInt64, second: UInt64)?]
    private(set) var count = 0

    /// An empty set with room for `capacity` pairs before it grows.
    init(capacity: Int = 32) {
        var size = 1
        while size < 2 * capacity { size <<= 1 }
        slots = Array(repeating: nil, count: size)
    }

    /// Adds the pair (`first`, `second`); returns whether it was not in the set before.
    mutating func insert(_ first: UInt64, _ second: UInt64) -> Bool {
        let mask = slots.count - 1
        var index = Self.home(of: first, second, mask: mask)
        while let held = slots[index] {
            if held.first == first && held.second == second { return false }
            index = (index + 1) & mask
        }
        slots[index] = (first, second)
        count += 1
        if 2 * (count + 1) > slots.count { grow() }
        return true
    }

    // Both keys spread by a multiplication (as `KeySet` does one), the high bits as the slot.
    private static func home(of first: UInt64, _ second: UInt64, mask: Int) -> Int {
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xBF58_476D_1CE4_E5B9)
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: 2 * old.count)
        let mask = slots.count - 1
        for case let pair? in old {
            var index = Self.home(of: pair.first, pair.second, mask: mask)
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = pair
        }
    }
}
