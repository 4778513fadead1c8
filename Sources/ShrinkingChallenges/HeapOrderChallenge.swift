// N11: a heap-ordered tree whose keys are absolute (each drawn between its parent's key and
// 1000), and a merge that always takes the left child first.
import Exploration

/// Heap-ordered trees with absolute keys: each node's key in `floor...1000` (the root's floor
/// is 0, a child's is its parent's key), then a coin for the left child and one for the right.
/// A node's span has one label at every level, so a subtree can take its ancestor's place.
func heapOrderedTrees(depthMax: Int) -> Gen<Heap> {
    Gen<Heap>.recursive(from: 0, depthMax: depthMax, base: { _ in .constant(.empty) }) {
        floor, child in
        Gen("heap-order-node") { testCase in
            let key = Gen<Int>.int(in: floor...1000).generate(testCase)
            let left = Gen<Bool>.bool.generate(testCase) ? child(key).generate(testCase) : .empty
            let right = Gen<Bool>.bool.generate(testCase) ? child(key).generate(testCase) : .empty
            return .node(key, left, right)
        }
    }
}

extension Heap {
    /// A node whose left child's key exceeds its right child's by more than `margin`: where a
    /// merge that always takes the left child first puts keys out of order by more than it.
    func hasLeftHeavyNode(margin: Int) -> Bool {
        guard case .node(_, let left, let right) = self else { return false }
        if case .node(let leftKey, _, _) = left, case .node(let rightKey, _, _) = right,
            leftKey > rightKey + margin
        {
            return true
        }
        return left.hasLeftHeavyNode(margin: margin) || right.hasLeftHeavyNode(margin: margin)
    }
}

extension ShrinkingChallenge {
    /// N11 `heaporder`: a heap-ordered tree of depth at most 6 (`heapOrderedTrees`). **Fails**
    /// iff some node's left child's key exceeds its right child's by more than 10.
    /// **Tier A** `(0, (11, None, None), (0, None, None))`: the failing node needs both
    /// children, so three nodes; the root's key is 0 at best, the right child's then 0 and the
    /// left one's 11. **Tier B** any failing tree of 3 nodes. **Why**: a failing node deep in
    /// the tree must take the root's place, and each key is drawn relative to its parent's, so
    /// keys change meaning as their ancestors' do.
    static let heapOrder = make(
        "heaporder", generator: { heapOrderedTrees(depthMax: 6) },
        render: { $0.rendered },
        tier: { $0.tier(leftKeyOfMinimum: 11) },
        property: { tree in
            try check(!tree.hasLeftHeavyNode(margin: 10), "a left child outweighs its sibling")
        })
}
