// An append-only array in fixed-size segments (layer 3): a long run's records grow without the
// copy, and the moment with both the old and the doubled buffer alive, of an array's growth.

/// An append-only random-access array kept in segments of `1 << segmentShift` elements, each
/// reserved whole when it is started (pages reserved and never written cost nothing). Growing
/// never copies what is already held, so a record of n elements takes at most one segment more
/// than n, where an `Array` can hold 2n, and 3n while it grows (the old buffer and the doubled
/// one).
package struct SegmentedArray<Element>: RandomAccessCollection {
    /// The full segments, in order.
    private var sealed: [[Element]] = []
    /// The segment being filled (appending to it is an array's append).
    private var tail: [Element] = []
    private let segmentShift: Int

    /// An empty array whose segments hold `1 << segmentShift` elements each; nothing is
    /// allocated until the first append.
    package init(segmentShift: Int) {
        precondition((1...24).contains(segmentShift), "segments of 2 to 2^24 elements")
        self.segmentShift = segmentShift
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { sealed.count &<< segmentShift + tail.count }

    @inline(__always)
    package subscript(position: Int) -> Element {
        let segment = position &>> segmentShift
        return segment == sealed.count ? tail[position & mask] : sealed[segment][position & mask]
    }

    @inline(__always)
    package mutating func append(_ element: consuming Element) {
        if tail.count > mask || tail.count == tail.capacity {
            if tail.count > mask {
                var full: [Element] = []
                swap(&full, &tail)
                sealed.append(full)
            }
            tail.reserveCapacity(mask + 1)
        }
        tail.append(element)
    }

    private var mask: Int { (1 &<< segmentShift) - 1 }
}

extension SegmentedArray: Sendable where Element: Sendable {}
