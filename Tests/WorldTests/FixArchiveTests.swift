// The run keeps each fix once for the log, the store and the server, and every one of them
// reads back what was written to it, whatever an engine did to a fix it was handed.
import Simulation
import Testing

@testable import World

@Suite("The run's fixes, each kept once")
struct FixArchiveTests {
    @Test("a fix delivered, stored and uploaded is kept once: the archive holds the log's updates")
    func deliveredStoredAndUploadedOnce() {
        var world = World(WorldConfiguration(route: drive(20))) {
            UploadingEngine(recordUntil: .start + .minutes(10))
        }
        world.schedule(.open, at: .start)
        world.run(until: .start + .minutes(12))
        let updates = world.log.count { entry in
            if case .location = entry.kind { true } else { false }
        }
        let storedFixes = world.storedRows.compactMap(\.fix)
        #expect(storedFixes.count >= 500, "the engine stored its fixes")
        #expect(world.server.acceptedRows.compactMap(\.fix) == storedFixes, "and uploaded them")
        #expect(world.fixesKept == updates, "a slot for each update the log holds, and no more")
    }

    @Test("a row reads back as committed, its fix's slot a hint checked before it is trusted")
    func rowsReadBackAsCommitted() {
        let archive = FixArchive()
        guard let slot = archive.keep(movingFix(1)) else {
            Issue.record("an empty archive keeps a fix")
            return
        }
        var kept = archive[slot]
        #expect(kept == movingFix(1) && kept.archiveSlot == slot)
        // An engine changed the fix it was handed: the row keeps the changed fix.
        kept.horizontalAccuracyMeters = 50
        var moved = movingFix(2)
        moved.archiveSlot = slot
        let committed = [
            StoredRow(key: "fix", fix: archive[slot]),
            StoredRow(key: "fix", fix: kept),
            StoredRow(key: "fix", fix: moved),
            StoredRow(key: "outbox", text: "0 3 2"),
            StoredRow(key: "other", fix: movingFix(3)),
            StoredRow(key: "fix", fix: movingFix(4), text: "note"),
        ]
        var rows = StoredRows(archive: archive)
        rows.append(contentsOf: committed)
        #expect(Array(rows) == committed)
        #expect(rows.map(\.fix?.horizontalAccuracyMeters) == [5, 50, 5, nil, 5, 5])
        #expect(rows[2].fix?.instant == .start + .seconds(2))
        // The first row's fix is the archive's; the changed and the moved fixes are new; the
        // rows under another key or with text are kept whole.
        #expect(archive.count == 3)
        #expect(rows.map(\.key) == rows.indices.map { rows.key(at: $0) })
    }

    @Test("a deletion removes the earliest equal row, packed or whole")
    func deletionRemovesEarliestEqualRow() {
        var rows = StoredRows(archive: FixArchive())
        let fixRow = StoredRow(key: "fix", fix: movingFix(1))
        rows.append(contentsOf: [
            StoredRow(key: "a"), fixRow, StoredRow(key: "fix", fix: movingFix(2)), fixRow,
        ])
        #expect(rows.removeFirst(equalTo: fixRow) == 1)
        #expect(rows.removeFirst(equalTo: StoredRow(key: "a")) == 0)
        #expect(rows.removeFirst(equalTo: StoredRow(key: "b")) == nil)
        #expect(Array(rows) == [StoredRow(key: "fix", fix: movingFix(2)), fixRow])
    }

    @Test("a copy of the rows keeps what it had when the original changes, as an array's does")
    func copiesAreValues() {
        var rows = StoredRows(archive: FixArchive())
        rows.append(StoredRow(key: "fix", fix: movingFix(1)))
        let copy = rows
        rows.append(StoredRow(key: "fix", fix: movingFix(2)))
        #expect(rows.removeFirst(equalTo: StoredRow(key: "fix", fix: movingFix(1))) == 0)
        #expect(Array(copy) == [StoredRow(key: "fix", fix: movingFix(1))])
        #expect(Array(rows) == [StoredRow(key: "fix", fix: movingFix(2))])
    }

    @Test("two fixes are equal whatever their slots")
    func slotIsNotPartOfTheValue() {
        var slotted = movingFix(1)
        slotted.archiveSlot = 7
        #expect(slotted == movingFix(1))
        #expect(slotted != movingFix(2))
        #expect(MemoryLayout<Fix>.size == 48, "the slot sits in the padding after `source`")
    }
}
