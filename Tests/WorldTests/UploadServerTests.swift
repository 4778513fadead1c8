// The server keeps a batch of fix rows under one key and no text as its fixes alone, and every
// other batch whole; each reads back exactly as it was accepted.
import Simulation
import Testing

@testable import World

@Suite("The upload server's batches, held compactly")
struct UploadServerTests {
    @Test("packed and whole batches read back as accepted, in order")
    func batchesReadBack() {
        let batches: [[StoredRow]] = [
            [StoredRow(key: "fix", fix: movingFix(1)), StoredRow(key: "fix", fix: movingFix(2))],
            // Not packed: a row with text, a row without a fix, two keys, no rows.
            [
                StoredRow(key: "fix", fix: movingFix(3)),
                StoredRow(key: "fix", fix: movingFix(4), text: "x"),
            ],
            [StoredRow(key: "fix", fix: movingFix(5)), StoredRow(key: "marker")],
            [
                StoredRow(key: "fix", fix: movingFix(6)),
                StoredRow(key: "location", fix: movingFix(7)),
            ],
            [],
            // Packed again, under another key, after the whole ones.
            [StoredRow(key: "a key longer than fifteen bytes", fix: movingFix(8))],
            [StoredRow(key: "fix", fix: movingFix(9))],
        ]
        var server = UploadServer(deduplication: .storesEveryRequest)
        for (index, rows) in batches.enumerated() {
            let batch = UploadBatch(
                key: UploadBatchKey(firstRowIndex: index, rowCount: rows.count), rows: rows,
                carriesIdempotencyKey: index % 2 == 0)
            #expect(server.accept(batch, at: .start + .seconds(Int64(index))) == false)
        }
        let accepted = server.acceptedBatches
        #expect(accepted.map(\.rows) == batches)
        #expect(accepted.map(\.key.firstRowIndex) == Array(batches.indices))
        #expect(accepted.map(\.instant) == batches.indices.map { .start + .seconds(Int64($0)) })
        #expect(accepted.map(\.carriedIdempotencyKey) == batches.indices.map { $0 % 2 == 0 })
        #expect(server.acceptedRows == batches.flatMap { $0 })
        #expect(server.acceptedRowCount == batches.reduce(0) { $0 + $1.count })
        #expect(Array(server.accepted) == accepted, "the view and the array agree")
    }

    @Test("a batch's fixes packed past one segment read back in order")
    func packedAcrossSegments() {
        // Segments hold 1,024 fixes: three batches of 700 cross two boundaries.
        var server = UploadServer()
        var sent: [[StoredRow]] = []
        for batchIndex in 0..<3 {
            let rows = (0..<700).map {
                StoredRow(key: "fix", fix: movingFix(Int64(batchIndex * 700 + $0)))
            }
            sent.append(rows)
            _ = server.accept(
                UploadBatch(
                    key: UploadBatchKey(firstRowIndex: batchIndex * 700, rowCount: 700), rows: rows),
                at: .start)
        }
        #expect(server.acceptedBatches.map(\.rows) == sent)
    }
}
