// Independent sub-streams from one seed (layer 1): each component derives its own seed by name.

/// A seed that names one random stream, and derives the seeds of independent sub-streams.
///
/// A child seed depends only on its parent and its label, never on how many draws another
/// stream made, so adding a component (or an extra draw in one) leaves every other stream as
/// it was. That is the property TigerBeetle's VOPR gets by drawing a seed per subsystem.
///
///     let root = Seed(42)
///     var noise = Xoshiro256StarStar(seed: root.derive("device.noise"))
///     var daemon = Xoshiro256StarStar(seed: root.derive("daemon"))
public struct Seed: Hashable, Sendable, CustomStringConvertible {
    /// The 64-bit seed value.
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    /// The seed of the sub-stream named `label`: a stable hash of the label (FNV-1a over its
    /// UTF-8 bytes, the same in every process) mixed with this seed by SplitMix64.
    public func derive(_ label: String) -> Seed {
        var hash = FNV1a64()
        hash.combine(label)
        return derive(hash.value)
    }

    /// The seed of the sub-stream numbered `index`.
    public func derive(_ index: UInt64) -> Seed {
        Seed(SplitMix64.mix(SplitMix64.mix(value ^ 0x6A09_E667_F3BC_C908) &+ index))
    }

    public var description: String { String(value) }
}

/// The 64-bit FNV-1a hash (Fowler, Noll, Vo): stable across processes and platforms, unlike
/// Swift's `Hasher`, which is seeded per process. Used for trace hashes and seed labels.
public struct FNV1a64: Sendable {
    /// The hash of everything combined so far.
    @inlinable public var value: UInt64 { state }

    // Inlinable (with its state) so that hashing a short string or a word in another module
    // is a loop in the caller, not a call per byte.
    @usableFromInline var state: UInt64 = 0xCBF2_9CE4_8422_2325

    @inlinable public init() {}

    /// Folds in one byte.
    @inlinable
    public mutating func combine(byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Folds in the UTF-8 bytes of `text`.
    @inlinable
    public mutating func combine(_ text: String) {
        // The same bytes as `text.utf8`, read from contiguous storage.
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes { combine(byte: byte) }
        }
    }

    /// Folds in the eight little-endian bytes of `word`.
    @inlinable
    public mutating func combine(word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            combine(byte: UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
    }
}
