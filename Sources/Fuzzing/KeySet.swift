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
