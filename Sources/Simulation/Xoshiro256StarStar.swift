// xoshiro256** (layer 1): the stream every seeded component of a simulation draws from.

/// xoshiro256**, the all-purpose generator of Blackman and Vigna ("Scrambled linear
/// pseudorandom number generators", 2021): 256 bits of state, period 2^256 − 1.
///
/// A seed is expanded into the state with SplitMix64, as the authors recommend. From the state
/// {1, 2, 3, 4} the first outputs are 11520, 0, 1509978240, 1215971899390074240 (the authors'
/// reference values; `RandomnessTests` pins ten).
///
///     var random = Xoshiro256StarStar(seed: 42)
///     let coin = random.nextBounded(below: 2)
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    // invariant: not all four words are zero (the one state the generator never leaves)
    @usableFromInline var s0, s1, s2, s3: UInt64

    /// Expands `seed` into a full state with SplitMix64.
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        self.init(state: (seeder.next(), seeder.next(), seeder.next(), seeder.next()))
    }

    /// Starts from an explicit state, as the reference tests do. The state must not be all zero.
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        precondition(state != (0, 0, 0, 0), "xoshiro256** cannot start from the all-zero state")
        (s0, s1, s2, s3) = state
    }

    /// Starts the stream that `seed` names (see `Seed.derive`).
    public init(seed: Seed) { self.init(seed: seed.value) }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotateLeft(s3, by: 45)
        return result
    }
}

@inlinable @inline(__always)
func rotateLeft(_ value: UInt64, by count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
}
