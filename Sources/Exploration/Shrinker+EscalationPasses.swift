// Shrink passes that change the case's size in ways the base passes cannot (layer 2): a choice
// lowered together with the span it decides, and runs of list elements deleted at once, their
// length found adaptively. After Hypothesis's `minimize_individual_choices` (its retry that
// lowers a choice and deletes what came after it) and its adaptive deletion of spans
// (`find_integer`; MacIver and Donaldson, ECOOP 2020).

extension Shrinker {
    /// How many spans that start just after a choice `lowerWithDependants` tries to delete
    /// with it (the largest first).
    static let dependantSpanMax = 4
    /// How many neighbouring spans `deleteSpanRuns` deletes at most in one candidate.
    static let spanRunMax = 64

    /// Lowers a choice by one and deletes a span that starts just after it, in one candidate:
    /// the coin or count that drew a sub-value goes down with the sub-value it drew (a tree
    /// node's "has a left child" with that child), which neither lowering the choice (the
    /// choices after it are then read as the sub-value) nor deleting the span (the choice then
    /// reads what follows) does alone.
    func lowerWithDependants() {
        var position = current.values.count - 2
        while position >= 0 && !exhaustedBudget {
            defer { position -= 1 }
            guard position + 1 < current.values.count, current.values[position] > 0 else {
                continue
            }
            let dependants = current.spans.filter { $0.start == position + 1 && $0.count > 0 }
                .sorted { $0.count > $1.count }.prefix(Self.dependantSpanMax)
            for span in dependants {
                var candidate = replacing(span.start..<span.end, with: [])
                candidate[position] -= 1
                if consider(candidate) { break }
            }
        }
    }

    /// Deletes a span with the neighbouring spans of its label and depth that follow it, as
    /// many as still fails: 2, then doubling while that fails, then a binary search between
    /// the last count that failed and the first that did not (`deleteSpans` deletes one), so
    /// that a long tail of list elements goes in a logarithmic number of runs, and elements
    /// that only go together (two halves of a repeated pattern) go at all. Spans are taken in
    /// the order they closed (a list's elements front to back). At most `spanRunMax` spans
    /// in one candidate.
    func deleteSpanRuns() {
        var index = 0
        while index < current.spans.count && !exhaustedBudget {
            defer { index += 1 }
            let first = current.spans[index]
            guard first.count > 0 else { continue }
            var ends = [first.end]
            while ends.count < Self.spanRunMax,
                let next = current.spans.first(where: {
                    $0.start == ends.last! && $0.label == first.label && $0.depth == first.depth
                        && $0.count > 0
                })
            {
                ends.append(next.end)
            }
            guard ends.count >= 2 else { continue }
            let original = current.values
            func deletes(_ count: Int) -> Bool {
                var candidate = original
                candidate.removeSubrange(first.start..<ends[count - 1])
                return consider(candidate)
            }
            guard deletes(2) else { continue }
            var (low, high) = (2, 4)  // `low` spans deleted fail; `high` is not yet known to
            while high <= ends.count, deletes(high) {
                low = high
                high *= 2
            }
            high = min(high, ends.count + 1)
            while high - low > 1 && !exhaustedBudget {
                let middle = (low + high) / 2
                if deletes(middle) { low = middle } else { high = middle }
            }
        }
    }
}
