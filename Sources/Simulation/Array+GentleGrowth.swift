// Appending to a long run's largest arrays without doubling them: once large, a full array grows
// by a quarter, so that it holds at most a quarter of unused room rather than up to as much again.

extension Array {
    /// The room past which a full array grows by a quarter rather than doubling
    /// (`appendGrowingGently`): 65,536 elements, most of a simulated day's fixes at one a
    /// second. Below it an array doubles, as `append` does (a fuzzing case's arrays stay below
    /// it).
    @inlinable package static var gentleGrowthMin: Int { 65_536 }

    /// Appends `element`; a full array that doubling would take past `gentleGrowthMin`
    /// elements first grows by a quarter of its count instead.
    ///
    /// A week's drive stores about 600,000 rows and its engine tells as many events: doubled,
    /// each array held up to 100 % more room than elements at the run's peak (the store's rows
    /// took 80 MB for 48 MB of rows). Growing by a quarter costs about five copies of each
    /// element instead of two.
    @inlinable
    package mutating func appendGrowingGently(_ element: Element) {
        makeRoomGently(for: 1)
        append(element)
    }

    /// Appends `elements`, growing as `appendGrowingGently(_:)` does.
    @inlinable
    package mutating func appendGrowingGently<C: Collection>(contentsOf elements: C)
    where C.Element == Element {
        makeRoomGently(for: elements.count)
        append(contentsOf: elements)
    }

    /// Reserves a quarter more room when `extra` more elements would overflow an array that
    /// doubling would take past `gentleGrowthMin`.
    @inlinable
    package mutating func makeRoomGently(for extra: Int) {
        let needed = count + extra
        guard needed > capacity, Swift.max(needed, capacity * 2) > Self.gentleGrowthMin else {
            return
        }
        reserveCapacity(Swift.max(needed, count + count / 4))
    }
}
