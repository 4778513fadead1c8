// The shrinker (layer 2): edits a failing choice sequence toward the simplest one that still
// fails. It works on the sequence alone, so every generator shrinks without custom code.
import Simulation

/// Reduces a failing choice sequence to a simpler failing one (shorter, then lexicographically
/// smaller), by passes that edit the sequence, repeated until a whole round changes nothing or
/// the evaluation budget runs out. Deterministic: the same start gives the same result.
///
/// The passes, in the order they run (after Hypothesis's shrinker, MacIver and Donaldson,
/// ECOOP 2020):
/// - `deleteSpans`: drop one generator call's choices (an element, a subtree, a command);
/// - `deleteChunks`: drop 4, 2 or 1 consecutive choices, and also lower the choice before them
///   by one (keeps a length-prefixed list aligned); merges adjacent lists too;
/// - `zeroSpans`: set one span's choices to 0;
/// - `replaceWithDescendant`: put a span's descendant of the same label in its place (a tree
///   node by one of its subtrees);
/// - `lowerChoices`: lower one choice, trying 0, then binary search;
/// - `lowerDuplicates`: lower equal choices together (values that must stay equal);
/// - `redistributePairs`: move an integer's distance to its simplest value onto another
///   integer, keeping their sum (values that must be shrunk jointly);
/// - `sortSiblingSpans`: put a run of neighbouring spans of the same label (a list's
///   elements) in sorted order, in one candidate;
/// - `swapAdjacentSpans`: swap neighbouring spans of the same label when that sorts them;
/// - `shiftGroups`: move integers on one side of their simplest values by one common amount
///   (values that must keep their differences);
/// - `redistributeOntoZero`: `redistributePairs` onto a later integer at its simplest value;
/// - `deleteElements`: delete a list's element and put back the stop a full list lacks, or
///   lower the length drawn before the list;
/// - `replaceWithDescendantResized`: `replaceWithDescendant` for a node whose node count was
///   drawn just before it, lowering that count in the same candidate.
public final class Shrinker {
    /// What running a candidate gave.
    public enum Verdict {
        /// The value is valid and the property fails on it.
        case failed(TestCase)
        /// The value is valid and the property holds.
        case passed
        /// The value was rejected before the property ran (a filter, an assumption, an overrun).
        case invalid
    }

    /// Runs the property on the value a candidate sequence builds.
    public typealias Evaluate = ([UInt64]) -> Verdict

    /// The simplest failing case found so far.
    public private(set) var current: TestCase
    /// Property evaluations made (cache hits and cases rejected before the property are not).
    public private(set) var evaluationCount = 0
    /// Candidates run, rejected ones included.
    public private(set) var candidateCount = 0
    /// Candidates accepted.
    public private(set) var acceptedCount = 0
    /// Candidates accepted and property evaluations spent per pass, in pass order.
    public private(set) var passStatistics: [ShrinkPassStatistics] = []
    /// True when the evaluation budget ran out before a fixed point.
    public private(set) var exhaustedBudget = false

    private let evaluate: Evaluate
    private let evaluationMax: Int
    /// The wall-clock instant to stop at, if any.
    private let deadline: Double?
    /// Candidates rejected before the property are cheap but not free: at most this many runs.
    private var candidateMax: Int { evaluationMax * 10 }
    private var tried: Set<ArraySlice<UInt64>> = []

    /// Starts from the failing case `failing`; stops after `evaluationMax` evaluations, or
    /// after `secondsMax` of wall-clock time when given (which makes the result depend on the
    /// machine; leave it nil where results must be reproducible).
    public init(
        failing: TestCase, evaluationMax: Int, secondsMax: Double? = nil,
        evaluate: @escaping Evaluate
    ) {
        precondition(evaluationMax >= 0, "an evaluation budget is not negative")
        precondition(secondsMax.map { $0 >= 0 } ?? true, "a time budget is not negative")
        current = failing
        self.evaluationMax = evaluationMax
        self.deadline = secondsMax.map { WallClock.seconds() + $0 }
        self.evaluate = evaluate
    }

    /// Runs the passes to a fixed point (or to the end of the budget): rounds of the base
    /// passes while one changes something; when a round changes nothing, one round of the
    /// escalation passes, and back to the base passes if that changed something. The
    /// escalation passes try many pairs of choices or spans, so they run only where the
    /// cheaper passes are stuck: a shrink they cannot improve costs one round of them more.
    public func shrink() {
        let (base, escalation) = (basePasses, escalationPasses)
        passStatistics = (base + escalation).map { ShrinkPassStatistics(pass: $0.name) }
        while !exhaustedBudget {
            if runRound(base, statisticsOffset: 0) { continue }
            if exhaustedBudget || !runRound(escalation, statisticsOffset: base.count) { break }
        }
    }

    /// A named pass.
    typealias Pass = (name: String, run: () -> Void)

    /// The passes that run in every round, in order.
    var basePasses: [Pass] {
        [
            ("deleteSpans", deleteSpans), ("deleteChunks", deleteChunks), ("zeroSpans", zeroSpans),
            ("replaceWithDescendant", replaceWithDescendant), ("shiftGroups", shiftGroups),
            ("lowerChoices", lowerChoices),
            ("lowerDuplicates", lowerDuplicates), ("redistributePairs", redistributePairs),
            ("sortSiblingSpans", sortSiblingSpans), ("swapAdjacentSpans", swapAdjacentSpans),
            ("redistributeOntoZero", redistributeOntoZero),
            ("deleteElements", deleteElements),
            ("replaceWithDescendantResized", replaceWithDescendantResized),
        ]
    }

    /// The passes that run only after a round of `basePasses` changed nothing, in order.
    var escalationPasses: [Pass] {
        [
            ("deleteSpanRuns", deleteSpanRuns), ("deleteSpanPairs", deleteSpanPairs),
            ("lowerWithDependants", lowerWithDependants), ("shiftPairs", shiftPairs),
            ("swapValueGroups", swapValueGroups), ("lowerHighBits", lowerHighBits),
        ]
    }

    /// Runs `passes` once each, in order, counting into `passStatistics` from
    /// `statisticsOffset`; true when one of them had a candidate accepted.
    private func runRound(_ passes: [Pass], statisticsOffset: Int) -> Bool {
        var improved = false
        for (offset, pass) in passes.enumerated() {
            let (acceptedBefore, evaluationsBefore) = (acceptedCount, evaluationCount)
            pass.run()
            passStatistics[statisticsOffset + offset].accepted += acceptedCount - acceptedBefore
            passStatistics[statisticsOffset + offset].evaluations +=
                evaluationCount - evaluationsBefore
            if acceptedCount > acceptedBefore { improved = true }
            if exhaustedBudget { break }
        }
        return improved
    }

    // MARK: - Trying candidates

    /// Tries a candidate: accepted (and made current) when it is simpler than the current
    /// sequence and its value still fails.
    @discardableResult
    func consider(_ candidate: [UInt64]) -> Bool {
        guard isSimpler(candidate, than: current.values), !exhaustedBudget else { return false }
        // Draws past the end are 0, so trailing zeros never change the case a candidate builds:
        // a candidate equal to the current case up to them is the current case.
        let key = withoutTrailingZeros(candidate)
        guard key != withoutTrailingZeros(current.values), tried.insert(key).inserted else {
            return false
        }
        if evaluationCount >= evaluationMax || candidateCount >= candidateMax
            || deadline.map({ WallClock.seconds() > $0 }) == true
        {
            exhaustedBudget = true
            return false
        }
        candidateCount += 1
        switch evaluate(candidate) {
        case .invalid:
            return false
        case .passed:
            evaluationCount += 1
            return false
        case .failed(let result):
            evaluationCount += 1
            tried.insert(withoutTrailingZeros(result.values))
            guard isSimpler(result.values, than: current.values) else { return false }
            current = result
            acceptedCount += 1
            return true
        }
    }

    /// `values` without its trailing zeros: the key under which a candidate is remembered.
    func withoutTrailingZeros(_ values: [UInt64]) -> ArraySlice<UInt64> {
        values[..<(values.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0)]
    }

    /// `values` with `replacement` in place of `range`.
    func replacing(_ range: Range<Int>, with replacement: some Collection<UInt64>) -> [UInt64] {
        var values = current.values
        values.replaceSubrange(range, with: replacement)
        return values
    }

    // MARK: - Passes

    func deleteSpans() {
        var index = current.spans.count - 1
        while index >= 0 && !exhaustedBudget {
            let spans = current.spans
            if index < spans.count {
                let span = spans[index]
                consider(replacing(span.start..<span.end, with: []))
            }
            index -= 1
        }
    }

    func deleteChunks() {
        for size in [4, 2, 1] {
            var start = current.values.count - size
            while start >= 0 && !exhaustedBudget {
                if start + size <= current.values.count {
                    var candidate = replacing(start..<start + size, with: [])
                    if !consider(candidate), start > 0, candidate[start - 1] > 0 {
                        candidate[start - 1] -= 1
                        consider(candidate)
                    }
                }
                start -= 1
            }
        }
    }

    func zeroSpans() {
        var index = current.spans.count - 1
        while index >= 0 && !exhaustedBudget {
            if index < current.spans.count {
                let span = current.spans[index]
                if current.values[span.start..<span.end].contains(where: { $0 != 0 }) {
                    consider(
                        replacing(span.start..<span.end, with: repeatElement(0, count: span.count)))
                }
            }
            index -= 1
        }
    }

    func replaceWithDescendant() {
        var index = current.spans.count - 1
        while index >= 0 && !exhaustedBudget {
            defer { index -= 1 }
            guard index < current.spans.count else { continue }
            let span = current.spans[index]
            // Descendants close before their ancestor, so they come earlier in `spans`.
            let descendants = current.spans[..<index].filter {
                $0.label == span.label && $0.start >= span.start && $0.end <= span.end
                    && $0.count < span.count
            }
            for descendant in descendants.sorted(by: { $0.count < $1.count }) {
                let inner = Array(current.values[descendant.start..<descendant.end])
                if consider(replacing(span.start..<span.end, with: inner)) { break }
            }
        }
    }

    func lowerChoices() {
        var index = 0
        while index < current.values.count && !exhaustedBudget {
            lower(positions: [index])
            index += 1
        }
    }

    func lowerDuplicates() {
        // Equal integers of the same range, and equal large indices, are lowered together.
        var groups: [ChoiceKind: [UInt64: [Int]]] = [:]
        for (position, value) in current.values.enumerated() {
            let kind = current.kinds[position]
            if case .index = kind, value <= 1 { continue }
            if value == 0 { continue }
            groups[kind, default: [:]][value, default: []].append(position)
        }
        // Positions sorted: the order of a dictionary must never reach a result.
        let ordered = groups.values.flatMap { $0.values }.filter { $0.count >= 2 }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
        for positions in ordered where !exhaustedBudget {
            guard positions.allSatisfy({ $0 < current.values.count }),
                Set(positions.map { current.values[$0] }).count == 1
            else { continue }
            lower(positions: positions)
        }
    }

    /// Lowers the choices at `positions` (all equal, of one kind) together. An index is tried
    /// at 0, then binary searched; an integer keeps its sign while its magnitude is binary
    /// searched toward the simplest value, and is tried with the sign flipped.
    func lower(positions: [Int]) {
        let value = current.values[positions[0]]
        guard value > 0 else { return }
        func candidate(_ lowered: UInt64) -> [UInt64] {
            var values = current.values
            for position in positions { values[position] = lowered }
            return values
        }
        if consider(candidate(0)) { return }
        if case .integer(let range) = current.kinds[positions[0]] {
            lowerMagnitude(
                positions: positions, encoding: IntegerEncoding(range), candidate: candidate)
            return
        }
        lowestFailing(below: value) { candidate($0) }
    }

    /// Accepts the lowest `n` in `1..<bound` whose candidate still fails, where `bound` fails
    /// (it is current) and 0 was tried. Tries `bound − 1`, then probes 1, 2, 4, … upward and
    /// bisects the last gap,
    /// so the cost grows with the answer's size, not the start's: a value that shrinks to 1
    /// costs two evaluations whatever it started at. `candidate` gives nil for an `n` that
    /// cannot be built.
    func lowestFailing(below bound: UInt64, _ candidate: (UInt64) -> [UInt64]?) {
        // One less first: when even that passes, the value is (locally) minimal; one evaluation.
        guard bound > 1, let oneLess = candidate(bound - 1), consider(oneLess) else { return }
        var low: UInt64 = 0  // invariant: does not fail (or was not buildable)
        var high = bound - 1  // invariant: fails
        var probe: UInt64 = 1
        while probe < high && !exhaustedBudget {
            if let values = candidate(probe), consider(values) {
                high = probe
                break
            }
            low = probe
            if probe > UInt64.max / 2 { break }
            probe *= 2
        }
        while high - low > 1 && !exhaustedBudget {
            let middle = low + (high - low) / 2
            if let values = candidate(middle), consider(values) {
                high = middle
            } else {
                low = middle
            }
        }
    }

    /// Lowers an integer's distance from its simplest value, keeping its side; a value below
    /// the simplest one is first tried at the same distance above (positive before negative).
    func lowerMagnitude(
        positions: [Int], encoding: IntegerEncoding, candidate make: (UInt64) -> [UInt64]
    ) {
        let start = encoding.value(at: current.values[positions[0]])
        let above = start > encoding.target
        let magnitude =
            above
            ? UInt64(bitPattern: start &- encoding.target)
            : UInt64(bitPattern: encoding.target &- start)
        func index(_ distance: UInt64) -> UInt64? {
            let value =
                above
                ? encoding.target &+ Int64(bitPattern: distance)
                : encoding.target &- Int64(bitPattern: distance)
            return encoding.range.contains(value) ? encoding.index(of: value) : nil
        }
        if !above {
            let (flipped, overflow) = encoding.target.addingReportingOverflow(
                Int64(bitPattern: magnitude))
            if !overflow, encoding.range.contains(flipped),
                consider(make(encoding.index(of: flipped)))
            {
                // Now above the simplest value: go on lowering from there.
                return lowerMagnitude(positions: positions, encoding: encoding, candidate: make)
            }
        }
        guard magnitude > 1 else { return }
        lowestFailing(below: magnitude) { distance in index(distance).map(make) }
    }

    func redistributePairs() {
        var first = 0
        while first < current.values.count && !exhaustedBudget {
            defer { first += 1 }
            guard case .integer(let firstRange) = current.kinds[first], current.values[first] > 0
            else { continue }
            var second = first + 1
            while second < current.values.count && !exhaustedBudget {
                defer { second += 1 }
                guard first < current.values.count, current.values[first] > 0,
                    case .integer(let secondRange) = current.kinds[second],
                    current.values[second] > 0
                else { continue }
                redistribute(
                    first, IntegerEncoding(firstRange), second, IntegerEncoding(secondRange))
            }
        }
    }

    /// Moves the first integer toward its simplest value by as much as possible, the second by
    /// the opposite amount (their sum unchanged), while the value still fails.
    func redistribute(
        _ first: Int, _ firstEncoding: IntegerEncoding, _ second: Int,
        _ secondEncoding: IntegerEncoding
    ) {
        let a = firstEncoding.value(at: current.values[first])
        let b = secondEncoding.value(at: current.values[second])
        let direction: Int64 = a > firstEncoding.target ? -1 : 1
        let distance =
            a > firstEncoding.target ? a &- firstEncoding.target : firstEncoding.target &- a
        guard distance > 0 else { return }
        func candidate(_ amount: Int64) -> [UInt64]? {
            let newA = a &+ direction &* amount
            // Out of range, the second value wraps around its range: the sum is then kept
            // modulo the range's size, which is what code with wrapping arithmetic sees.
            let newB = wrapped(b &- direction &* amount, into: secondEncoding.range)
            var values = current.values
            values[first] = firstEncoding.index(of: newA)
            values[second] = secondEncoding.index(of: newB)
            return values
        }
        if let whole = candidate(distance), consider(whole) { return }
        // Halve the amount until a move is accepted, then start again from the new pair.
        var amount = distance / 2
        while amount >= 1 && !exhaustedBudget {
            if let values = candidate(amount), consider(values) {
                return redistribute(first, firstEncoding, second, secondEncoding)
            }
            amount /= 2
        }
    }

    /// `value` brought into `range` modulo the range's size (exact arithmetic on 64 bits).
    func wrapped(_ value: Int64, into range: ClosedRange<Int64>) -> Int64 {
        if range.contains(value) { return value }
        let size = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if size == 0 { return value }
        let offset = UInt64(bitPattern: value &- range.lowerBound) % size
        return range.lowerBound &+ Int64(bitPattern: offset)
    }

    func sortSiblingSpans() {
        var index = 0
        while index < current.spans.count && !exhaustedBudget {
            defer { index += 1 }
            let spans = current.spans
            var run = [spans[index]]
            while let next = spans.first(where: {
                $0.start == run.last!.end && $0.label == run[0].label && $0.depth == run[0].depth
                    && $0.count > 0
            }) {
                run.append(next)
            }
            guard run.count >= 3 else { continue }
            let pieces = run.map { Array(current.values[$0.start..<$0.end]) }
            let sorted = pieces.sorted { isSimpler($0, than: $1) }
            guard sorted != pieces else { continue }
            consider(replacing(run[0].start..<run.last!.end, with: sorted.flatMap { $0 }))
        }
    }

    func swapAdjacentSpans() {
        var index = 0
        while index < current.spans.count && !exhaustedBudget {
            defer { index += 1 }
            let spans = current.spans
            let span = spans[index]
            guard
                let next = spans.first(where: {
                    $0.start == span.end && $0.label == span.label && $0.depth == span.depth
                })
            else { continue }
            let left = current.values[span.start..<span.end]
            let right = current.values[next.start..<next.end]
            guard right.lexicographicallyPrecedes(left) else { continue }
            consider(replacing(span.start..<next.end, with: Array(right) + Array(left)))
        }
    }
}

/// What one shrink pass did over a whole shrink: candidates it got accepted and the property
/// evaluations it spent.
public struct ShrinkPassStatistics: Hashable, Sendable {
    /// The pass's name (its method's name).
    public var pass: String
    public var accepted = 0
    public var evaluations = 0

    public init(pass: String, accepted: Int = 0, evaluations: Int = 0) {
        self.pass = pass
        self.accepted = accepted
        self.evaluations = evaluations
    }
}
