// Recording and replaying draws (layer 2): every value a generator builds comes from the
// bounded choices drawn here, in order.

import Simulation

/// One attempt to build a value and test it: the recorder of every choice drawn.
///
/// A test case draws from a prefix first (a recorded sequence being replayed or a shrink
/// candidate), then from its random stream while generating, or 0, the simplest answer, while
/// shrinking. A prefix value above the current bound is taken as 0 (Hypothesis's rule for a
/// misaligned replay), so any edited or truncated sequence still builds a valid value.
///
/// It records each choice with its bound and kind, and the spans of every generator call, for
/// the shrinker. It is the `ChoiceSource` of whatever it drives, the kernel's ordering
/// strategies included, so lifecycle orderings shrink like any other value.
public final class TestCase: ChoiceSource {
    /// Whether the case could be tested.
    public enum Status: Equatable, Sendable {
        /// Every draw succeeded.
        case valid
        /// A filter or an assumption rejected it; it is neither a pass nor a failure.
        case invalid(reason: String)
        /// It needed more than `choiceCountMax` choices; further draws gave 0.
        case overrun
    }

    /// The choices drawn so far, in order.
    public private(set) var values: [UInt64] = []
    /// The bound of each choice (`values[i] <= bounds[i]`).
    public private(set) var bounds: [UInt64] = []
    /// What each choice stands for.
    public private(set) var kinds: [ChoiceKind] = []
    /// The spans of completed generator calls, in the order they closed.
    public private(set) var spans: [Span] = []
    /// Valid, invalid or overrun.
    public private(set) var status: Status = .valid

    private let prefix: [UInt64]
    private var random: Xoshiro256StarStar?
    private let choiceCountMax: Int
    /// One generated integer in this many reuses or nudges an earlier one (0: never).
    private let nearMissOneIn: UInt64
    /// The integers generated so far in each range, as indices, in draw order. Only looked up
    /// by range, never iterated, so hashing order never reaches a value.
    private var integersByRange: [ClosedRange<Int64>: [UInt64]] = [:]
    private var openSpans: [(label: UInt64, start: Int)] = []

    /// One generated integer in this many is a near miss by default (Hypothesis and Exhaust
    /// also reuse earlier values): an earlier integer of the same range, half the time moved by
    /// 1 to 4 either way.
    public static let nearMissOneInDefault: UInt64 = 8

    /// A case that replays `prefix`, then draws from a stream seeded `seed` (generation), or
    /// gives 0 when `seed` is nil (replay and shrinking). While generating, one integer in
    /// `nearMissOneIn` (0: none) is a near miss of an earlier one of the same range; it is
    /// recorded as the value it is, so replay stays exact and shrinking still lowers it.
    public init(
        prefix: [UInt64] = [], seed: UInt64? = nil, choiceCountMax: Int = 10_000,
        nearMissOneIn: UInt64 = TestCase.nearMissOneInDefault
    ) {
        precondition(choiceCountMax >= 1, "a case may draw at least one choice")
        self.prefix = prefix
        self.random = seed.map { Xoshiro256StarStar(seed: $0) }
        self.choiceCountMax = choiceCountMax
        self.nearMissOneIn = nearMissOneIn
    }

    /// True while draws past the prefix come from the random stream.
    public var isGenerating: Bool { random != nil }

    /// Draws a choice in `0...max`; 0 is the simplest answer.
    public func choose(atMost max: UInt64) -> UInt64 {
        draw(atMost: max, kind: .index) { random in
            max == .max ? random.next() : random.nextBounded(below: max &+ 1)
        }
    }

    /// Draws a choice in `0...max` of the given kind; `generate` picks it when past the prefix
    /// in generation (so generators can bias toward simple or boundary values).
    public func draw(
        atMost max: UInt64, kind: ChoiceKind,
        generate: (inout Xoshiro256StarStar) -> UInt64
    ) -> UInt64 {
        guard values.count < choiceCountMax else {
            status = .overrun
            return 0
        }
        let position = values.count
        var value: UInt64
        if position < prefix.count {
            value = prefix[position] <= max ? prefix[position] : 0
        } else if random != nil {
            value = nearMiss(kind, &random!) ?? generate(&random!)
            precondition(value <= max, "a generated choice lies within its bound")
        } else {
            value = 0
        }
        values.append(value)
        bounds.append(max)
        kinds.append(kind)
        if random != nil, nearMissOneIn > 0, case .integer(let range) = kind {
            integersByRange[range, default: []].append(value)
        }
        return value
    }

    /// With chance 1 / `nearMissOneIn`, when an integer of `kind`'s range was generated
    /// before: one of those, or it moved by 1 to 4 either way (kept in the range); else nil.
    /// Draws from the stream only when there is an earlier integer to reuse.
    private func nearMiss(_ kind: ChoiceKind, _ random: inout Xoshiro256StarStar) -> UInt64? {
        guard nearMissOneIn > 0, case .integer(let range) = kind,
            let earlier = integersByRange[range], !earlier.isEmpty,
            random.nextBounded(below: nearMissOneIn) == 0
        else { return nil }
        let reused = earlier[Int(random.nextBounded(below: UInt64(earlier.count)))]
        let roll = random.nextBounded(below: 16)
        guard roll >= 8 else { return reused }
        let encoding = IntegerEncoding(range)
        let step = Int64(roll % 4) + 1
        let value = encoding.value(at: reused)
        let (moved, overflow) =
            roll < 12
            ? value.addingReportingOverflow(step) : value.subtractingReportingOverflow(step)
        return !overflow && range.contains(moved) ? encoding.index(of: moved) : reused
    }

    /// Marks the case invalid (a filter or an assumption rejected it).
    public func reject(_ reason: String) {
        if status == .valid { status = .invalid(reason: reason) }
    }

    /// Opens a span for a generator call labelled `label`.
    public func startSpan(_ label: UInt64) {
        openSpans.append((label, values.count))
    }

    /// Opens a span labelled `label` and draws whether a repetition (a list's next element, a
    /// state machine's next step) goes on: 1 goes on, 0 stops (the simpler), and generation
    /// stops with probability 1 / `stopOneIn`. On stop the span is closed unrecorded and the
    /// answer is false; otherwise the caller draws the element and calls `endSpan()`, so that
    /// the coin and the element form one span that deleting removes whole.
    public func beginRepetition(_ label: UInt64, stopOneIn: UInt64) -> Bool {
        precondition(stopOneIn >= 1, "a stop chance of one in at least one")
        startSpan(label)
        let goesOn =
            draw(atMost: 1, kind: .index) { $0.nextBounded(below: stopOneIn) == 0 ? 0 : 1 } == 1
        if !goesOn { discardSpan() }
        return goesOn
    }

    /// Closes the innermost open span without recording it (a draw that is not a sub-value,
    /// such as a list's closing coin).
    public func discardSpan() {
        openSpans.removeLast()
    }

    /// Closes the innermost open span.
    public func endSpan() {
        let open = openSpans.removeLast()
        if values.count > open.start {
            spans.append(
                Span(
                    label: open.label, start: open.start, end: values.count, depth: openSpans.count)
            )
        }
    }
}
