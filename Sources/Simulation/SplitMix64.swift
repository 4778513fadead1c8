// SplitMix64 (layer 1): the seeding generator, and the stream the peer benchmarks share.

/// SplitMix64, the generator of Steele, Lea and Flood (OOPSLA 2014, Java's `SplittableRandom`),
/// in the form Vigna publishes for seeding the xoshiro family.
///
/// Lifeline uses it to expand one seed into a xoshiro256** state and to derive independent
/// sub-seeds, and the kernel benchmark uses it as the one stream the peer models specify
/// (the DES peer benchmark, `KernelBenchmark`). Seeded with 1234567, its first output is
/// 6457827717110365317 (the published reference sequence; `RandomnessTests` pins five).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; advances by the golden-ratio increment on every draw.
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// The SplitMix64 output function: a bijective 64-bit finalizer (Stafford's variant 13).
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
