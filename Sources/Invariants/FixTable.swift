// A table keyed by fixes (layer 5): the invariants look up every fix of a run several times.

/// A hash table from `FixKey` to values, with open addressing and linear probing, hashed by a
/// fixed mix of the fix's instant and position. `Dictionary` hashes with SipHash under a
/// per-process seed; the invariants' lookups took about 7 % of a fuzzing case that way. Keys
/// are only added, never removed, and the table is never iterated, so no order reaches an
/// output.
struct FixTable<Value> {
    // invariant: `slots.count` is a power of two, at least 4/3 of `count` (at most three
    // quarters full: a run's tables are its largest transient memory); a key's slot is on
    // the probe sequence from its home slot with no empty (nil) slot before it. Keys and
    // values share one array: one uniqueness check per change, one read per probe.
    private var slots: [(key: FixKey, value: Value)?]
    private(set) var count = 0

    /// A table that holds `capacity` keys before it grows.
    init(capacity: Int = 0) {
        var size = Self.sizeMin
        while size * 3 < capacity * 4 { size <<= 1 }
        slots = Array(repeating: nil, count: size)
    }

    /// The value for `key`, if it was added.
    func value(for key: FixKey) -> Value? {
        slots[slot(of: key)]?.value
    }

    /// Adds `key` with `value` unless it is there; true when it was added.
    @discardableResult
    mutating func insert(_ key: FixKey, _ value: Value) -> Bool {
        slotAdding(key, value).added
    }

    /// Changes the value for `key`, added first with `initial` when it is not there.
    mutating func update(_ key: FixKey, initial: Value, _ change: (inout Value) -> Void) {
        // One probe when the key is there (or is added without growing), not an insert and a
        // second lookup: every fix of a run is counted and taken this way. Changed in place.
        let slot = slotAdding(key, initial).slot
        guard slots[slot] != nil else { return }
        change(&slots[slot]!.value)
    }

    // MARK: - Internals

    /// The slot of `key`, which is added with `value` (growing the table first when it is three
    /// quarters full) when it is not there; and whether it was added.
    private mutating func slotAdding(_ key: FixKey, _ value: Value) -> (slot: Int, added: Bool) {
        var slot = self.slot(of: key)
        guard slots[slot] == nil else { return (slot, false) }
        if (count + 1) * 4 > slots.count * 3 {
            grow()
            slot = self.slot(of: key)
        }
        slots[slot] = (key, value)
        count += 1
        return (slot, true)
    }

    private static var sizeMin: Int { 16 }

    /// The slot holding `key`, or the empty slot where it would go.
    private func slot(of key: FixKey) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: Self.mix(key)) & mask
        while let held = slots[slot], held.key != key { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let old = slots
        var grown = FixTable(capacity: slots.count)
        for case (let key, let value)? in old { grown.insert(key, value) }
        self = grown
    }

    /// A 64-bit mix of the instant and the position (SplitMix64's finaliser).
    private static func mix(_ key: FixKey) -> UInt64 {
        var bits =
            UInt64(bitPattern: key.nanoseconds) &* 0x9E37_79B9_7F4A_7C15
            ^ key.latitudeBits ^ (key.longitudeBits &* 0xBF58_476D_1CE4_E5B9)
        bits ^= bits >> 31
        bits = bits &* 0x94D0_49BB_1331_11EB
        bits ^= bits >> 29
        return bits
    }
}
