// A table keyed by fixes (layer 5): the invariants look up every fix of a run several times.

/// A hash table from `FixKey` to values, with open addressing and linear probing, hashed by a
/// fixed mix of the fix's instant and position. `Dictionary` hashes with SipHash under a
/// per-process seed; the invariants' lookups took about 7 % of a fuzzing case that way. Keys
/// are only added, never removed, and the table is never iterated, so no order reaches an
/// output.
///
/// The keys and values sit in `entries`, in the order added, sized once for the capacity asked;
/// the probed slots hold 8 bytes each: where the entry is, and 32 bits of its hash, compared
/// before the key is read. A week's drive uploads about 600,000 fixes: as slots of keys and
/// values (56 bytes each, a million of them) the table would take 56 MB; here it is
/// 37 MB, and growing moves no key.
struct FixTable<Value> {
    // invariant: `slots.count` is a power of two, at least 4/3 of `entries.count` (at most
    // three quarters full); a slot is 0 (empty) or `(index + 1) << 32 | tag` for
    // `entries[index]`, whose key's mix has `tag` in its high 32 bits; a key's slot is on the
    // probe sequence from its home slot with no empty slot before it.
    private var slots: [UInt64]
    private var entries: [(key: FixKey, value: Value)] = []

    /// Keys added.
    var count: Int { entries.count }

    /// A table that holds `capacity` keys before it grows.
    init(capacity: Int = 0) {
        slots = Array(repeating: 0, count: Self.slotCount(for: capacity))
        entries.reserveCapacity(capacity)
    }

    /// The value for `key`, if it was added.
    func value(for key: FixKey) -> Value? {
        let found = find(key)
        return found.entry.map { entries[$0].value }
    }

    /// Adds `key` with `value` unless it is there; true when it was added.
    @discardableResult
    mutating func insert(_ key: FixKey, _ value: Value) -> Bool {
        entryAdding(key, value).added
    }

    /// Changes the value for `key`, added first with `initial` when it is not there.
    mutating func update(_ key: FixKey, initial: Value, _ change: (inout Value) -> Void) {
        // One probe when the key is there (or is added without growing), not an insert and a
        // second lookup: every fix of a run is counted and taken this way. Changed in place.
        let entry = entryAdding(key, initial).entry
        change(&entries[entry].value)
    }

    // MARK: - Internals

    /// The entry of `key`, which is added with `value` (the slots growing first when they are
    /// three quarters full) when it is not there; and whether it was added.
    private mutating func entryAdding(_ key: FixKey, _ value: Value) -> (entry: Int, added: Bool) {
        var found = find(key)
        if let entry = found.entry { return (entry, false) }
        if (entries.count + 1) * 4 > slots.count * 3 {
            growSlots()
            found = find(key)
        }
        let entry = entries.count
        entries.append((key, value))
        slots[found.slot] = Self.slot(naming: entry, mix: found.mix)
        return (entry, true)
    }

    /// The entry holding `key`, if any, and the slot that holds it or where it would go, with
    /// the key's mix.
    private func find(_ key: FixKey) -> (entry: Int?, slot: Int, mix: UInt64) {
        let mix = Self.mix(key)
        let tag = Self.tag(mix)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: mix) & mask
        while slots[slot] != 0 {
            let held = slots[slot]
            if UInt32(truncatingIfNeeded: held) == tag {
                let entry = Int(held >> 32) - 1
                if entries[entry].key == key { return (entry, slot, mix) }
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot, mix)
    }

    private static var sizeMin: Int { 16 }

    /// The power of two of slots that holds `count` keys at most three quarters full.
    private static func slotCount(for count: Int) -> Int {
        var size = sizeMin
        while size * 3 < count * 4 { size <<= 1 }
        return size
    }

    /// Twice the slots, every entry placed again (the entries themselves stay).
    private mutating func growSlots() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for index in entries.indices {
            let mix = Self.mix(entries[index].key)
            var slot = Int(truncatingIfNeeded: mix) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Self.slot(naming: index, mix: mix)
        }
    }

    /// The slot that names `entries[entry]`, whose key mixes to `mix`.
    private static func slot(naming entry: Int, mix: UInt64) -> UInt64 {
        UInt64(entry + 1) << 32 | UInt64(tag(mix))
    }

    /// The bits of `mix` a slot keeps: the high half, which the home slot does not use (a
    /// table of 2^32 slots aside).
    private static func tag(_ mix: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: mix >> 32) }

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
