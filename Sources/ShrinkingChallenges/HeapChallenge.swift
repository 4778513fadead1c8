// L03: a heap with a drawn size whose children's keys are drawn relative to their
// parent's, and a flattening that forgets to merge (in the spirit of C10 binheap).
import Exploration

/// A binary tree with the heap property: every key is at least its parent's.
indirect enum Heap: Equatable, Sendable {
    case empty
    case node(Int, Heap, Heap)

    /// Python-style, as CHALLENGES.md §1.6 renders heaps: `(0, (1, None, None), None)`.
    var rendered: String {
        switch self {
        case .empty: "None"
        case .node(let key, let left, let right):
            "(\(key), \(left.rendered), \(right.rendered))"
        }
    }

    var nodeCount: Int {
        switch self {
        case .empty: 0
        case .node(_, let left, let right): 1 + left.nodeCount + right.nodeCount
        }
    }

    var keys: [Int] {
        switch self {
        case .empty: []
        case .node(let key, let left, let right): [key] + left.keys + right.keys
        }
    }

    /// Tier A when this is `(0, (leftKey, None, None), (0, None, None))`, the minimum of both
    /// heap challenges, B for any other tree of 3 nodes, C otherwise.
    func tier(leftKeyOfMinimum leftKey: Int) -> Tier {
        if self == .node(0, .node(leftKey, .empty, .empty), .node(0, .empty, .empty)) {
            return .a
        }
        return nodeCount == 3 ? .b : .c
    }

    /// The planted bug: the root, then each child's list, concatenated instead of merged.
    var wronglySortedKeys: [Int] {
        switch self {
        case .empty: []
        case .node(let key, let left, let right):
            [key] + left.wronglySortedKeys + right.wronglySortedKeys
        }
    }
}

/// A heap of exactly `size` nodes with keys at least `floor`, written with the recursive
/// generator that passes a context down (`Gen.recursive(from:depthMax:base:)`): a node's key is the floor
/// plus a delta in `0...100`, then the left child's size is drawn, then both children are
/// drawn with the key as their floor. Every node's span has one label, so a node can take
/// its ancestor's place.
func heaps(size: Int) -> Gen<Heap> {
    precondition(size >= 0, "a size is not negative")
    return Gen<Heap>.recursive(
        from: (size: size, floor: 0), depthMax: size + 1, base: { _ in .constant(.empty) }
    ) { context, child in
        Gen("heap-node") { testCase in
            guard context.size > 0 else { return .empty }
            let key = context.floor + Gen<Int>.int(in: 0...100).generate(testCase)
            let leftSize =
                context.size == 1 ? 0 : Gen<Int>.int(in: 0...context.size - 1).generate(testCase)
            let left = child((leftSize, key)).generate(testCase)
            let right = child((context.size - 1 - leftSize, key)).generate(testCase)
            return .node(key, left, right)
        }
    }
}

extension ShrinkingChallenge {
    /// L03 `heap`: a size in `0...15` drawn first, then a heap of that many nodes (`heaps`).
    /// **Fails** iff the root-then-children concatenation of keys is not sorted (some key in a
    /// left subtree exceeds one in the right subtree beside it) and some key is at least 50
    /// (the bug shows only past the first page of a listing, say).
    /// **Tier A** `(0, (50, None, None), (0, None, None))`: no heap of 2 nodes or fewer is
    /// unsorted; of 3 nodes only root, left and right with left > right ≥ root are, so the
    /// left key is the largest and must be 50, and the simplest choices put the root and the
    /// right key at 0. **Tier B** any failing heap of 3 nodes. **Why**: a failing subtree under
    /// extra ancestors is reached only by lowering the drawn size and promoting the subtree
    /// together, and a promoted subtree's keys are relative to its new parent, so a promotion
    /// can lose the key of 50 (without the structure passes, about a third of the runs stop at
    /// `(0, (50, (50), (50)), (0))`-like heaps of 5 nodes).
    static let heap = make(
        "heap",
        generator: { Gen<Int>.int(in: 0...15).flatMap { heaps(size: $0) } },
        render: { $0.rendered },
        tier: { $0.tier(leftKeyOfMinimum: 50) },
        property: { heap in
            let keyMax = heap.keys.max() ?? 0
            try check(
                heap.wronglySortedKeys == heap.keys.sorted() || keyMax < 50,
                "the keys come out unsorted, up to \(keyMax)")
        })
}
