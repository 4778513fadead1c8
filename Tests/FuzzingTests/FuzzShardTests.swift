// Sharding a search: which case indices shard K of N runs. The shards of a count share no
// case and together run exactly the unsharded run's; `--shard` text that names no shard is an
// error saying why.
import Testing

@testable import Fuzzing

@Suite("Fuzz shards")
struct FuzzShardTests {
    @Test(
        "shards of one count are disjoint and together are the unsharded case indices",
        arguments: [1, 2, 3, 7])
    func shardsPartitionTheCases(count: Int) {
        for caseCount in [0, 1, 2, 5, 100, 101] {
            let shards = (1...count).map { FuzzShard(number: $0, count: count) }
            let slices = shards.map { Array($0.caseIndices(below: caseCount)) }
            #expect(slices.flatMap { $0 }.sorted() == Array(0..<caseCount))
            for (shard, slice) in zip(shards, slices) {
                #expect(slice.allSatisfy(shard.contains))
                #expect(slice.count == shard.positionCount(below: caseCount))
                #expect(slice.indices.map(shard.caseIndex(at:)) == slice)
                #expect(slice == slice.sorted())
            }
        }
    }

    @Test("shard 2/2 below 7 runs cases 1, 3 and 5; 1/2 runs 0, 2, 4 and 6")
    func twoShards() {
        #expect(Array(FuzzShard(number: 1, count: 2).caseIndices(below: 7)) == [0, 2, 4, 6])
        #expect(Array(FuzzShard(number: 2, count: 2).caseIndices(below: 7)) == [1, 3, 5])
        #expect(Array(FuzzShard.whole.caseIndices(below: 3)) == [0, 1, 2])
    }

    @Test("an unbounded search (a time bound only) counts its positions without overflow")
    func unbounded() {
        let shard = FuzzShard(number: 3, count: 4)
        #expect(shard.positionCount(below: Int.max) == (Int.max - 3) / 4 + 1)
        #expect(shard.caseIndex(at: shard.positionCount(below: Int.max) - 1) <= Int.max - 1)
        #expect(FuzzShard.whole.positionCount(below: Int.max) == Int.max)
    }

    @Test(
        "K/N text that names no shard is refused with the reason",
        arguments: [
            ("0/2", "shard numbers run from 1 to 2, not 0 ('0/2')"),
            ("3/2", "shard numbers run from 1 to 2, not 3 ('3/2')"),
            ("1/0", "a search has at least 1 shard, not 0 ('1/0')"),
            ("1/-2", "a search has at least 1 shard, not -2 ('1/-2')"),
            ("1", "takes K/N, shard K of N (from 1), not '1'"),
            ("a/2", "takes K/N, shard K of N (from 1), not 'a/2'"),
            ("1/2/3", "takes K/N, shard K of N (from 1), not '1/2/3'"),
        ])
    func badShards(text: String, message: String) {
        #expect(throws: FuzzShard.ParseError(description: message)) {
            try FuzzShard(parsing: text)
        }
    }

    @Test("K/N reads back as itself")
    func parses() throws {
        let shard = try FuzzShard(parsing: "2/5")
        #expect(shard == FuzzShard(number: 2, count: 5))
        #expect(shard.description == "2/5")
    }
}
