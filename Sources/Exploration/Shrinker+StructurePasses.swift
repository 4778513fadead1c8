// Shrink passes for structure (layer 2): integers that must move together, value moved onto
// an integer at its simplest, elements of lists drawn at their maximum length, and subtrees
// under a size drawn first. After Hypothesis's `lower_common_block_offset`,
// `redistribute_block_pairs` and `pass_to_descendant` (MacIver and Donaldson, ECOOP 2020).

extension Shrinker {
    /// How many later integers at their simplest value `redistributeOntoZero` tries as a
    /// partner for each integer: the nearest ones, which are most often the same structure's.
    static let zeroPartnerMax = 4
    /// How far after an integer `redistributeOntoZero` looks for those partners, in choices, so
    /// that a pass over a long case stays linear in its length.
    static let zeroPartnerDistanceMax = 64

    /// Moves groups of integers on the same side of their simplest values toward them by one
    /// common amount, so that their differences stay as they are (two event times that must
    /// keep their spacing). The groups are, for each integer range, all its integers above
    /// (then below) the simplest value, and each integer with the next one on the same side.
    /// Each group is first tried with its closest member at its simplest value, then with the
    /// largest common shift that still fails (the search of `lowestFailing`).
    func shiftGroups() {
        for group in shiftGroupCandidates() where !exhaustedBudget {
            shift(group)
        }
    }

    /// Moves an integer's distance from its simplest value onto a later integer of the same
    /// range that is at its simplest value, their sum kept (`redistributePairs` does this only
    /// between two integers away from it): `(a, 0)` becomes `(0, a)`, or failing that, the
    /// largest halving of the amount that still fails, `(a − m, m)`.
    func redistributeOntoZero() {
        var first = 0
        while first < current.values.count && !exhaustedBudget {
            defer { first += 1 }
            guard case .integer(let range) = current.kinds[first], current.values[first] > 0
            else { continue }
            var partners = 0
            var second = first + 1
            while second < min(current.values.count, first + 1 + Self.zeroPartnerDistanceMax)
                && partners < Self.zeroPartnerMax && !exhaustedBudget
            {
                defer { second += 1 }
                guard current.kinds[second] == .integer(range), current.values[second] == 0
                else { continue }
                partners += 1
                let encoding = IntegerEncoding(range)
                let before = current.values[first]
                redistribute(first, encoding, second, encoding)
                if current.values[first] != before { break }
            }
        }
    }

    /// Deletes one element of a list that a plain deletion would misalign: when the list was
    /// drawn at its maximum length (no closing coin follows its last element), the element is
    /// deleted and a stop (0) put where the closing coin goes; when its length was drawn
    /// before it (a bind), the element is deleted and the length lowered by one. A list's
    /// elements are a run of neighbouring spans of one label and depth.
    func deleteElements() {
        var index = current.spans.count - 1
        while index >= 0 && !exhaustedBudget {
            defer { index -= 1 }
            guard index < current.spans.count else { continue }
            let span = current.spans[index]
            let run = siblingRun(of: span)
            let count = current.values.count
            // A stop goes back only after a run of at least two elements: a lone span followed
            // by a choice is more often a value inside an element than a full list.
            if run.count > span.count && run.upperBound < count
                && current.values[run.upperBound] != 0
            {
                var candidate = replacing(span.start..<span.end, with: [])
                candidate.insert(0, at: run.upperBound - span.count)
                if consider(candidate) { continue }
            }
            if run.lowerBound > 0, case .integer(let range) = current.kinds[run.lowerBound - 1],
                range.lowerBound >= 0, current.values[run.lowerBound - 1] > 0
            {
                var candidate = replacing(span.start..<span.end, with: [])
                candidate[run.lowerBound - 1] -= 1
                consider(candidate)
            }
        }
    }

    /// Puts a descendant of a tree node (a span of the same label inside it) in the node's
    /// place when node counts were drawn before the node or its ancestors (a size drawn
    /// first, a left child's size drawn by its parent): every such count is lowered by the
    /// nodes removed, in the same candidate, so the promoted subtree is rebuilt whole rather
    /// than padded with new nodes (which would make the case longer, never simpler).
    func replaceWithDescendantResized() {
        var index = current.spans.count - 1
        while index >= 0 && !exhaustedBudget {
            defer { index -= 1 }
            guard index < current.spans.count else { continue }
            let span = current.spans[index]
            // Descendants close before their ancestor, so they come earlier in `spans`.
            let inside = current.spans[..<index].filter {
                $0.label == span.label && $0.start >= span.start && $0.end <= span.end
                    && $0.count < span.count
            }
            guard !inside.isEmpty else { continue }
            let counts = nodeCountPositions(around: span)
            guard !counts.isEmpty else { continue }
            for descendant in inside.sorted(by: { $0.count < $1.count }) {
                // Nodes of the descendant's subtree, itself included (it is one of `inside`).
                let kept = inside.filter {
                    $0.start >= descendant.start && $0.end <= descendant.end
                }.count
                let removed = UInt64(inside.count + 1 - kept)
                guard counts.allSatisfy({ current.values[$0] >= removed }) else { continue }
                var candidate = replacing(
                    span.start..<span.end,
                    with: Array(current.values[descendant.start..<descendant.end]))
                for position in counts { candidate[position] -= removed }
                if consider(candidate) { break }
            }
        }
    }

    // MARK: - Helpers of the structure passes

    /// The groups `shiftGroups` tries, each a sorted list of positions, in a fixed order.
    func shiftGroupCandidates() -> [[Int]] {
        var byRange: [(range: ClosedRange<Int64>, above: [Int], below: [Int])] = []
        var pairs: [[Int]] = []
        var previous: (position: Int, above: Bool)?
        for position in current.values.indices where current.values[position] != 0 {
            guard case .integer(let range) = current.kinds[position] else { continue }
            let encoding = IntegerEncoding(range)
            let above = encoding.value(at: current.values[position]) > encoding.target
            if !byRange.contains(where: { $0.range == range }) { byRange.append((range, [], [])) }
            let slot = byRange.firstIndex { $0.range == range }!
            if above {
                byRange[slot].above.append(position)
            } else {
                byRange[slot].below.append(position)
            }
            if let previous, previous.above == above {
                pairs.append([previous.position, position])
            }
            previous = (position, above)
        }
        var groups: [[Int]] = []
        var seen: Set<[Int]> = []  // membership only: the order comes from `groups`
        for group in byRange.flatMap({ [$0.above, $0.below] }) + pairs
        where group.count >= 2 && seen.insert(group).inserted {
            groups.append(group)
        }
        return groups
    }

    /// Shifts the integers at `positions` (all on one side of their simplest values) toward
    /// those values by one amount, as far as the value still fails.
    func shift(_ positions: [Int]) {
        guard positions.allSatisfy({ $0 < current.values.count }) else { return }
        var members: [(position: Int, encoding: IntegerEncoding, distance: UInt64)] = []
        var sides: Set<Bool> = []
        for position in positions {
            guard case .integer(let range) = current.kinds[position], current.values[position] > 0
            else { return }
            let encoding = IntegerEncoding(range)
            let value = encoding.value(at: current.values[position])
            sides.insert(value > encoding.target)
            let distance =
                value > encoding.target
                ? UInt64(bitPattern: value &- encoding.target)
                : UInt64(bitPattern: encoding.target &- value)
            members.append((position, encoding, distance))
        }
        guard sides.count == 1, let above = sides.first else { return }
        let closest = members.map(\.distance).min()!
        // `remaining` is the closest member's distance after the shift.
        func candidate(_ remaining: UInt64) -> [UInt64] {
            var values = current.values
            for member in members {
                let distance = Int64(bitPattern: member.distance - (closest - remaining))
                let target = member.encoding.target
                values[member.position] = member.encoding.index(
                    of: above ? target &+ distance : target &- distance)
            }
            return values
        }
        if consider(candidate(0)) { return }
        lowestFailing(below: closest) { candidate($0) }
    }

    /// The run of neighbouring spans of `span`'s label and depth that holds it, as positions.
    func siblingRun(of span: Span) -> Range<Int> {
        let spans = current.spans
        var start = span.start
        var end = span.end
        while let previous = spans.first(where: {
            $0.end == start && $0.label == span.label && $0.depth == span.depth && $0.count > 0
        }) {
            start = previous.start
        }
        while let next = spans.first(where: {
            $0.start == end && $0.label == span.label && $0.depth == span.depth && $0.count > 0
        }) {
            end = next.end
        }
        return start..<end
    }

    /// The positions of the choices that count the nodes of `span` or of an ancestor of the
    /// same label: the choice just before such a span, when it is a count equal to the number
    /// of spans of that label inside the span (itself included).
    func nodeCountPositions(around span: Span) -> [Int] {
        let nodes = current.spans.filter { $0.label == span.label }
        var positions: [Int] = []
        for enclosing in nodes
        where enclosing.start <= span.start && enclosing.end >= span.end && enclosing.start > 0 {
            let position = enclosing.start - 1
            guard isCount(at: position) else { continue }
            let inside = nodes.filter {
                $0.start >= enclosing.start && $0.end <= enclosing.end
            }.count
            if countValue(at: position) == UInt64(inside) { positions.append(position) }
        }
        return positions.sorted()
    }

    /// True when the choice at `position` can be a count: a plain index, or an integer whose
    /// range starts at 0 or above (its index is then its distance from the range's start).
    func isCount(at position: Int) -> Bool {
        switch current.kinds[position] {
        case .index: return true
        case .integer(let range): return range.lowerBound >= 0
        }
    }

    /// The count the choice at `position` stands for (see `isCount`).
    func countValue(at position: Int) -> UInt64 {
        switch current.kinds[position] {
        case .index: return current.values[position]
        case .integer(let range):
            return UInt64(bitPattern: IntegerEncoding(range).value(at: current.values[position]))
        }
    }
}
