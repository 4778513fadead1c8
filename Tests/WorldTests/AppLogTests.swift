// The compact log reads back every entry exactly as it was appended: the packed kinds at
// their edges, the kinds kept whole, and across its segments.
import Simulation
import Testing

@testable import World

@Suite("The app's log, held compactly")
struct AppLogTests {
    /// `first` and `second` are the same entry: every field, a location's update compared
    /// exactly (its description rounds), any other kind by its description.
    func same(_ first: AppLogEntry, _ second: AppLogEntry) -> Bool {
        guard
            first.instant == second.instant, first.generation == second.generation,
            first.appState == second.appState, first.processState == second.processState
        else { return false }
        switch (first.kind, second.kind) {
        case (.location(let one), .location(let other)): return one == other
        case (.location, _), (_, .location): return false
        default: return "\(first.kind)" == "\(second.kind)"
        }
    }

    func entry(_ seconds: Int64, _ kind: AppLogEntry.Kind, generation: Int = 1) -> AppLogEntry {
        AppLogEntry(
            instant: .start + .seconds(seconds), generation: generation, appState: .background,
            processState: .suspended, kind: kind)
    }

    let fix = Fix(
        instant: .start + .milliseconds(1_500),
        coordinate: Coordinate(latitude: -33.8688, longitude: -0.0),
        horizontalAccuracyMeters: 4.75, source: .wifi, speedMetersPerSecond: -1)

    @Test("every packed kind and its edges, and kinds kept whole, read back as appended")
    func entriesReadBackExactly() {
        let entries = [
            entry(0, .lifecycle(.background)),
            entry(1, .location(LocationUpdate(channel: .manager(ObjectID(3)), fix: fix))),
            entry(
                2,
                .location(
                    LocationUpdate(
                        channel: .liveUpdates(ObjectID(Int.max)), fix: nil,
                        diagnostics: [.stationary, .locationUnavailable]))),
            entry(
                3,
                .location(
                    LocationUpdate(
                        channel: .liveUpdates(ObjectID(7)), fix: fix,
                        diagnostics: LocationDiagnostics(rawValue: Int(UInt32.max) + 1)))),
            entry(4, .didCommit(CommitID(0)), generation: 0),
            entry(5, .didCommit(CommitID(Int(UInt32.max) + 1))),
            entry(6, .commitDurable(CommitID(Int(UInt32.max)), rowCount: 3)),
            entry(7, .commitDurable(CommitID(2), rowCount: Int(UInt32.max) + 1)),
            entry(8, .didCommit(CommitID(-1))),
            entry(9, .willTerminate, generation: Int(UInt32.max)),
        ]
        let log = AppLog(entries)
        #expect(log.count == entries.count)
        for (index, appended) in entries.enumerated() {
            #expect(same(log[index], appended), "entry \(index): \(log[index]) for \(appended)")
        }
        // Kept whole: every kind but the three packed, and those three where a value does not
        // fit (a channel's object past 32 bits, diagnostics past 24, a commit past 32, a row
        // count past 15). `uncommon` lists exactly these, in order, where the rarer kinds are
        // looked for.
        let uncommon = log.uncommon
        let whole = [0, 2, 3, 5, 7, 8, 9]
        #expect(uncommon.indices.map { uncommon.logIndex(of: $0) } == whole)
        #expect(zip(uncommon, whole.map { entries[$0] }).allSatisfy { same($0, $1) })
        assertFieldReadsAgree(log)
    }

    @Test(
        "two logs' packed entries are the same only with the same stamp and commit or update; entries kept whole are never vouched for"
    )
    func samePackedEntry() {
        var moved = fix
        moved.coordinate.latitude += 1e-9
        let base = [
            entry(1, .location(LocationUpdate(channel: .manager(ObjectID(3)), fix: fix))),
            entry(2, .didCommit(CommitID(4))),
            entry(3, .commitDurable(CommitID(4), rowCount: 2)),
            entry(4, .willTerminate),
        ]
        // Each entry of `base` changed in one field: none is the same any more.
        let changed = [
            entry(1, .location(LocationUpdate(channel: .manager(ObjectID(3)), fix: moved))),
            entry(2, .didCommit(CommitID(5))),
            entry(3, .commitDurable(CommitID(4), rowCount: 3)),
            entry(4, .willTerminate),
        ]
        let restamped = base.map {
            var entry = $0
            entry.generation = 2
            return entry
        }
        let log = AppLog(base)
        let again = AppLog(base)
        // The same three packed entries are vouched for, across two archives; the entry kept
        // whole (`willTerminate`) is left to the caller even when it is the same.
        #expect(
            base.indices.map { log.isSamePackedEntry(at: $0, in: again) } == [
                true, true, true, false,
            ])
        #expect(
            base.indices.map { log.isSamePackedEntry(at: $0, in: AppLog(changed)) } == [
                false, false, false, false,
            ])
        #expect(
            base.indices.map { log.isSamePackedEntry(at: $0, in: AppLog(restamped)) } == [
                false, false, false, false,
            ])
    }

    /// The reads by field (`stamp`, `routine`, `locationUpdate`, `durableRowCount`) say what the
    /// whole entry says, at every index.
    func assertFieldReadsAgree(_ log: AppLog) {
        for index in log.indices {
            let entry = log[index]
            let stamp = log.stamp(at: index)
            #expect(stamp.instant == entry.instant && stamp.generation == entry.generation)
            #expect(stamp.appState == entry.appState && stamp.processState == entry.processState)
            switch (entry.kind, log.routine(at: index)) {
            case (.location(let update), .location(let hasFix)):
                #expect(hasFix == (update.fix != nil))
                #expect(log.locationUpdate(at: index) == update)
            case (.didCommit, .didCommit): #expect(log.locationUpdate(at: index) == nil)
            case (.commitDurable(_, let rowCount), .commitDurable(let read)):
                #expect(read == rowCount && log.durableRowCount(at: index) == rowCount)
            case (.location, _), (.didCommit, _), (.commitDurable, _):
                Issue.record("entry \(index), \(entry.kind), read as another routine kind")
            case (_, .other):
                #expect(log.locationUpdate(at: index) == nil)
                #expect(log.durableRowCount(at: index) == nil)
            case (_, let routine):
                Issue.record("entry \(index), \(entry.kind), read as \(routine)")
            }
        }
    }

    @Test("a packed update: every source, both channels, diagnostics and objects at their edges")
    func packedUpdateReadsBack() {
        var entries: [AppLogEntry] = []
        for (offset, source) in [FixSource.gnss, .wifi, .cell].enumerated() {
            var sourced = fix
            sourced.source = source
            for channel in [
                LocationUpdate.Channel.manager(ObjectID(Int(UInt32.max))),
                .liveUpdates(ObjectID(0)),
            ] {
                entries.append(
                    entry(
                        Int64(offset),
                        .location(
                            LocationUpdate(
                                channel: channel, fix: sourced,
                                diagnostics: LocationDiagnostics(rawValue: (1 << 24) - 1)))))
            }
        }
        // Past the packed fields: kept whole, read back the same.
        entries.append(
            entry(
                5,
                .location(
                    LocationUpdate(
                        channel: .manager(ObjectID(Int(UInt32.max) + 1)), fix: fix))))
        entries.append(
            entry(
                6,
                .location(
                    LocationUpdate(
                        channel: .manager(ObjectID(1)), fix: nil,
                        diagnostics: LocationDiagnostics(rawValue: 1 << 24)))))
        let log = AppLog(entries)
        for (index, appended) in entries.enumerated() {
            #expect(same(log[index], appended), "entry \(index): \(log[index]) for \(appended)")
        }
        #expect(log.uncommon.indices.map { log.uncommon.logIndex(of: $0) } == [6, 7])
        assertFieldReadsAgree(log)
    }

    @Test("a header's packed word: every state, generations past 20 bits, row counts to 15")
    func headerWordReadsBack() {
        let saturated = (1 << 20) - 1
        var entries: [AppLogEntry] = []
        for (offset, appState) in ProcessState.allCases.enumerated() {
            for processState in ProcessState.allCases {
                entries.append(
                    AppLogEntry(
                        instant: .start + .seconds(Int64(offset)), generation: offset,
                        appState: appState, processState: processState,
                        kind: .didCommit(CommitID(offset))))
            }
        }
        // Generations below, at and past the packed field's last value, out of order, then an
        // ordinary one after them.
        for generation in [saturated - 1, saturated, saturated + 1, saturated + 7, 2, saturated] {
            entries.append(
                entry(10, .commitDurable(CommitID(1), rowCount: 15), generation: generation))
        }
        entries.append(entry(11, .commitDurable(CommitID(2), rowCount: 16)))
        entries.append(entry(12, .commitDurable(CommitID(3), rowCount: 0)))
        let log = AppLog(entries)
        for (index, appended) in entries.enumerated() {
            #expect(same(log[index], appended), "entry \(index): \(log[index]) for \(appended)")
        }
        // Only the 16-row commit does not fit its header.
        #expect(log.uncommon.indices.map { log.uncommon.logIndex(of: $0) } == [entries.count - 2])
        assertFieldReadsAgree(log)
    }

    @Test("a log across many segments reads back in order")
    func entriesAcrossSegments() {
        // Segments hold 8,192 entries and 4,096 updates: 20,001 entries cross both.
        let entries = (0..<20_001).map { index -> AppLogEntry in
            var located = fix
            located.instant = .start + .seconds(Int64(index))
            let kind: AppLogEntry.Kind =
                switch index % 3 {
                case 0: .location(LocationUpdate(channel: .manager(ObjectID(index)), fix: located))
                case 1: .commitDurable(CommitID(index), rowCount: 1)
                default: .didCommit(CommitID(index))
                }
            return entry(Int64(index), kind, generation: 1 + index / 5_000)
        }
        let log = AppLog(entries)
        #expect(log.count == 20_001)
        #expect(zip(log, entries).allSatisfy { same($0, $1) })
        #expect(log.indices == entries.indices)
        assertFieldReadsAgree(log)
    }

    @Test("a segmented array reads back across its segments")
    func segmentedArrayReadsBack() {
        var array = SegmentedArray<Int>(segmentShift: 2)
        for value in 0..<11 { array.append(value * 10) }
        #expect(array.count == 11)
        #expect(Array(array) == (0..<11).map { $0 * 10 })
        #expect(array[4] == 40)
        #expect(array[10] == 100)
    }
}
