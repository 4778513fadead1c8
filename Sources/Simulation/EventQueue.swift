// The scheduler's queue (layer 1): a radix heap of pending deliveries keyed by integer instant,
// its buckets circular linked lists through sentinel nodes in one pool.

/// A monotone priority queue of pending deliveries, keyed by their instant in nanoseconds.
///
/// Virtual time never runs backwards, so the queue only ever holds keys at or after the last
/// instant it advanced to (`last`). That makes a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
/// "Faster algorithms for the shortest path problem", 1990) a better fit for integer time than
/// a binary heap: a node sits in bucket `b(key) = 64 − clz(key ^ last)`, bucket 0 holding the
/// nodes due exactly at `last`. Advancing empties the first non-empty bucket into lower ones;
/// a node moves down at most 64 times in its life, and usually a few.
///
/// Each bucket is a circular doubly linked list through its sentinel, node `b` of the one node
/// pool (nodes from `bucketCount` on are deliveries). Moving a node is relinking it, cancelling
/// one is unlinking it in O(1), and nothing stale is left behind. Every operation touches the
/// pool through one buffer access. A node's index and generation form its `EventHandle`.
///
/// Two properties the scheduler builds on:
/// - **First scheduled, first served.** Nodes with equal keys always share a bucket and keep
///   their insertion order through every redistribution, so no sequence number is needed.
/// - **The ready run.** After `advance`, bucket 0 is exactly the set of deliveries due at
///   `last`, in scheduling order. A same-instant ordering strategy picks only among its
///   channel heads (`channelHeads()`), the first delivery of each (sender, receiver) channel,
///   so per-channel FIFO holds in every strategy.
///
/// - Complexity: `insert` and `remove` O(1); `advance` amortized O(log C) per node for a key
///   spread C; `readyHead` O(1), `readyNode(at:)` O(offset); `take` O(1).
@usableFromInline
struct EventQueue<Message> {
    @usableFromInline
    struct Node {
        @usableFromInline var message: Message?
        @usableFromInline var instant: Int64
        @usableFromInline var previous: UInt32
        @usableFromInline var next: UInt32
        @usableFromInline var target: ActorID
        /// The actor that sent the message, or `ActorID.outside`; with `target`, the delivery's
        /// channel. It fills the padding after the five 4-byte fields, so the stride is the same
        /// as without it.
        @usableFromInline var sender: ActorID
        /// Bumped whenever the node is freed, so that old handles no longer match.
        @usableFromInline var generation: UInt32
        /// The bucket the node is linked into, or `EventQueue.none` while free.
        @usableFromInline var bucket: UInt32

        @inlinable
        init(
            message: Message?, instant: Int64, target: ActorID, sender: ActorID, link: UInt32,
            bucket: UInt32
        ) {
            self.message = message
            self.instant = instant
            self.previous = link
            self.next = link
            self.target = target
            self.sender = sender
            self.generation = 0
            self.bucket = bucket
        }
    }

    /// The null link (free list end, free node's bucket).
    @usableFromInline static var none: UInt32 { UInt32.max }
    /// Bucket 0 plus one bucket per bit of a 64-bit key difference; also the first node index
    /// that is a delivery, since nodes `0..<bucketCount` are the buckets' sentinels.
    @usableFromInline static var bucketCount: Int { 65 }

    // invariant: nodes[b] for b < bucketCount is bucket b's sentinel; a linked delivery node in
    // bucket b has b == bucketIndex(node.instant); lists keep insertion order among equal
    // instants; free nodes form a singly linked list by `next` from `freeHead`.
    @usableFromInline var nodes: ContiguousArray<Node>
    @usableFromInline var freeHead = EventQueue.none
    /// Bit b − 1 is set when bucket b (1...64) holds a node.
    @usableFromInline var occupancy: UInt64 = 0
    /// The instant last advanced to: a lower bound on every key in the queue.
    @usableFromInline var last: Int64 = 0
    /// Nodes linked (pending deliveries).
    @usableFromInline var count = 0

    @usableFromInline init() {
        nodes = ContiguousArray(
            (0..<Self.bucketCount).map { bucket in
                Node(
                    message: nil, instant: 0, target: ActorID(index: 0), sender: .outside,
                    link: UInt32(bucket), bucket: UInt32(bucket))
            })
    }

    /// Adds a delivery of `message` from `sender` to `target` at `instant` (not before `last`).
    ///
    /// `message` is consumed and moved into its node (swapped with the free node's nil):
    /// borrowed, it was copied in (its payload retained, through a generic copy for some
    /// payloads) and the sender's copy destroyed after.
    @inlinable @inline(__always)
    mutating func insert(
        _ message: consuming Message, to target: ActorID, from sender: ActorID, at instant: Int64
    ) -> EventHandle {
        precondition(instant >= last, "virtual time never runs backwards")
        let index: UInt32
        if freeHead != Self.none {
            index = freeHead
        } else {
            precondition(nodes.count < Int(Self.none), "at most 2^32 - 1 pending deliveries")
            index = UInt32(nodes.count)
            nodes.append(
                Node(
                    message: nil, instant: instant, target: target, sender: sender,
                    link: Self.none, bucket: Self.none))
        }
        let bucket = bucketIndex(instant)
        var moved: Message? = consume message
        let generation: UInt32 = nodes.withUnsafeMutableBufferPointer { nodes in
            if index == freeHead { freeHead = nodes[Int(index)].next }
            swap(&nodes[Int(index)].message, &moved)  // a free node holds nil
            nodes[Int(index)].instant = instant
            nodes[Int(index)].target = target
            nodes[Int(index)].sender = sender
            Self.append(index, to: bucket, nodes: nodes, occupancy: &occupancy)
            return nodes[Int(index)].generation
        }
        count += 1
        return EventHandle(slot: index, generation: generation)
    }

    /// True while `handle`'s delivery is queued.
    @inlinable @inline(__always)
    func contains(_ handle: EventHandle) -> Bool {
        Int(handle.slot) >= Self.bucketCount && Int(handle.slot) < nodes.count
            && nodes[Int(handle.slot)].generation == handle.generation
            && nodes[Int(handle.slot)].bucket != Self.none
    }

    /// Removes a queued delivery (cancellation). Returns false when it is not queued.
    @inlinable @inline(__always)
    mutating func remove(_ handle: EventHandle) -> Bool {
        guard contains(handle) else { return false }
        nodes.withUnsafeMutableBufferPointer { nodes in
            Self.unlink(handle.slot, nodes: nodes, occupancy: &occupancy)
            Self.free(handle.slot, nodes: nodes, freeHead: &freeHead)
        }
        count -= 1
        return true
    }

    /// Makes the ready run non-empty, moving `last` to the earliest instant queued, unless
    /// that instant lies after `horizon`. Returns false (changing nothing) when the queue is
    /// empty or its earliest instant lies after `horizon`.
    @inlinable @inline(__always)
    mutating func advance(notAfter horizon: Int64) -> Bool {
        if nodes[0].next != 0 { return true }
        if occupancy == 0 { return false }
        return advanceToNextInstant(notAfter: horizon)
    }

    /// The queue node of the first delivery of the ready run, for `take`. Call only after
    /// `advance` returned true.
    @inlinable @inline(__always)
    var readyHead: UInt32 {
        let index = nodes[0].next
        assert(index != 0, "the ready run is not empty")
        return index
    }

    /// True when the ready run holds exactly one delivery (so it has one channel head, and an
    /// ordering strategy has nothing to pick). Call only after `advance` returned true.
    @inlinable @inline(__always)
    var readyRunIsSingle: Bool { nodes[Int(nodes[0].next)].next == 0 }

    /// The channel heads of the ready run: the first delivery of each (sender, receiver)
    /// channel, with its offset in the run and its receiver, in scheduling order. These are
    /// the deliveries that may go next without overtaking one sent earlier on their channel;
    /// the run's first delivery is always the first of them.
    /// - Complexity: O(n · c) for a ready run of n deliveries on c channels (a world has a
    /// handful of actors, so c is small; a linear search beats hashing each delivery).
    @inlinable
    func channelHeads() -> [(offset: Int, channel: UInt64)] {
        var heads: [(offset: Int, channel: UInt64)] = []
        var offset = 0
        var index = nodes[0].next
        while index != 0 {
            let target = nodes[Int(index)].target
            let sender = nodes[Int(index)].sender
            let channel = Self.channelKey(from: sender, to: target)
            if !heads.contains(where: { $0.channel == channel }) { heads.append((offset, channel)) }
            offset += 1
            index = nodes[Int(index)].next
        }
        return heads
    }

    /// The queue node of the `offset`-th delivery of the ready run, for `take`.
    /// - Complexity: O(offset).
    @inlinable
    func readyNode(at offset: Int) -> UInt32 {
        var index = nodes[0].next
        for _ in 0..<offset { index = nodes[Int(index)].next }
        precondition(index != 0, "the offset lies inside the ready run")
        return index
    }

    // MARK: - Internals

    /// One number per (sender, receiver) channel.
    @inlinable @inline(__always)
    static func channelKey(from sender: ActorID, to target: ActorID) -> UInt64 {
        UInt64(sender.index) << UInt32.bitWidth | UInt64(target.index)
    }

    @inlinable @inline(__always)
    func bucketIndex(_ instant: Int64) -> Int {
        let difference = UInt64(bitPattern: instant ^ last)
        return difference == 0 ? 0 : 64 - difference.leadingZeroBitCount
    }

    /// Takes the delivery in node `index` (`readyHead`, `readyNode(at:)`) out of the queue,
    /// keeping the others in order.
    @inlinable @inline(__always)
    mutating func take(_ index: UInt32) -> (instant: Int64, target: ActorID, message: Message) {
        count -= 1
        // The message is moved out of its node (`Optional.take()`, which leaves nil behind:
        // nothing is left to destroy when the node is freed). Swapped out through a local
        // optional, it took five copies of the message's bytes and a generic destroy.
        return nodes.withUnsafeMutableBufferPointer { nodes in
            Self.unlink(index, nodes: nodes, occupancy: &occupancy)
            let message = nodes[Int(index)].message.take()!
            let placed = (nodes[Int(index)].instant, nodes[Int(index)].target)
            Self.free(index, nodes: nodes, freeHead: &freeHead, holdsMessage: false)
            return (placed.0, placed.1, message)
        }
    }

    /// Appends node `index` to the tail of `bucket` (the one place that links a node).
    @inlinable @inline(__always)
    static func append(
        _ index: UInt32, to bucket: Int, nodes: UnsafeMutableBufferPointer<Node>,
        occupancy: inout UInt64
    ) {
        let tail = nodes[bucket].previous
        nodes[Int(index)].previous = tail
        nodes[Int(index)].next = UInt32(bucket)
        nodes[Int(index)].bucket = UInt32(bucket)
        nodes[Int(tail)].next = index
        nodes[bucket].previous = index
        if bucket != 0 { occupancy |= 1 &<< UInt64(bucket - 1) }
    }

    /// Takes node `index` out of its bucket's list.
    @inlinable @inline(__always)
    static func unlink(
        _ index: UInt32, nodes: UnsafeMutableBufferPointer<Node>, occupancy: inout UInt64
    ) {
        let previous = nodes[Int(index)].previous
        let next = nodes[Int(index)].next
        let bucket = Int(nodes[Int(index)].bucket)
        nodes[Int(previous)].next = next
        nodes[Int(next)].previous = previous
        nodes[Int(index)].bucket = none
        if bucket != 0 && nodes[bucket].next == UInt32(bucket) {
            occupancy &= ~(1 &<< UInt64(bucket - 1))
        }
    }

    /// Returns node `index` to the free list; its old handles stop matching. `holdsMessage`
    /// false: its message was taken already (it holds nil), so none is destroyed.
    @inlinable @inline(__always)
    static func free(
        _ index: UInt32, nodes: UnsafeMutableBufferPointer<Node>, freeHead: inout UInt32,
        holdsMessage: Bool = true
    ) {
        if holdsMessage { nodes[Int(index)].message = nil }
        nodes[Int(index)].generation &+= 1
        nodes[Int(index)].next = freeHead
        freeHead = index
    }

    /// Empties the first non-empty bucket into lower ones around its minimum (the slow path of
    /// `advance`). Every node moved shares the bits above `source − 1` with the new `last`, so
    /// each lands in a bucket below `source`.
    @inlinable @inline(never)
    mutating func advanceToNextInstant(notAfter horizon: Int64) -> Bool {
        let source = occupancy.trailingZeroBitCount + 1
        let sentinel = UInt32(source)
        return nodes.withUnsafeMutableBufferPointer { nodes in
            var minimum = Int64.max
            var index = nodes[source].next
            while index != sentinel {
                minimum = min(minimum, nodes[Int(index)].instant)
                index = nodes[Int(index)].next
            }
            if minimum > horizon { return false }
            last = minimum
            // Detach the whole list, then relink each node where the new `last` puts it.
            index = nodes[source].next
            nodes[source].next = sentinel
            nodes[source].previous = sentinel
            occupancy &= ~(1 &<< UInt64(source - 1))
            while index != sentinel {
                let next = nodes[Int(index)].next
                let difference = UInt64(bitPattern: nodes[Int(index)].instant ^ minimum)
                let bucket = difference == 0 ? 0 : 64 - difference.leadingZeroBitCount
                Self.append(index, to: bucket, nodes: nodes, occupancy: &occupancy)
                index = next
            }
            return true
        }
    }
}
