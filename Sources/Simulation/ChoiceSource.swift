// The one interface for nondeterministic decisions (layer 1). Every decision a run makes that
// is not fixed by its inputs (which of two simultaneous events goes first, for one) is drawn
// here, so that it can be recorded, replayed exactly, and shrunk toward 0.

/// Where a run draws its decisions from: one primitive, a bounded integer.
///
/// The convention every caller follows: 0 is the quietest answer (no fault, the shortest delay,
/// the first-scheduled event), so a shrinker that lowers recorded choices toward 0 simplifies
/// the run. Three sources ship with the kernel: `SeededChoices` (random), `ReplayedChoices`
/// (a recorded list), and `RecordingChoices` (records what another source answered). The
/// exploration engine's recorder conforms too.
///
/// A source is a reference type: the run and the code that reads the record afterwards share it.
public protocol ChoiceSource: AnyObject {
    /// A choice in `0...max`; 0 is the simplest answer.
    func choose(atMost max: UInt64) -> UInt64
}

/// Uniform choices from a seeded xoshiro256** stream.
public final class SeededChoices: ChoiceSource {
    private var random: Xoshiro256StarStar

    public init(seed: UInt64) { random = Xoshiro256StarStar(seed: seed) }

    public func choose(atMost max: UInt64) -> UInt64 {
        max == UInt64.max ? random.next() : random.nextBounded(below: max + 1)
    }
}

/// Replays a recorded list of choices. A value past the end of the list is 0, and a recorded
/// value above the current bound becomes 0 too (Hypothesis's rule for a misaligned replay), so
/// an edited or truncated list still drives a valid run.
public final class ReplayedChoices: ChoiceSource {
    /// The choices to give, in order.
    public let values: [UInt64]
    /// How many choices have been asked for so far.
    public private(set) var position = 0

    public init(_ values: [UInt64]) { self.values = values }

    public func choose(atMost max: UInt64) -> UInt64 {
        defer { position += 1 }
        guard position < values.count else { return 0 }
        let value = values[position]
        return value <= max ? value : 0
    }
}

/// Records every choice another source gives, with its bound, so a run can be replayed from
/// `values` (with `ReplayedChoices`) and its decisions inspected.
public final class RecordingChoices: ChoiceSource {
    /// The choices given so far, in order.
    public private(set) var values: [UInt64] = []
    /// The bound each choice was drawn under (`values[i] <= bounds[i]`).
    public private(set) var bounds: [UInt64] = []
    private let source: any ChoiceSource

    public init(recording source: any ChoiceSource) { self.source = source }

    public func choose(atMost max: UInt64) -> UInt64 {
        let value = source.choose(atMost: max)
        precondition(value <= max, "a choice source answered above its bound")
        values.append(value)
        bounds.append(max)
        return value
    }
}
