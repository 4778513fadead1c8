// One machine's share of a sharded search (layer 5): which case indices shard K of N runs, so
// that N machines share one search with no overlap and no coordination.

/// Shard `number` of `count`: the case indices i with `i % count == number - 1`.
///
/// Shards are numbered from 1, as `--shard K/N` reads them (`1/2` and `2/2`). A case index is
/// global: case i is generated from `Seed(seed).derive(i)` in every shard, so `--cases C`
/// bounds the one index range `0..<C` and each shard runs its slice of it. The shards of a
/// count share no case, and together they run exactly the unsharded run's cases.
///
///     FuzzShard(number: 2, count: 3).caseIndices(below: 10)  // 1, 4, 7
public struct FuzzShard: Sendable, Equatable, CustomStringConvertible {
    /// From 1 to `count`.
    public let number: Int
    /// How many shards share the search, at least 1.
    public let count: Int

    /// The unsharded search: every case index.
    public static let whole = FuzzShard(number: 1, count: 1)

    /// - Precondition: `1 <= number <= count`.
    public init(number: Int, count: Int) {
        precondition(count >= 1, "a search has at least one shard")
        precondition((1...count).contains(number), "a shard's number runs from 1 to its count")
        self.number = number
        self.count = count
    }

    /// Why a `K/N` text names no shard.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `K/N` (`1/2`, `2/2`).
    /// - Throws: `ParseError` for anything else: not two whole numbers, a count below 1, or a
    ///   number outside `1...N`.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else {
            throw ParseError(description: "takes K/N, shard K of N (from 1), not '\(text)'")
        }
        guard count >= 1 else {
            throw ParseError(description: "a search has at least 1 shard, not \(count) ('\(text)')")
        }
        guard (1...count).contains(number) else {
            throw ParseError(
                description: "shard numbers run from 1 to \(count), not \(number) ('\(text)')")
        }
        self.init(number: number, count: count)
    }

    /// Whether case `caseIndex` belongs to this shard.
    public func contains(_ caseIndex: Int) -> Bool {
        precondition(caseIndex >= 0, "case indices start at 0")
        return caseIndex % count == number - 1
    }

    /// The shard's case indices below `caseCount`, in order.
    public func caseIndices(below caseCount: Int) -> StrideTo<Int> {
        stride(from: number - 1, to: max(caseCount, number - 1), by: count)
    }

    /// How many of the shard's case indices lie below `caseCount` (`Int.max` for an unbounded
    /// search is fine: no arithmetic overflows).
    public func positionCount(below caseCount: Int) -> Int {
        caseCount <= number - 1 ? 0 : (caseCount - number) / count + 1
    }

    /// The shard's `position`-th case index (from 0).
    public func caseIndex(at position: Int) -> Int {
        precondition(position >= 0, "positions start at 0")
        let (product, overflow) = position.multipliedReportingOverflow(by: count)
        precondition(!overflow, "a case index fits an Int")
        return product + (number - 1)
    }

    public var description: String { "\(number)/\(count)" }
}
