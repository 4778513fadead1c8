// The compact stored fixes: each element reads back what was appended, its deletion included
// wherever the first deletion falls, and FixRecorder's fixes are read from the rows in place.
import Simulation
import Testing

@testable import Invariants
@testable import World

@Suite("Stored fixes")
struct StoredFixesTests {
    static func deletion(_ value: Int) -> RowDeletion {
        RowDeletion(commit: CommitID(value), generation: 2, instant: .start + .seconds(100))
    }

    /// Five fixes kept (a team's reader), with a deletion at each of `deleted` positions.
    static func appended(deletingAt deleted: Set<Int>) -> StoredFixes {
        var fixes = StoredFixes(rows: [], readsRowFix: false, capacity: 5)
        for index in 0..<5 {
            fixes.append(
                rowIndex: deleted.contains(index) ? nil : index, fix: FixTableTests.fix(index),
                generation: index == 4 ? nil : 1 + index % 2,
                durableAt: index == 3 ? nil : .start + .seconds(Int64(index)),
                deletion: deleted.contains(index) ? deletion(index) : nil)
        }
        return fixes
    }

    @Test(
        "every field reads back, with deletions first, last, both or none",
        arguments: [Set<Int>(), [0], [4], [0, 4], [2]])
    func readsBack(_ deleted: Set<Int>) {
        let fixes = Self.appended(deletingAt: deleted)
        #expect(fixes.count == 5)
        for index in 0..<5 {
            let stored = fixes[index]
            #expect(stored.fix == FixTableTests.fix(index))
            #expect(fixes.fix(at: index) == FixTableTests.fix(index))
            #expect(stored.rowIndex == (deleted.contains(index) ? nil : index))
            #expect(stored.generation == (index == 4 ? nil : 1 + index % 2))
            #expect(stored.durableAt == (index == 3 ? nil : .start + .seconds(Int64(index))))
            #expect(stored.deletion == (deleted.contains(index) ? Self.deletion(index) : nil))
        }
    }

    @Test("FixRecorder's fixes are read from the rows they name")
    func readsRows() {
        let rows = (0..<3).map { StoredRow(key: "fix", fix: FixTableTests.fix($0 * 10)) }
        var fixes = StoredFixes(rows: StoredRows(rows), readsRowFix: true, capacity: 2)
        // Handed other fixes than the rows hold: what reads back is the rows', so the fixes
        // were read in place, not kept.
        fixes.append(rowIndex: 2, fix: FixTableTests.fix(7), generation: 1, durableAt: .start)
        fixes.append(rowIndex: 0, fix: FixTableTests.fix(8), generation: 1, durableAt: .start)
        #expect(fixes.map(\.fix) == [FixTableTests.fix(20), FixTableTests.fix(0)])
        #expect(fixes.map(\.rowIndex) == [2, 0])
    }
}
