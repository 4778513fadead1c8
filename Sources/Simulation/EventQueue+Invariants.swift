// Whole-structure checks of the event queue (layer 1): too costly for every operation, run by
// the property suites after each step of a random interleaving.

extension EventQueue {
    /// Every broken invariant, in words; empty when the queue is sound.
    ///
    /// - every linked node is in the bucket its key and `last` call for, at or after `last`;
    /// - each bucket's circular list is doubly linked consistently through its sentinel;
    /// - an occupancy bit is set exactly when its bucket holds a node;
    /// - the linked nodes number `count`, and every other delivery node is on the free list;
    /// - every linked node goes to one of the `actorCount` actors, from one of them or from
    ///   `ActorID.outside`.
    /// - Complexity: O(nodes).
    func invariantViolations(actorCount: Int) -> [String] {
        var violations: [String] = []
        var linked = 0
        for bucket in 0..<Self.bucketCount {
            let sentinel = UInt32(bucket)
            var previous = sentinel
            var index = nodes[bucket].next
            var steps = 0
            while index != sentinel {
                let node = nodes[Int(index)]
                linked += 1
                steps += 1
                if Int(index) < Self.bucketCount {
                    return violations + ["bucket \(bucket) links to sentinel \(index)"]
                }
                if Int(node.bucket) != bucket {
                    violations.append("node \(index) in bucket \(bucket) says \(node.bucket)")
                }
                if node.instant < last {
                    violations.append("node \(index) at \(node.instant) is before last \(last)")
                }
                if bucketIndex(node.instant) != bucket {
                    violations.append(
                        "node \(index) belongs in bucket \(bucketIndex(node.instant)), not \(bucket)"
                    )
                }
                if Int(node.target.index) >= actorCount {
                    violations.append("node \(index) goes to no actor: \(node.target)")
                }
                if node.sender != .outside && Int(node.sender.index) >= actorCount {
                    violations.append("node \(index) comes from no actor: \(node.sender)")
                }
                if node.previous != previous {
                    violations.append(
                        "node \(index)'s previous is \(node.previous), not \(previous)")
                }
                previous = index
                index = node.next
                if steps > nodes.count { return violations + ["bucket \(bucket) has a cycle"] }
            }
            if nodes[bucket].previous != previous {
                violations.append(
                    "bucket \(bucket)'s tail is \(nodes[bucket].previous), not \(previous)")
            }
            if bucket > 0,
                (occupancy >> UInt64(bucket - 1) & 1 == 1) != (nodes[bucket].next != sentinel)
            {
                violations.append("occupancy bit of bucket \(bucket) is wrong")
            }
        }
        if linked != count { violations.append("\(linked) nodes linked, count says \(count)") }
        var free = 0
        var index = freeHead
        while index != Self.none && free <= nodes.count {
            if nodes[Int(index)].bucket != Self.none {
                violations.append("free node \(index) is linked")
            }
            free += 1
            index = nodes[Int(index)].next
        }
        if free + linked + Self.bucketCount != nodes.count {
            violations.append(
                "\(free) free and \(linked) linked of \(nodes.count - Self.bucketCount) delivery nodes"
            )
        }
        return violations
    }
}

extension Simulation {
    /// Every broken invariant of the scheduler's queue, in words (for property suites).
    package func queueInvariantViolations() -> [String] {
        scheduler.queue.invariantViolations(actorCount: actorCount)
    }
}
