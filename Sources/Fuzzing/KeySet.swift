// Sets of keys for the fuzzer's hot loop (layer 5): `LifecyclePath` asks them, at almost every
// entry of every run's log, whether a state, a pair of states or a transition was reached before.

/// A key that is already a hash, or made of hashes (FNV-1a keys of `LifecycleState`), so that
/// one multiplication spreads it over a table (Fibonacci hashing).
protocol SpreadKey: Equatable {
    /// The key mixed by multiplication; its high bits pick the home slot.
    var spread: UInt64 { get }
}

/// A set of `SpreadKey`s in an open-addressing table with linear probing. `Set<UInt64>` hashes
/// each key again with SipHash, which cost more than everything else in a membership test.
/// Membership only: it is never iterated, so its layout never reaches an output.
struct SpreadKeySet<Key: SpreadKey> {
    // invariant: `slots.count` is a power of two, at least twice `count`; nil marks an empty
    // slot; a key's slot is on the probe sequence from its home slot with no empty slot
    // before it.
    private var slots: [Key?]
    private(set) var count = 0

    /// An empty set with room for `capacity` keys before it grows.
    init(capacity: Int = 32) {
        var size = 1
        while size < 2 * capacity { size <<= 1 }
        slots = Array(repeating: nil, count: size)
    }

    /// Adds `key`; returns whether it was not in the set before.
    mutating func insert(_ key: Key) -> Bool {
        let mask = slots.count - 1
        var index = Self.home(of: key, mask: mask)
        while let held = slots[index] {
            if held == key { return false }
            index = (index + 1) & mask
        }
        slots[index] = key
        count += 1
        if 2 * (count + 1) > slots.count { grow() }
        return true
    }

    private static func home(of key: Key, mask: Int) -> Int {
        Int(truncatingIfNeeded: key.spread >> 32) & mask
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: 2 * old.count)
        let mask = slots.count - 1
        for case let key? in old {
            var index = Self.home(of: key, mask: mask)
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = key
        }
    }
}

extension UInt64: SpreadKey {
    var spread: UInt64 { self &* 0x9E37_79B9_7F4A_7C15 }  // 2⁶⁴/φ
}

/// The reached states and transitions of one run (their keys).
typealias KeySet = SpreadKeySet<UInt64>

/// An ordered pair of state keys: a transition's source and target, asked before its own key
/// is hashed, so that the FNV-1a transition key is computed only for a pair new in the run.
struct StatePair: SpreadKey {
    var source: UInt64
    var target: UInt64

    var spread: UInt64 { (source &* 0x9E37_79B9_7F4A_7C15) ^ (target &* 0xBF58_476D_1CE4_E5B9) }
}

/// The pairs of consecutive states of one run.
typealias KeyPairSet = SpreadKeySet<StatePair>

extension SpreadKeySet<StatePair> {
    /// Adds the pair (`source`, `target`); returns whether it was not in the set before.
    mutating func insert(_ source: UInt64, _ target: UInt64) -> Bool {
        insert(StatePair(source: source, target: target))
    }
}

/// The pairs of consecutive states met last, one in each of eight slots picked by the pair's
/// keys: a cache in front of `KeyPairSet` and the reached states, for a walk that goes round
/// the same few states entry after entry.
struct RecentPairs {
    private var slots = [StatePair](
        repeating: StatePair(source: 0, target: 0), count: Self.slotCount)
    private var filled = [Bool](repeating: false, count: Self.slotCount)
    private static let slotCount = 8

    /// Whether the pair (`source`, `target`) is held; if not, holds it in its slot (in place of
    /// the pair there).
    mutating func containsElseAdds(_ source: UInt64, _ target: UInt64) -> Bool {
        let pair = StatePair(source: source, target: target)
        let slot = Int(truncatingIfNeeded: pair.spread >> 61)
        if filled[slot] && slots[slot] == pair { return true }
        slots[slot] = pair
        filled[slot] = true
        return false
    }
}
