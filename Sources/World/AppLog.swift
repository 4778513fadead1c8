// The app's log, held compactly (layer 3): a tracked hour logs three entries a second (the fix,
// its commit reaching the disk, the engine told of the commit), which as whole `AppLogEntry`s
// were most of a long run's memory.
import Simulation

/// Everything the app saw, in order (`World.log`, `RunRecord.log`): a collection of
/// `AppLogEntry`, read as an array is.
///
/// The three entries a tracked second makes (`location`, `commitDurable`, `didCommit`) are kept
/// packed, 16 bytes each plus 48 for a location's update, in segments that never copy what they
/// hold; any other entry is kept whole. The updates are slots of the run's `FixArchive`, whose
/// fixes the store's rows and the server's batches name by slot rather than copy. An entry
/// reads back exactly as it was appended. A day's drive logs about 260,000 entries: 29 MB as an
/// array of entries (59 MB reserved, 88 MB while it doubled), about 8.3 MB here (260,000
/// headers and 87,000 updates).
public struct AppLog: RandomAccessCollection, Sendable {
    public typealias Element = AppLogEntry
    public typealias Index = Int

    private var headers = SegmentedArray<Header>(segmentShift: 13)
    /// Where the packed updates are: the run's, which keeps the fixes the disk and the server
    /// share.
    private let archive: FixArchive
    private var others: [AppLogEntry.Kind] = []
    /// The position in the log of each of `others`.
    private var otherPositions: [Int] = []
    /// The entries of a process numbered `Header.generationSaturated` or more (a run of a
    /// million launches), with that number, in log order.
    private var largeGenerations: [(position: Int, generation: Int)] = []
    /// The latest instant of an entry so far (the start before the first).
    private var latestInstant = Instant.start
    /// The entries logged at an instant before an earlier entry's, or in a process that was
    /// not running, in order: what `causality` judges, noted as they are appended so that it
    /// need not read every entry again.
    package private(set) var timeAndStateSuspects: [Suspect] = []
    /// Whether any entry is a `rowsDeleted` (the app deleted stored rows), noted as appended.
    package private(set) var hasRowsDeleted = false

    /// An entry `causality` looks at (`timeAndStateSuspects`): its position, and the latest
    /// instant of the entries before it.
    package struct Suspect: Sendable {
        package var position: Int
        package var latestBefore: Instant
    }

    /// An empty log.
    package init() { archive = FixArchive() }

    /// An empty log that keeps its fixes in `archive`.
    package init(archive: FixArchive) { self.archive = archive }

    /// A log of `entries`, in order (a record edited or made from parts).
    package init(_ entries: some Sequence<AppLogEntry>) {
        archive = FixArchive()
        for entry in entries { append(entry) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { headers.count }

    public subscript(position: Int) -> AppLogEntry {
        let header = headers[position]
        return AppLogEntry(
            instant: header.instant, generation: generation(of: header, at: position),
            appState: header.appState, processState: header.processState,
            kind: kind(of: header))
    }

    /// Adds `entry` at the end.
    package mutating func append(_ entry: consuming AppLogEntry) {
        let stamp = Stamp(
            instant: entry.instant, generation: entry.generation, appState: entry.appState,
            processState: entry.processState)
        switch entry.kind {
        case .location(var update): appendLocation(&update, at: stamp)
        case .didCommit(let commit): appendDidCommit(commit, at: stamp)
        case .commitDurable(let commit, let rowCount):
            appendCommitDurable(commit, rowCount: rowCount, at: stamp)
        default: appendWhole(entry.kind, at: stamp)
        }
    }

    /// When and in which process an entry was logged: every field but its kind.
    package struct Stamp {
        package var instant: Instant
        package var generation: Int
        package var appState: ProcessState
        package var processState: ProcessState

        package init(
            instant: Instant, generation: Int, appState: ProcessState, processState: ProcessState
        ) {
            self.instant = instant
            self.generation = generation
            self.appState = appState
            self.processState = processState
        }
    }

    // The commonest entries are appended without building an `AppLogEntry.Kind`.

    /// Adds a `location` entry, and gives `update`'s fix its slot in the archive
    /// (`Fix.archiveSlot`), so that the store and the server keep it by its slot.
    package mutating func appendLocation(_ update: inout LocationUpdate, at stamp: Stamp) {
        guard let slot = archive.keep(update) else {
            return appendWhole(.location(update), at: stamp)
        }
        appendHeader(stamp, .location, slot)
        update.fix?.archiveSlot = slot
    }

    /// Adds a `didCommit` entry.
    package mutating func appendDidCommit(_ commit: CommitID, at stamp: Stamp) {
        guard let value = UInt32(exactly: commit.value) else {
            return appendWhole(.didCommit(commit), at: stamp)
        }
        appendHeader(stamp, .didCommit, value)
    }

    /// Adds a `commitDurable` entry.
    package mutating func appendCommitDurable(_ commit: CommitID, rowCount: Int, at stamp: Stamp) {
        guard let value = UInt32(exactly: commit.value), (0...Header.rowCountMax).contains(rowCount)
        else { return appendWhole(.commitDurable(commit, rowCount: rowCount), at: stamp) }
        appendHeader(stamp, .commitDurable, value, rowCount: UInt32(rowCount))
    }

    /// Adds an entry kept whole.
    package mutating func appendWhole(_ kind: consuming AppLogEntry.Kind, at stamp: Stamp) {
        if others.capacity == 0 {
            // A short run's uncommon entries without growing from one (a fuzz case logs tens).
            others.reserveCapacity(Self.uncommonReserved)
            otherPositions.reserveCapacity(Self.uncommonReserved)
        }
        if case .rowsDeleted = kind { hasRowsDeleted = true }
        let slot = UInt32(truncatingIfNeeded: others.count)
        otherPositions.append(headers.count)
        others.append(kind)
        appendHeader(stamp, .other, slot)
    }

    private static let uncommonReserved = 256

    @inline(__always)
    private mutating func appendHeader(
        _ stamp: Stamp, _ tag: Tag, _ payload: UInt32, rowCount: UInt32 = 0
    ) {
        // A run's launches are bounded by its deliveries (`RunRecord.defaultEventCountMax`).
        guard let generation = UInt32(exactly: stamp.generation) else {
            preconditionFailure("a process generation from 0 to \(UInt32.max)")
        }
        if generation >= Header.generationSaturated { noteLargeGeneration(Int(generation)) }
        if stamp.instant < latestInstant || !stamp.processState.isRunning {
            noteSuspect(stamp.instant)
        } else {
            latestInstant = stamp.instant
        }
        headers.append(
            Header(
                instant: stamp.instant, payload: payload, rowCount: rowCount,
                generation: generation, appState: stamp.appState,
                processState: stamp.processState, tag: tag))
    }

    /// Notes that the next entry, logged at `instant`, is one `causality` looks at.
    @inline(never)
    private mutating func noteSuspect(_ instant: Instant) {
        timeAndStateSuspects.append(Suspect(position: headers.count, latestBefore: latestInstant))
        if instant > latestInstant { latestInstant = instant }
    }

    /// Notes that the next entry's process is `generation`, too large for its header.
    @inline(never)
    private mutating func noteLargeGeneration(_ generation: Int) {
        largeGenerations.append((headers.count, generation))
    }

    /// The generation of entry `position`, whose header is `header`.
    @inline(__always)
    private func generation(of header: Header, at position: Int) -> Int {
        let packed = header.generation
        return packed == Header.generationSaturated ? largeGeneration(at: position) : Int(packed)
    }

    /// The generation of entry `position`, whose process is numbered past its header's field.
    @inline(never)
    private func largeGeneration(at position: Int) -> Int {
        // Appended in position order: the last one at or before `position` is its own.
        var low = 0
        var high = largeGenerations.count
        while low < high {
            let middle = (low + high) / 2
            if largeGenerations[middle].position <= position {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return largeGenerations[low - 1].generation
    }

    // Reading one field of an entry without the others: `log[index].instant` builds the whole
    // entry, its kind included, which the loops over every entry of a long run cannot afford.

    /// Entry `index`'s stamp: every field but its kind.
    package func stamp(at index: Int) -> Stamp {
        let header = headers[index]
        return Stamp(
            instant: header.instant, generation: generation(of: header, at: index),
            appState: header.appState, processState: header.processState)
    }

    /// Entry `index`'s stamp and what it is among the routine kinds (`routine(at:)`), from one
    /// read of its header: what a walk over every entry of a long run reads.
    package func stampAndRoutine(at index: Int) -> (stamp: Stamp, routine: Routine) {
        let header = headers[index]
        let stamp = Stamp(
            instant: header.instant, generation: generation(of: header, at: index),
            appState: header.appState, processState: header.processState)
        switch header.tag {
        case .location: return (stamp, .location(hasFix: archive.hasFix(at: header.payload)))
        case .didCommit: return (stamp, .didCommit)
        case .commitDurable: return (stamp, .commitDurable(rowCount: Int(header.rowCount)))
        case .other: return (stamp, routine(at: index))
        }
    }

    /// The instants of the entries that end a commit, durable or lost (`commitDurable`,
    /// `commitLost`), in log order: read from the headers in one loop here, which a walk over
    /// every entry through `routine(at:)` cost several times over.
    package func commitEndInstants() -> [Instant] {
        var instants: [Instant] = []
        for index in headers.indices {
            let header = headers[index]
            switch header.tag {
            case .commitDurable: instants.append(header.instant)
            case .other:
                switch others[Int(header.payload)] {
                case .commitDurable, .commitLost: instants.append(header.instant)
                default: break
                }
            case .location, .didCommit: break
            }
        }
        return instants
    }

    /// Calls `body` with the stamp and row count of every `commitDurable` entry, in order,
    /// until it returns false: read from the headers in one loop here, not entry by entry.
    package func forEachCommitDurable(_ body: (Stamp, Int) -> Bool) {
        for index in headers.indices {
            let header = headers[index]
            let rowCount: Int
            switch header.tag {
            case .commitDurable: rowCount = Int(header.rowCount)
            case .other:
                guard case .commitDurable(_, let count) = others[Int(header.payload)] else {
                    continue
                }
                rowCount = count
            case .location, .didCommit: continue
            }
            let stamp = Stamp(
                instant: header.instant, generation: generation(of: header, at: index),
                appState: header.appState, processState: header.processState)
            guard body(stamp, rowCount) else { return }
        }
    }

    /// One of the three kinds a tracked second logs, read without building any kind.
    package enum Routine {
        case location(hasFix: Bool)
        case didCommit
        case commitDurable(rowCount: Int)
        /// Any other kind (read it from the entry).
        case other
    }

    /// What entry `index` is among the routine kinds, `.other` for every other kind.
    package func routine(at index: Int) -> Routine {
        let header = headers[index]
        switch header.tag {
        case .location: return .location(hasFix: archive.hasFix(at: header.payload))
        case .didCommit: return .didCommit
        case .commitDurable: return .commitDurable(rowCount: Int(header.rowCount))
        case .other:
            switch others[Int(header.payload)] {
            case .location(let update): return .location(hasFix: update.fix != nil)
            case .didCommit: return .didCommit
            case .commitDurable(_, let rowCount): return .commitDurable(rowCount: rowCount)
            default: return .other
            }
        }
    }

    /// The update of entry `index` if it is a `location`, nil for any other kind.
    package func locationUpdate(at index: Int) -> LocationUpdate? {
        let header = headers[index]
        switch header.tag {
        case .location: return archive.update(at: header.payload)
        case .other:
            if case .location(let update) = others[Int(header.payload)] { return update }
            return nil
        case .didCommit, .commitDurable: return nil
        }
    }

    /// The row count of entry `index` if it is a `commitDurable`, nil for any other kind.
    package func durableRowCount(at index: Int) -> Int? {
        if case .commitDurable(let rowCount) = routine(at: index) { rowCount } else { nil }
    }

    /// Whether entry `index` of this log and of `other` are the same packed entry: the same
    /// stamp and commit, or the same stamp and an equal update (`==`). False says nothing:
    /// compare the entries themselves. Lets two long logs be compared without building every
    /// entry (`ProcessStateCheck`).
    package func isSamePackedEntry(at index: Int, in other: AppLog) -> Bool {
        let mine = headers[index]
        let theirs = other.headers[index]
        guard mine.tag == theirs.tag, mine.generation != Header.generationSaturated else {
            return false
        }
        switch mine.tag {
        case .other: return false
        case .didCommit, .commitDurable: return mine == theirs
        case .location:
            return mine.instant == theirs.instant && mine.generation == theirs.generation
                && mine.appState == theirs.appState && mine.processState == theirs.processState
                && archive.update(at: mine.payload) == other.archive.update(at: theirs.payload)
        }
    }

    /// The entries other than the three a tracked second makes, in order: every entry whose
    /// kind is not `location`, `didCommit` or `commitDurable` (and, rarely, one of those, with
    /// values too large to pack). A search for any other kind reads these alone.
    package var uncommon: UncommonEntries { UncommonEntries(log: self) }

    /// `AppLog.uncommon`.
    package struct UncommonEntries: RandomAccessCollection {
        let log: AppLog
        package var startIndex: Int { 0 }
        package var endIndex: Int { log.others.count }
        package subscript(position: Int) -> AppLogEntry {
            log[log.otherPositions[position]]
        }
        /// The index in the log of `uncommon[position]`.
        package func logIndex(of position: Int) -> Int { log.otherPositions[position] }
    }

    private func kind(of header: Header) -> AppLogEntry.Kind {
        switch header.tag {
        case .other: others[Int(header.payload)]
        case .location: .location(archive.update(at: header.payload))
        case .didCommit: .didCommit(CommitID(Int(header.payload)))
        case .commitDurable:
            .commitDurable(CommitID(Int(header.payload)), rowCount: Int(header.rowCount))
        }
    }

    /// What every entry keeps, in 16 bytes: its instant, its payload, and in one word its
    /// process generation, the two states, its tag and a `commitDurable`'s row count.
    private struct Header: Sendable, Equatable {
        var instant: Instant
        /// The commit (`didCommit`, `commitDurable`), the update's slot in the archive, or the
        /// index in `others`.
        var payload: UInt32
        /// Bits 0..<20 the generation (`generationSaturated`: look in `largeGenerations`),
        /// 20..<23 the app's state, 23..<26 the process's, 26..<28 the tag, 28..<32 the row
        /// count of a `commitDurable`.
        private var word: UInt32

        static let generationSaturated: UInt32 = (1 << 20) - 1
        /// The most rows a packed `commitDurable` counts.
        static let rowCountMax = 15

        init(
            instant: Instant, payload: UInt32, rowCount: UInt32, generation: UInt32,
            appState: ProcessState, processState: ProcessState, tag: Tag
        ) {
            self.instant = instant
            self.payload = payload
            word =
                Swift.min(generation, Self.generationSaturated) | caseNumber(appState) << 20
                | caseNumber(processState) << 23 | UInt32(tag.rawValue) << 26 | rowCount << 28
        }

        /// The generation, or `generationSaturated` when it is that or more.
        var generation: UInt32 { word & Self.generationSaturated }
        var appState: ProcessState { caseNumbered(word >> 20 & 7) }
        var processState: ProcessState { caseNumbered(word >> 23 & 7) }
        var tag: Tag { Tag(rawValue: UInt8(truncatingIfNeeded: word >> 26) & 3) ?? .other }
        /// The row count of a `commitDurable`.
        var rowCount: UInt32 { word >> 28 }
    }

    private enum Tag: UInt8, Sendable {
        case other, location, didCommit, commitDurable
    }
}

/// The case number of `value`, an enum without payloads (`ProcessState`, `FixSource`): Swift
/// lays one out in a byte, its cases numbered from 0 in declaration order. The log's packed
/// words hold these numbers.
@inline(__always)
func caseNumber<Case>(_ value: Case) -> UInt32 {
    UInt32(unsafeBitCast(value, to: UInt8.self))
}

/// The case numbered `number` (`caseNumber`), which must be one of `Case`'s.
@inline(__always)
func caseNumbered<Case>(_ number: UInt32) -> Case {
    unsafeBitCast(UInt8(truncatingIfNeeded: number), to: Case.self)
}
