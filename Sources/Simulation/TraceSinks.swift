// The trace sinks that ship with the kernel (layer 1): hash only, in memory, JSON Lines file.
import Foundation

/// Keeps only the running hash of the trace: the cheapest way to compare two runs.
public final class HashingTrace<Message: CustomStringConvertible>: TraceSink {
    /// The hash of every delivery so far.
    public private(set) var hash = TraceHash()

    public init() {}

    public func record(instant: Instant, actor: ActorID, message: Message) {
        hash.fold(
            line: TraceHash.line(instant: instant, actor: actor, message: message.description))
    }
}

/// Keeps every delivery in memory, with the running hash.
///
/// The hash is folded when it is read, over the deliveries not folded yet, rather than at each
/// delivery: rendering every message as a JSON line took about 40 % of a fuzzing case that
/// never reads it (`lifeline bench fuzz`). The value is the same as folding at each delivery,
/// as long as a message's `description` is a function of its value (true of the world's
/// messages, which are values).
public final class MemoryTrace<Message: CustomStringConvertible>: TraceSink {
    /// One delivery.
    public struct Record {
        @inlinable public init(instant: Instant, actor: ActorID, message: Message) {
            self.instant = instant
            self.actor = actor
            self.message = message
        }
        public var instant: Instant
        public var actor: ActorID
        public var message: Message
    }

    /// Every delivery so far, in order.
    public var records: [Record] { storage }
    // `@usableFromInline` so that `record` is inlined and specialized into the caller's module:
    // unspecialized, appending looked up the record's generic metadata at every delivery.
    @usableFromInline var storage: [Record] = []
    // invariant: `folded` is the hash of `records[..<foldedCount]`.
    private var folded = TraceHash()
    private var foldedCount = 0

    public init() {}

    /// An empty trace with room for `capacity` deliveries before its storage grows.
    public init(reservingCapacity capacity: Int) { storage.reserveCapacity(capacity) }

    /// The trace of `records`, in order: for a sink that kept the deliveries itself and hands
    /// them over when the run is over.
    public init(records: [Record]) { storage = records }

    /// The hash of every delivery so far.
    public var hash: TraceHash {
        while foldedCount < records.count {
            let record = records[foldedCount]
            folded.fold(
                line: TraceHash.line(
                    instant: record.instant, actor: record.actor,
                    message: record.message.description))
            foldedCount += 1
        }
        return folded
    }

    @inlinable
    public func record(instant: Instant, actor: ActorID, message: consuming Message) {
        storage.append(Record(instant: instant, actor: actor, message: consume message))
    }
}

/// Writes every delivery as one JSON line to a file, with the running hash (the FNV-1a hash of
/// the file's bytes). Lines are buffered; `close()` (or deinit) flushes them.
public final class JSONLinesTrace<Message: CustomStringConvertible>: TraceSink {
    /// Why a trace file could not be written.
    public struct OpenError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the trace: \(reason)" }
    }

    /// The hash of every delivery so far.
    public private(set) var hash = TraceHash()
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private static var bufferedBytesMax: Int { 1 << 16 }

    /// Creates the file at `path`. An existing file is an error unless `replacing` is true, so
    /// that a trace never silently overwrites anything; a directory is always an error.
    public init(path: String, replacing: Bool = false) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw OpenError(path: path, reason: "it is a directory; name a file")
            }
            if !replacing {
                throw OpenError(
                    path: path, reason: "the file exists (pass --replace to overwrite it)")
            }
        }
        guard manager.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw OpenError(path: path, reason: "the file cannot be created") }
        self.handle = handle
    }

    public func record(instant: Instant, actor: ActorID, message: Message) {
        let line = TraceHash.line(instant: instant, actor: actor, message: message.description)
        hash.fold(line: line)
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.bufferedBytesMax { flush() }
    }

    /// Writes out buffered lines and closes the file.
    public func close() {
        flush()
        try? handle.close()
    }

    deinit { flush() }

    private func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}
