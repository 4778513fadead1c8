// The trace: sinks, the JSON line form, and the running hash that proves two runs equal.
import Foundation
import Testing

@testable import Simulation

@Suite("Trace")
struct TraceTests {
    /// A small run with ties and a cancellation, traced into `sink`.
    static func run(into sink: any TraceSink<Note>, ordering: OrderingStrategy = .fifo) {
        var simulation = Simulation<Note>(ordering: ordering, trace: sink)
        let recorder = Recorder { note, context in
            if note.number < 20 {
                context.setTimer(
                    after: .milliseconds(Int64(note.number % 3) * 500),
                    Note(number: note.number + 3, label: "\"q\"\n"))
            }
        }
        let id = simulation.add(recorder)
        let other = simulation.add(Recorder())
        for number in 0..<3 { simulation.scheduler.send(Note(number: number), to: id, at: .start) }
        let cancelled = simulation.scheduler.send(Note(number: 99), to: other, after: .seconds(1))
        simulation.scheduler.cancel(cancelled)
        _ = simulation.run()
    }

    @Test("a JSON Lines trace file hashes to the run's trace hash")
    func fileMatchesHash() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-trace-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try JSONLinesTrace<Note>(path: path)
        Self.run(into: file)
        file.close()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        var hasher = FNV1a64()
        for byte in bytes { hasher.combine(byte: byte) }
        #expect(hasher.value == file.hash.value)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == file.hash.lineCount)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(
                object?["instant"] is String && object?["actor"] is Int
                    && object?["message"] is String)
        }
    }

    @Test("a trace file never overwrites an existing file unless asked")
    func noOverwrite() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-keep-\(UInt64.random(in: 0...UInt64.max))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        #expect(throws: JSONLinesTrace<Note>.OpenError.self) {
            try JSONLinesTrace<Note>(path: path)
        }
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
    }

    @Test("a trace file is never a directory, even when replacing is allowed")
    func notADirectory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lifeline-trace-folder-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for replacing in [false, true] {
            let error = #expect(throws: JSONLinesTrace<Note>.OpenError.self) {
                try JSONLinesTrace<Note>(path: path, replacing: replacing)
            }
            #expect(error?.reason == "it is a directory; name a file")
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
    }

    @Test("the memory trace and the hash agree, and two runs hash the same")
    func memoryAndHash() {
        let memory = MemoryTrace<Note>()
        let hashing = HashingTrace<Note>()
        Self.run(into: memory)
        Self.run(into: hashing)
        #expect(memory.hash.value == hashing.hash.value)
        #expect(memory.records.count == memory.hash.lineCount)
        #expect(
            memory.records.allSatisfy { $0.message.number != 99 },
            "the cancelled note is not traced")
        #expect(
            zip(memory.records, memory.records.dropFirst()).allSatisfy { $0.instant <= $1.instant })
    }

    @Test("a different order gives a different hash")
    func orderChangesHash() {
        let fifo = HashingTrace<Note>()
        Self.run(into: fifo)
        let hashes = (UInt64(0)..<8).map { seed -> UInt64 in
            let sink = HashingTrace<Note>()
            Self.run(into: sink, ordering: .random(seed: seed))
            return sink.hash.value
        }
        #expect(hashes.contains { $0 != fifo.hash.value })
    }

    @Test("JSON quoting escapes quotes, backslashes and control characters")
    func quoting() {
        #expect(PlainText.jsonQuoted("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\u0001\"")
        #expect(
            TraceHash.line(
                instant: .start + .milliseconds(1500), actor: ActorID(index: 3), message: "x")
                == "{\"instant\":\"00:00:01.500\",\"ns\":1500000000,\"actor\":3,\"message\":\"x\"}")
    }
}
