// What a run record says about each process (layer 5): its launch and end, its state over time,
// the rows it stored and the location requests it made, derived once from the log and trace.
import Engines
import Simulation
import World

/// One process of a run, from its launch to its end.
public struct ProcessSpan: Sendable {
    /// 1 for the first launch.
    public var generation: Int
    public var launchedAt: Instant
    public var launch: LaunchContext
    /// When its saved data became readable: the launch, or the first unlock's callback after a
    /// launch before it (R-D9); nil if it never did.
    public var dataReadableAt: Instant?
    /// When and how it ended (its `killed` entry); nil when it outlived the run.
    public var endedAt: Instant?
    public var endCause: TerminationCause?
    /// When an Info.plist assertion crashed it (R-A9), if one did.
    public var crashedAt: Instant?
    /// Its states as the operating system told the location daemon, in order: the launch state
    /// first, then every foreground, background, suspended and terminated.
    public var states: [(instant: Instant, state: ProcessState)]

    /// True when the process was running (foreground or background) at some time in
    /// `[from, to]` for an unbroken stretch of at least `length`.
    public func runs(for length: VirtualDuration, within from: Instant, _ to: Instant) -> Bool {
        for (index, change) in states.enumerated() where change.state.isRunning {
            let next = index + 1 < states.count ? states[index + 1].instant : (endedAt ?? to)
            let start = max(change.instant, from)
            let end = min(next, to)
            if end - start >= length { return true }
        }
        return false
    }
}

/// A location request a process sent the daemon, as the daemon received it.
public struct LocationRequest: Sendable {
    public var instant: Instant
    public var traceIndex: Int
    public var generation: Int
    package var request: AppRequest
}

extension RunRecord {
    /// Every process of the run, in launch order: `processes[g - 1]` is generation `g`.
    /// Read from the log and the trace once, then kept (`DerivedViews`).
    public var processes: [ProcessSpan] {
        derived.value(\.processes) { readProcesses() }
    }

    /// Every fix row that reached the disk, in the order it did, each with the process that
    /// committed it: the rows on disk at the end, and the rows the app deleted before the end
    /// with their deletion. The log's `commitDurable` entries, in order, account for the rows
    /// in commit order, and its `rowsDeleted` entries for the rows removed. A fix is stored
    /// once it is durable: a deletion after that does not unstore it (`uploaded-once` judges
    /// when it came). Kept too.
    public var storedFixes: StoredFixes {
        derived.value(\.storedFixes) { readStoredFixes() }
    }

    /// Every location request the processes sent the daemon, in the order it received them
    /// (background tasks and prompts go to the operating system and are not here), gathered
    /// as the run went (`TraceDigest`).
    public var locationRequests: [LocationRequest] { digest.locationRequests }

    private func readProcesses() -> [ProcessSpan] {
        var spans: [ProcessSpan] = []
        for entry in log.uncommon {
            switch entry.kind {
            case .launch(let context):
                spans.append(
                    ProcessSpan(
                        generation: entry.generation, launchedAt: entry.instant, launch: context,
                        dataReadableAt: context.protectedDataAvailable ? entry.instant : nil,
                        states: []))
            case .protectedDataAvailable:
                update(&spans, entry.generation) { span in
                    if span.dataReadableAt == nil { span.dataReadableAt = entry.instant }
                }
            case .killed(let cause):
                update(&spans, entry.generation) { span in
                    span.endedAt = entry.instant
                    span.endCause = cause
                }
            case .crashed:
                update(&spans, entry.generation) { $0.crashedAt = $0.crashedAt ?? entry.instant }
            default: break
            }
        }
        // The operating system tells the daemon: only its deliveries are matched.
        // Matched in place, the case alone first: binding each record copied its message.
        let records = digest.daemonRecords
        for index in records.indices {
            guard case .processChanged = records[index].message,
                case .processChanged(let state, let generation, _) = records[index].message
            else { continue }
            let instant = records[index].instant
            update(&spans, generation) { $0.states.append((instant, state)) }
        }
        return spans
    }

    private func readStoredFixes() -> StoredFixes {
        if log.hasRowsDeleted { return readStoredFixesWithDeletions() }
        // The log's durable commits account for the rows on disk in order: each row's owner is
        // read as the rows are walked, without a list of owners first (a week's would take 10 MB, at
        // the peak of its check). Sized once, not grown (and copied) as it fills.
        var fixes = StoredFixes(
            rows: storedRows, readsRowFix: reader.readsRowFix, capacity: storedRows.count)
        var rowIndex = 0
        var known = true
        let rowCountOnDisk = storedRows.count
        log.forEachCommitDurable { stamp, rowCount in
            for _ in 0..<rowCount {
                guard rowIndex < rowCountOnDisk else {
                    known = false
                    return false
                }
                if let fix = fix(inStoredRow: rowIndex) {
                    fixes.append(
                        rowIndex: rowIndex, fix: fix, generation: stamp.generation,
                        durableAt: stamp.instant)
                }
                rowIndex += 1
            }
            return true
        }
        if known && rowIndex == storedRows.count { return fixes }
        // More or fewer rows than the log's commits (the world's design rules it out).
        fixes = StoredFixes(
            rows: storedRows, readsRowFix: reader.readsRowFix, capacity: storedRows.count)
        appendRowsOfUnknownOwner(to: &fixes)
        return fixes
    }

    /// Appends the fix of every row on disk, in order, with no process or durable instant: for
    /// a log whose commits do not account for the rows.
    private func appendRowsOfUnknownOwner(to fixes: inout StoredFixes) {
        for index in storedRows.indices {
            guard let fix = fix(inStoredRow: index) else { continue }
            fixes.append(rowIndex: index, fix: fix, generation: nil, durableAt: nil)
        }
    }

    /// `fix(in: storedRows[index])`, without making the row when the reader takes its fix.
    private func fix(inStoredRow index: Int) -> Fix? {
        reader.readsRowFix ? storedRows.fix(at: index) : fix(in: storedRows[index])
    }

    /// `readStoredFixes` for a run whose app deleted rows: the log replayed, each durable row
    /// followed to its deletion or to its place on disk at the end. Apart, so that a run without
    /// deletions (every built-in engine's) reads the log once, as before.
    private func readStoredFixesWithDeletions() -> StoredFixes {
        struct Durable {
            var generation: Int
            var instant: Instant
            var row: StoredRow?
            var rowIndex: Int?
            var deletion: RowDeletion?
        }
        var durable: [Durable] = []
        var onDisk: [Int] = []  // indices in `durable` of the rows on disk, in disk order
        for entry in log {
            switch entry.kind {
            case .commitDurable(_, let rowCount):
                for _ in 0..<rowCount {
                    onDisk.append(durable.count)
                    durable.append(Durable(generation: entry.generation, instant: entry.instant))
                }
            case .rowsDeleted(let commit, let rows, let positions):
                let deletion = RowDeletion(
                    commit: commit, generation: entry.generation, instant: entry.instant)
                for (row, position) in zip(rows, positions) where position < onDisk.count {
                    let index = onDisk.remove(at: position)
                    durable[index].row = row
                    durable[index].deletion = deletion
                }
            default: break
            }
        }
        let known = onDisk.count == storedRows.count
        if known {
            for (rowIndex, index) in onDisk.enumerated() {
                durable[index].row = storedRows[rowIndex]
                durable[index].rowIndex = rowIndex
            }
        }
        // A deleted row is no longer on the disk: every fix is kept.
        var fixes = StoredFixes(rows: storedRows, readsRowFix: false, capacity: durable.count)
        for entry in durable {
            guard let row = entry.row, let fix = fix(in: row) else { continue }
            fixes.append(
                rowIndex: entry.rowIndex, fix: fix, generation: entry.generation,
                durableAt: entry.instant, deletion: entry.deletion)
        }
        if !known { appendRowsOfUnknownOwner(to: &fixes) }  // the world's design rules it out
        return fixes
    }

    /// The engine events of process `generation`, in order.
    public func events(of generation: Int) -> [StampedEngineEvent] {
        // No process has a generation below 1; a record made from parts might, all the same.
        guard generation >= 1 else { return engineEvents.filter { $0.generation == generation } }
        let byGeneration = derived.value(\.eventsByGeneration) { readEventsByGeneration() }
        return generation <= byGeneration.count ? byGeneration[generation - 1] : []
    }

    /// `engineEvents` split by process, in order: element `g - 1` holds generation `g`'s
    /// (the invariants ask for each process's events several times).
    private func readEventsByGeneration() -> [[StampedEngineEvent]] {
        // Counted first, so that each process's array is allocated once at its size instead
        // of growing by doubling; the events are read in place (binding each copied it).
        var counts: [Int] = []
        for index in engineEvents.indices where engineEvents[index].generation >= 1 {
            let generation = engineEvents[index].generation
            while counts.count < generation { counts.append(0) }
            counts[generation - 1] += 1
        }
        var byGeneration = counts.map { count in
            var events: [StampedEngineEvent] = []
            events.reserveCapacity(count)
            return events
        }
        for index in engineEvents.indices where engineEvents[index].generation >= 1 {
            byGeneration[engineEvents[index].generation - 1].append(engineEvents[index])
        }
        return byGeneration
    }

    private func update(
        _ spans: inout [ProcessSpan], _ generation: Int, _ change: (inout ProcessSpan) -> Void
    ) {
        guard generation >= 1, generation <= spans.count else { return }
        change(&spans[generation - 1])
    }
}

/// The world's actor indices (`World.operatingSystem`, `daemon`, `app`, `network`), for
/// reading the trace without a world.
enum WorldActors {
    static let operatingSystemIndex: UInt32 = 0
    static let daemonIndex: UInt32 = 1
    static let appIndex: UInt32 = 2
    static let networkIndex: UInt32 = 3
}
