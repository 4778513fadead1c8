// Mutations of a kept case (layer 5): the guided search's edits of a choice sequence, each
// meaningful for the scenario generator's spans (an event, a route segment, the ordering).
import Exploration
import Simulation

/// A case the guided search keeps: its choices as recorded, with their bounds, kinds and
/// spans, so that a mutation can pick a whole sub-value (an event, a segment) and draw fresh
/// choices within their bounds.
public struct PooledCase: Sendable, Equatable {
    public var values: [UInt64]
    // invariant: bounds.count == values.count == kinds.count; values[i] <= bounds[i]
    package var bounds: [UInt64]
    package var kinds: [ChoiceKind]
    package var spans: [Span]
    /// What running the case cost: its deliveries (0 when not run, as for a mutant's parent).
    public var deliveries: Int

    /// The choices `testCase` recorded (after generating from it), and the deliveries its run
    /// cost.
    package init(_ testCase: TestCase, deliveries: Int = 0) {
        values = testCase.values
        bounds = testCase.bounds
        kinds = testCase.kinds
        spans = testCase.spans
        self.deliveries = deliveries
    }
}

/// One edit of a choice sequence. Replayed through the generator (`TestCase(prefix:)`), any
/// edit builds a valid scenario: a value above its bound becomes 0, a missing one is drawn.
///
/// The scenario generator draws an event as one span (minute, second, kind), a route segment
/// as one span, the ordering (strategy and seed) as one span, and each list element as a span
/// with its repetition coin; so:
///
/// - `redrawSpan` draws one sub-value afresh (a new event in an old one's place, another
///   same-instant ordering);
/// - `splice` puts in a sub-value of the same generator from another kept case (its event,
///   its segment), or, when there is none, that case's choices from a cut point on;
/// - `nudgeInteger` moves one integer by a little (an event shifted in time, a segment a few
///   minutes longer);
/// - `redrawChoice` draws one choice afresh (an event's kind, a coin, an ordering decision);
/// - `duplicateSpan` repeats a sub-value in place (inserts an event or a segment);
/// - `deleteSpan` removes one (an event, a segment);
/// - `insertSpan` puts a new sub-value after one, drawn afresh but for its first choice (a
///   list element's go-on coin, so the list goes on; an event's minute, so the new event
///   comes in the same minute as the old one).
package enum ChoiceMutation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case redrawSpan, splice, nudgeInteger, redrawChoice, duplicateSpan, deleteSpan, insertSpan

    package var description: String {
        switch self {
        case .redrawSpan: "redraw span"
        case .splice: "splice"
        case .nudgeInteger: "nudge integer"
        case .redrawChoice: "redraw choice"
        case .duplicateSpan: "duplicate span"
        case .deleteSpan: "delete span"
        case .insertSpan: "insert span"
        }
    }

    /// One edit in this many is not `redrawChoice`. The smallest edit keeps what made its
    /// parent rare and changes one thing around it; measured against the span edits drawn
    /// uniformly, it reached far more new states per case (docs/guided-search.md).
    /// The others still come up, for the larger moves.
    static let otherMutationOneIn: UInt64 = 4

    /// An edit to make: `redrawChoice`, but one time in `otherMutationOneIn` any other one,
    /// uniformly.
    static func pick(_ random: inout Xoshiro256StarStar) -> ChoiceMutation {
        guard random.nextBounded(below: otherMutationOneIn) == 0 else { return .redrawChoice }
        let others = allCases.filter { $0 != .redrawChoice }
        return others[Int(random.nextBounded(below: UInt64(others.count)))]
    }

    /// The farthest a nudge moves an integer, either way.
    static let nudgeStepMax: Int64 = 5

    /// `parent`'s choices with this edit applied, drawing from `random`; `donor` is another
    /// kept case (for `splice`). The result may equal `parent.values` when there was nothing
    /// to change (no integer to nudge, say): the caller tries again.
    package func apply(
        to parent: PooledCase, donor: PooledCase, random: inout Xoshiro256StarStar
    ) -> [UInt64] {
        var values = parent.values
        guard !values.isEmpty else { return values }
        let span = Self.pickSpan(parent, &random)
        switch self {
        case .redrawSpan:
            for position in span.start..<span.end {
                values[position] = Self.fresh(parent.bounds[position], &random)
            }
        case .splice:
            let matching = donor.spans.filter { $0.label == span.label && span.label != nil }
            if !matching.isEmpty {
                let source = matching[Int(random.nextBounded(below: UInt64(matching.count)))]
                values.replaceSubrange(
                    span.start..<span.end, with: donor.values[source.start..<source.end])
            } else {
                let cut = Int(random.nextBounded(below: UInt64(values.count)))
                values = Array(values[..<cut]) + donor.values.dropFirst(cut)
            }
        case .nudgeInteger:
            let integers = parent.kinds.indices.filter {
                if case .integer = parent.kinds[$0] { true } else { false }
            }
            guard !integers.isEmpty else { return values }
            let position = integers[Int(random.nextBounded(below: UInt64(integers.count)))]
            guard case .integer(let range) = parent.kinds[position] else { return values }
            values[position] = Self.nudged(values[position], in: range, &random)
        case .redrawChoice:
            let open = values.indices.filter { parent.bounds[$0] > 0 }
            guard !open.isEmpty else { return values }
            let position = open[Int(random.nextBounded(below: UInt64(open.count)))]
            values[position] = Self.other(values[position], parent.bounds[position], &random)
        case .duplicateSpan:
            values.insert(contentsOf: parent.values[span.start..<span.end], at: span.end)
        case .deleteSpan:
            values.removeSubrange(span.start..<span.end)
        case .insertSpan:
            var inserted = Array(parent.values[span.start..<span.end])
            for offset in inserted.indices.dropFirst() {
                inserted[offset] = Self.fresh(parent.bounds[span.start + offset], &random)
            }
            values.insert(contentsOf: inserted, at: span.end)
        }
        return values
    }

    // MARK: - Internals

    /// A span of `parent`, an inner one (an event, a segment: depth 1 or more) when there is
    /// one, half the time; the whole sequence when it has no span.
    static func pickSpan(_ parent: PooledCase, _ random: inout Xoshiro256StarStar)
        -> (label: UInt64?, start: Int, end: Int)
    {
        guard !parent.spans.isEmpty else { return (nil, 0, parent.values.count) }
        let inner = parent.spans.filter { $0.depth >= 1 }
        let candidates = !inner.isEmpty && random.nextBounded(below: 2) == 0 ? inner : parent.spans
        let span = candidates[Int(random.nextBounded(below: UInt64(candidates.count)))]
        return (span.label, span.start, span.end)
    }

    /// A choice drawn uniformly in `0...bound`.
    static func fresh(_ bound: UInt64, _ random: inout Xoshiro256StarStar) -> UInt64 {
        bound == .max ? random.next() : random.nextBounded(below: bound + 1)
    }

    /// A choice in `0...bound` other than `value` (`bound` > 0), uniformly.
    static func other(_ value: UInt64, _ bound: UInt64, _ random: inout Xoshiro256StarStar)
        -> UInt64
    {
        precondition(bound > 0, "a choice with another value")
        let step = bound == .max ? random.next() | 1 : random.nextBounded(below: bound) + 1
        let (sum, overflow) = value.addingReportingOverflow(step)
        return overflow || sum > bound ? sum &- bound &- 1 : sum
    }

    /// The index of the integer at `index` moved by 1 to `nudgeStepMax` either way, kept in
    /// `range`.
    static func nudged(
        _ index: UInt64, in range: ClosedRange<Int64>, _ random: inout Xoshiro256StarStar
    ) -> UInt64 {
        let encoding = IntegerEncoding(range)
        guard index <= encoding.maxIndex else { return index }
        let step = Int64(random.nextBounded(below: UInt64(nudgeStepMax))) + 1
        let value = encoding.value(at: index)
        let (moved, overflow) =
            random.nextBounded(below: 2) == 0
            ? value.addingReportingOverflow(step) : value.subtractingReportingOverflow(step)
        let clamped = overflow ? value : min(max(moved, range.lowerBound), range.upperBound)
        return encoding.index(of: clamped)
    }
}
