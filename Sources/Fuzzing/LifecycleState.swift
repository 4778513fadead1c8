// The abstract lifecycle state (layer 5): a finite summary of where the app stands at one entry
// of its log, the unit of the fuzzer's coverage.
import Invariants
import Simulation
import World

/// Where the app stands at one entry of its log, with every particular (which fix, which
/// instant, which object) abstracted away, so that there are finitely many states:
///
/// - the process's true state (suspended where UIKit would say background);
/// - the entry's kind in words (`LifecycleStates.kind(of:)`: a launch and its state, a fix, a
///   drop and its rule, a termination and its cause…), which makes the state say what just
///   happened as well as where the app is;
/// - the location services the running process holds in the daemon (`LocationService`,
///   replayed from its requests; a new process holds none until it asks again);
/// - the authorization, and whether protected data is readable (R-D9);
/// - whether a commit is in flight on the disk, and whether an upload is in flight on the
///   network.
///
/// A commit's issue is not in the trace (the app issues it inside a callback), so a commit
/// counts as in flight for `storeCommitDuration` before it became durable or was lost: exact
/// when the disk was idle when it was issued, a little short when it queued behind another.
///
/// Bounds: 5 process states × about 60 entry kinds × 2⁵ service sets × 4 authorizations × 2
/// × 2 × 2, so the set of states, and of transitions between them, is finite.
package struct LifecycleState: Hashable, Sendable {
    package var processState: ProcessState
    /// What just happened, in words (`kind(of:)`).
    package var entryKind: String { kind.text }
    var kind: EntryKind
    /// In `LocationService`'s order.
    package var services: [LocationService] {
        get { LocationService.allCases.filter { servicesMask & Self.bit(of: $0) != 0 } }
        set { servicesMask = newValue.reduce(0) { $0 | Self.bit(of: $1) } }
    }
    /// `services` as a set of bits, one per service in `LocationService`'s order: the walk
    /// keeps it as it goes, so that no entry builds or reads an array of services.
    var servicesMask: UInt64
    package var authorization: Authorization
    package var isDataReadable: Bool
    package var isCommitInFlight: Bool
    package var isUploadInFlight: Bool

    /// The state as one number, the same in every process (FNV-1a, never `hashValue`).
    package var key: UInt64 { Self.key(kind.hash, packed) }

    /// Every field but the kind, in one word: what `key` hashes after the kind's words.
    var packed: UInt64 {
        var packed = Self.ordinal(of: processState)
        packed |= servicesMask << 8
        packed |= Self.ordinal(of: authorization) << 16
        packed |= (isDataReadable ? 1 : 0) << 24
        packed |= (isCommitInFlight ? 1 : 0) << 25
        packed |= (isUploadInFlight ? 1 : 0) << 26
        return packed
    }

    /// The key of a state whose kind's words hash to `kindHash` and whose other fields are
    /// `packed`.
    static func key(_ kindHash: FNV1a64, _ packed: UInt64) -> UInt64 {
        var hash = kindHash
        hash.combine(word: packed)
        return hash.value
    }

    /// The key of the transition from `source` to `target` (keys of states).
    package static func transitionKey(from source: UInt64, to target: UInt64) -> UInt64 {
        var hash = FNV1a64()
        hash.combine(word: source)
        hash.combine(word: target)
        return hash.value
    }

    /// The state at each entry of `record`'s log, in order.
    package static func walk(_ record: RunRecord, _ visit: (LifecycleState) -> Void) {
        // The log is read field by field: building whole entries decoded each one's kind.
        let log = record.log
        var behind = BehindTheLog(record)
        var state = initial(record)
        for index in log.indices {
            let (stamp, routine) = log.stampAndRoutine(at: index)
            switch routine {
            case .didCommit: state.kind = .didCommit
            case .commitDurable: state.kind = .commitDurable
            case .location(let hasFix): state.kind = hasFix ? .fix : .updateWithoutLocation
            case .other: state.kind = step(&state, log[index].kind)
            }
            behind.fill(&state, at: stamp)
            visit(state)
        }
    }

    /// The key of the state at each entry of `record`'s log, in order: the keys of `walk`'s
    /// states, without making each state. The routine entries (a fix, a commit) take their
    /// kind's hash without copying the kind, and a key is hashed once for each kind and fields
    /// met lately (`StateKeyCache`).
    static func walkKeys(_ record: RunRecord, _ visit: (UInt64) -> Void) {
        let log = record.log
        var behind = BehindTheLog(record)
        var state = initial(record)
        var keys = StateKeyCache()
        let (fix, withoutFix, didCommit, commitDurable) = (
            EntryKind.fix.hash, EntryKind.updateWithoutLocation.hash, EntryKind.didCommit.hash,
            EntryKind.commitDurable.hash
        )
        for index in log.indices {
            let (stamp, routine) = log.stampAndRoutine(at: index)
            let kindHash: FNV1a64
            switch routine {
            case .didCommit: kindHash = didCommit
            case .commitDurable: kindHash = commitDurable
            case .location(let hasFix): kindHash = hasFix ? fix : withoutFix
            case .other:
                state.kind = step(&state, log[index].kind)
                kindHash = state.kind.hash
            }
            behind.fill(&state, at: stamp)
            visit(keys.key(kindHash, state.packed))
        }
    }

    /// The state before the first entry of `record`'s log.
    private static func initial(_ record: RunRecord) -> LifecycleState {
        LifecycleState(
            processState: .notRunning, kind: EntryKind(""), servicesMask: 0,
            authorization: record.configuration.authorization, isDataReadable: true,
            isCommitInFlight: false, isUploadInFlight: false)
    }

    // The case number of a `ProcessState`, `Authorization` or `LocationService` is its index in
    // `allCases`: each is an enum without payloads whose `allCases` Swift makes in declaration
    // order, and Swift numbers such an enum's cases from 0 in that order
    // (`LifecycleStateTests` checks it for every case). Read as a byte, not searched for in
    // `allCases` at every entry of every run's log.

    private static func ordinal(of state: ProcessState) -> UInt64 {
        UInt64(unsafeBitCast(state, to: UInt8.self))
    }

    private static func ordinal(of authorization: Authorization) -> UInt64 {
        UInt64(unsafeBitCast(authorization, to: UInt8.self))
    }

    static func bit(of service: LocationService) -> UInt64 {
        1 << UInt64(unsafeBitCast(service, to: UInt8.self))
    }

    /// What entry `index` of `log` changes in `state` (authorization, protected data) and its
    /// kind without particulars (`kind(of:)`), for an entry other than the routine ones.
    private static func step(_ state: inout LifecycleState, _ kind: AppLogEntry.Kind) -> EntryKind {
        switch kind {
        case .authorization(let value): state.authorization = value
        case .launch(let launch): state.isDataReadable = launch.protectedDataAvailable
        case .protectedDataAvailable: state.isDataReadable = true
        default: break
        }
        return Self.kind(of: kind)
    }

    /// The entry's kind without its particulars (which fix, which instant), in words, with
    /// its hash (`EntryKind`): the kinds without particulars are made once.
    static func kind(of kind: AppLogEntry.Kind) -> EntryKind {
        switch kind {
        case .launch(let launch): EntryKind("launch \(launch.state.rawValue)")
        case .lifecycle(let state): EntryKind("lifecycle \(state.rawValue)")
        case .location(let update): update.fix == nil ? .updateWithoutLocation : .fix
        case .failure(let error, _): EntryKind("failure \(error.rawValue)")
        case .monitoringFailure: .monitoringFailure
        case .monitoringStarted: .monitoringStarted
        case .regionState(_, let state, _): EntryKind("region state \(state.rawValue)")
        case .event(let event): EntryKind("event \(event.mechanism.rawValue)")
        case .authorization(let value): EntryKind("authorization \(value.rawValue)")
        case .accuracyAuthorization(let value): EntryKind("accuracy \(value.rawValue)")
        case .locationUpdatesPaused: .paused
        case .locationUpdatesResumed: .resumed
        case .backgroundTaskExpiring: .backgroundTaskExpiring
        case .dropped(_, let reason): EntryKind("dropped \(reason.rule)")
        case .unavailableAPI: .unavailableAPI
        case .crashed: .crashed
        case .killed(let cause): EntryKind("killed \(cause.rawValue)")
        case .protectedDataAvailable: .protectedDataAvailable
        case .didCommit: .didCommit
        case .commitDurable: .commitDurable
        case .rowsDeleted: .rowsDeleted
        case .commitLost(_, _, let reason): EntryKind("commit lost \(reason.rule)")
        case .savedRecordWritten: .savedRecordWritten
        case .savedRecordChangeLost(_, let reason):
            EntryKind("saved record change lost \(reason.rule)")
        case .uncommittedRowsLost: .uncommittedRowsLost
        case .storeUnavailable: .storeUnavailable
        case .uploadCompleted: .uploadCompleted
        case .sessionDiagnostic(_, let diagnostic):
            diagnostic.isActive ? .sessionActive : .sessionInactive
        case .monitorRecords: .monitorRecords
        case .timerFired: .timerFired
        case .timerEnded: .timerEnded
        case .willTerminate: .willTerminate
        case .trackingToggled(let on): on ? .trackingOn : .trackingOff
        case .wake(_, .appRefresh): .appRefresh
        case .wake(_, .remoteNotification): .remoteNotification
        case .wakeExpiring: .wakeExpiring
        case .wake(_, .backgroundURLSession): EntryKind("background session events")
        case .wake(_, .processing): EntryKind("processing")
        case .backgroundTransferCompleted(let event):
            EntryKind(
                "background transfer "
                    + (event.result == .accepted(alreadyAccepted: false) ? "accepted" : "ended"))
        case .backgroundSessionEventsFinished: EntryKind("background session events finished")
        case .answer(_, .temporaryFullAccuracy(let outcome)):
            EntryKind("temporary full accuracy \(outcome.rawValue)")
        case .answer(_, .pendingTaskRequests): EntryKind("pending task requests")
        case .answer(_, .networkPath(let satisfied)):
            EntryKind("network path \(satisfied ? "satisfied" : "unsatisfied")")
        }
    }
}

/// An entry's kind in words (`LifecycleState.kind(of:)`) with the hash of its words, which
/// `LifecycleState.key` goes on from: hashed once when the kind is made, not at every entry
/// of every run's log.
struct EntryKind: Hashable, Sendable {
    let text: String
    let hash: FNV1a64

    init(_ text: String) {
        self.text = text
        var hash = FNV1a64()
        hash.combine(text)
        self.hash = hash
    }

    static func == (left: EntryKind, right: EntryKind) -> Bool { left.text == right.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    static let fix = EntryKind("fix")
    static let updateWithoutLocation = EntryKind("update without location")
    static let monitoringFailure = EntryKind("monitoring failure")
    static let monitoringStarted = EntryKind("monitoring started")
    static let paused = EntryKind("paused")
    static let resumed = EntryKind("resumed")
    static let backgroundTaskExpiring = EntryKind("background task expiring")
    static let unavailableAPI = EntryKind("unavailable API")
    static let crashed = EntryKind("crashed")
    static let protectedDataAvailable = EntryKind("protected data available")
    static let didCommit = EntryKind("did commit")
    static let commitDurable = EntryKind("commit durable")
    static let rowsDeleted = EntryKind("rows deleted")
    static let savedRecordWritten = EntryKind("saved record written")
    static let storeUnavailable = EntryKind("store unavailable")
    static let uploadCompleted = EntryKind("upload completed")
    static let sessionActive = EntryKind("session active")
    static let sessionInactive = EntryKind("session inactive")
    static let monitorRecords = EntryKind("monitor records")
    static let timerFired = EntryKind("timer fired")
    static let timerEnded = EntryKind("timer ended")
    static let willTerminate = EntryKind("will terminate")
    static let uncommittedRowsLost = EntryKind("uncommitted rows lost")
    static let trackingOn = EntryKind("tracking on")
    static let trackingOff = EntryKind("tracking off")
    static let appRefresh = EntryKind("app refresh")
    static let remoteNotification = EntryKind("remote notification")
    static let wakeExpiring = EntryKind("wake expiring")
}

/// What runs behind the log as a walk goes through it entry by entry: the services held and the
/// uploads in flight (`RunRecord.backgroundChanges`), and the commits in flight (a commit counts
/// from `storeCommitDuration` before it ended, durable or lost).
private struct BehindTheLog {
    private let changes: [BackgroundChange]
    private let commitEnds: [Instant]  // sorted: the log is in time order
    private let commitDuration: VirtualDuration
    private var changeIndex = 0
    private var commitIndex = 0
    private var servicesGeneration = 0
    private var servicesMask: UInt64 = 0
    private var uploadsInFlight = 0

    init(_ record: RunRecord) {
        changes = record.backgroundChanges
        commitEnds = record.log.commitEndInstants()
        commitDuration = record.policy.storeCommitDuration
    }

    /// Sets `state`'s process state, services, commit and upload in flight for the entry
    /// stamped `stamp`, the next in the log.
    mutating func fill(_ state: inout LifecycleState, at stamp: AppLog.Stamp) {
        let instant = stamp.instant
        while changeIndex < changes.count, changes[changeIndex].instant <= instant {
            switch changes[changeIndex].kind {
            case .services(let generation, let held):
                servicesGeneration = generation
                servicesMask = held.reduce(0) { $0 | LifecycleState.bit(of: $1) }
            case .uploads(let inFlight): uploadsInFlight = inFlight
            }
            changeIndex += 1
        }
        while commitIndex < commitEnds.count, commitEnds[commitIndex] <= instant {
            commitIndex += 1
        }
        state.processState = stamp.processState
        state.servicesMask = servicesGeneration == stamp.generation ? servicesMask : 0
        state.isCommitInFlight =
            commitIndex < commitEnds.count && commitEnds[commitIndex] <= instant + commitDuration
        state.isUploadInFlight = uploadsInFlight > 0
    }
}

/// The keys of the states met lately (`LifecycleState.key(_:_:)`), one in each of sixteen slots
/// picked by the kind's hash and the fields: a run's log goes round a few states entry after
/// entry, whose keys are then hashed once.
private struct StateKeyCache {
    private var kindHashes = [UInt64](repeating: 0, count: Self.slotCount)
    private var packedFields = [UInt64](repeating: .max, count: Self.slotCount)  // none
    private var keys = [UInt64](repeating: 0, count: Self.slotCount)
    private static let slotCount = 16

    /// `LifecycleState.key(kindHash, packed)`.
    mutating func key(_ kindHash: FNV1a64, _ packed: UInt64) -> UInt64 {
        let slot = Int(
            truncatingIfNeeded: ((kindHash.value ^ packed) &* 0x9E37_79B9_7F4A_7C15) >> 60)
        if packedFields[slot] == packed && kindHashes[slot] == kindHash.value { return keys[slot] }
        let key = LifecycleState.key(kindHash, packed)
        (kindHashes[slot], packedFields[slot], keys[slot]) = (kindHash.value, packed, key)
        return key
    }
}
