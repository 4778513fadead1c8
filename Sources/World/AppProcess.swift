// The app's process as an actor (layer 3): makes a fresh engine at every launch, hands it what
// the system delivers, sends its requests on, and logs what the app saw.
import Simulation
import VirtualConcurrency

/// One thing the app saw or did, with the instant and the process's state then.
public struct AppLogEntry: Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        case launch(LaunchContext)
        case lifecycle(ProcessState)
        case location(LocationUpdate)
        case failure(LocationError, ObjectID)
        case monitoringFailure(region: String, LocationError, ObjectID)
        case monitoringStarted(region: String, ObjectID)
        case regionState(region: String, ConditionState, ObjectID)
        case event(MonitoringEvent)
        case authorization(Authorization)
        case accuracyAuthorization(AccuracyAuthorization)
        case locationUpdatesPaused(ObjectID)
        case locationUpdatesResumed(ObjectID)
        case backgroundTaskExpiring(ObjectID)
        /// Something meant for the app that never reached its code, and why.
        case dropped(AppItem, DropReason)
        /// The engine called an API the modelled iOS version lacks; the call did nothing.
        case unavailableAPI(CoreLocationAPI)
        case crashed(String)
        case killed(TerminationCause)
        case protectedDataAvailable
        /// The engine's `storeDidCommit` ran.
        case didCommit(CommitID)
        /// A commit completed: its rows are on disk (whether or not the app is told).
        case commitDurable(CommitID, rowCount: Int)
        /// A commit that completed removed these rows (`Store.delete`), each with the index it
        /// had among the disk's rows when it was removed, in order (after the commit's own rows
        /// were added, and after the removals before it). Logged right after its
        /// `commitDurable`.
        case rowsDeleted(CommitID, [StoredRow], positions: [Int])
        /// A commit in flight when the process ended: none of its rows reached the disk.
        case commitLost(CommitID, rowCount: Int, DropReason)
        /// Changes to the saved record reached the disk.
        case savedRecordWritten(keys: [String])
        /// Changes to the saved record that never reached the disk, and why.
        case savedRecordChangeLost(keys: [String], DropReason)
        /// Rows the engine inserted into its store and never committed, still in the open
        /// transaction when the process ended: the app's own loss, whatever ended it (a
        /// correct engine commits in the callback that inserts, so its transaction is empty
        /// between callbacks).
        case uncommittedRowsLost([StoredRow], TerminationCause)
        /// `openStore()` failed.
        case storeUnavailable(StoreError)
        /// The engine's `didCompleteUpload` ran.
        case uploadCompleted(UploadTaskID, UploadResult)
        /// A session object was handed its new diagnostic.
        case sessionDiagnostic(ObjectID, SessionDiagnostic)
        /// A `Monitor` object was handed the daemon's records of its conditions.
        case monitorRecords(monitor: String, [MonitorRecord])
        /// The engine's `timerDidFire` ran.
        case timerFired(ObjectID)
        /// A timer still pending when the process ended: it never fired.
        case timerEnded(ObjectID, TerminationCause)
        /// The engine's `applicationWillTerminate` ran.
        case willTerminate
        /// The engine's `userDidSetTracking` ran: the user turned tracking on or off
        /// (`UserAction.trackingOn`, `.trackingOff`).
        case trackingToggled(on: Bool)
        /// The engine's `didBeginWake` ran (R-H1, R-H4).
        case wake(WakeTaskID, WakeKind)
        /// The engine's `wakeWillExpire` ran (R-H3).
        case wakeExpiring(WakeTaskID)
        /// The engine's `didCompleteBackgroundTransfer` ran (R-H5–R-H7).
        indirect case backgroundTransferCompleted(BackgroundTransferEvent)
        /// The engine's `backgroundSessionDidFinishEvents` ran (R-H6).
        indirect case backgroundSessionEventsFinished(session: String)
        /// The system's answer to a request the app made with a completion handler reached
        /// the app (`SystemAnswer`): the completion ran, if the process still had it.
        indirect case answer(request: ObjectID, SystemAnswer)
    }

    public var instant: Instant
    /// The process generation (1 for the first launch).
    public var generation: Int
    /// The app's state as UIKit would report it (foreground or background while running).
    public var appState: ProcessState
    /// The process's true state then: suspended where `appState` reads background.
    public var processState: ProcessState
    public var kind: Kind

    public var description: String {
        "\(instant) process \(generation) \(appState.rawValue): \(kind)"
    }
}

extension AppLogEntry.Kind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .launch(let context): "launch \(context)"
        case .lifecycle(let state): "lifecycle \(state.rawValue)"
        case .location(let update): AppItem.location(update).description
        case .failure(let error, let manager): AppItem.failure(error, manager: manager).description
        case .monitoringFailure(let region, let error, let manager):
            AppItem.monitoringFailure(region: region, error, manager: manager).description
        case .monitoringStarted(let region, let manager):
            AppItem.monitoringStarted(region: region, manager: manager).description
        case .regionState(let region, let state, let manager):
            AppItem.regionState(region: region, state, manager: manager).description
        case .event(let event): AppItem.event(event).description
        case .authorization(let value): AppItem.authorization(value).description
        case .accuracyAuthorization(let value): AppItem.accuracyAuthorization(value).description
        case .locationUpdatesPaused(let manager):
            AppItem.locationUpdatesPaused(manager: manager).description
        case .locationUpdatesResumed(let manager):
            AppItem.locationUpdatesResumed(manager: manager).description
        case .backgroundTaskExpiring(let task): AppItem.backgroundTaskExpiring(task).description
        case .crashed(let reason): "crashed: \(reason)"
        case .killed(let cause): "killed (\(cause.rawValue))"
        case .protectedDataAvailable: AppItem.protectedDataAvailable.description
        case .didCommit(let commit): AppItem.storeDidCommit(commit).description
        case .commitDurable(let commit, let rowCount): "\(commit) durable (\(rowCount) rows)"
        case .rowsDeleted(let commit, let rows, _): "\(commit) deleted \(rows.count) rows"
        case .commitLost(let commit, let rowCount, let reason):
            "lost \(StorageLoss.commit(commit, rowCount: rowCount)): \(reason)"
        case .savedRecordWritten(let keys):
            "saved record written [\(keys.joined(separator: ", "))]"
        case .savedRecordChangeLost(let keys, let reason):
            "lost \(StorageLoss.savedRecordChange(keys: keys)): \(reason)"
        case .uncommittedRowsLost(let rows, let cause):
            "lost \(StorageLoss.uncommittedRows(rowCount: rows.count)) with the process "
                + "(\(cause.rawValue)): never committed"
        case .storeUnavailable(let error): "store cannot be opened: \(error)"
        case .uploadCompleted(let task, let result):
            AppItem.uploadCompleted(task, result).description
        case .sessionDiagnostic(let session, let diagnostic):
            AppItem.sessionDiagnostic(session, diagnostic).description
        case .monitorRecords(let monitor, let records):
            AppItem.monitorRecords(monitor: monitor, records).description
        case .dropped(let item, let reason): "dropped \(item): \(reason)"
        case .timerFired(let timer): AppItem.timerFired(timer).description
        case .willTerminate: "will terminate"
        case .trackingToggled(let on): AppItem.trackingToggled(on: on).description
        case .wake(let task, let kind): AppItem.wake(task, kind).description
        case .wakeExpiring(let task): AppItem.wakeExpiring(task).description
        case .backgroundTransferCompleted(let event):
            AppItem.backgroundTransferCompleted(event).description
        case .backgroundSessionEventsFinished(let session):
            AppItem.backgroundSessionEventsFinished(session: session).description
        case .answer(let request, let answer):
            AppItem.answer(request: request, answer).description
        case .timerEnded(let timer, let cause):
            "timer \(timer) ended with the process (\(cause.rawValue))"
        case .unavailableAPI(let api):
            "\(api.rawValue) is unavailable before iOS \(api.introducedInVersion): the call did nothing"
        }
    }
}

/// The app under test as the operating system runs it.
///
/// A launch creates a new engine (nothing in memory survives the process). Everything the
/// system has for the app passes through one `AppMailbox`, which delivers it, holds it, or
/// drops it with a reason recorded in the trace (a `dropped` message) and the log. The engine's
/// requests go to the daemon and the operating system in order, after the callback; an
/// Info.plist assertion in a call ends the process at once (R-A9).
///
/// The app's data lives on the device's `Disk`, which this actor owns and which outlives every
/// process: commits complete `storeCommitDuration` after they are issued (even while the
/// process is suspended: the I/O was issued), and the saved record is written
/// `savedRecordWriteDelay` after a change. A termination loses the commits and the changes not
/// yet on disk by its instant (but for a normal end after `applicationWillTerminate`, which
/// writes the saved record's changes first, R-S3), each recorded (a `lost` message in the trace, an
/// entry in the log) with the rule that loses it (R-A1; R-F3 for memory). The data is
/// protected from a boot until the first unlock (R-D9): the actor learns it from the reboot, the
/// launch context and the unlock's callback, all sent by the operating system on one channel.
final class AppProcess: SimulationActor, DiskViewSource {
    private let makeEngine: () -> any AppEngine
    /// `EngineCallbackObserver.observe` as it was when this world was made: read once here,
    /// not at every callback (each read of the global checked exclusivity at run time).
    private let callbackObserver = EngineCallbackObserver.observe
    /// What the system keeps for the app across its processes (R-G2, R-G5), handed to every
    /// process's services to read.
    private let system = SystemRecord()
    private let capabilities: AppCapabilities
    private let policy: IOSPolicy
    /// The authorization and accuracy authorization as the system has told the app: from the
    /// launch and each item received (`LocationManager.authorizationStatus`).
    private var authorization = Authorization.notDetermined
    private var accuracy: AccuracyAuthorization
    /// Low Power Mode as the user last set it (told by the operating system; it turns
    /// Background App Refresh off, R-H13).
    private var lowPowerMode = false
    /// Background App Refresh as the user last set it (R-H12; told by the operating system).
    private var backgroundRefresh = true
    /// Location Services for the whole phone as the user last set it (R-L40; told by the
    /// operating system).
    private var locationServicesEnabled = true
    /// The background time the operating system last told a process, and which (R-F1).
    private var backgroundTime: (generation: Int, report: BackgroundTimeReport)?
    /// The current boot's time: set at each reboot.
    private var bootTime: BootTime
    /// How far the wall clock was set away from virtual time (`adjustClock`): it moves the
    /// boot time the app reads (`kern.boottime` is the wall clock less the uptime).
    private var clockAdjustment = VirtualDuration.zero
    /// The device's sleep since the boot, which the uptime leaves out.
    private var sleep = DeviceSleep()
    private let os: ActorID
    private let daemon: ActorID
    private let network: ActorID
    /// Upload requests of the current process sent to the network and not yet answered: a
    /// suspension (outside a background task, R-D13) or an ending cancels them.
    private var uploadsInFlight: [UploadTaskID] = []
    /// Some process of the app handed the system a background upload: a force-quit cancels
    /// the app's background transfers (R-H7). Nothing is sent for an app that never made one.
    private var madeBackgroundUploads = false
    /// The current process made a background upload from data, which fails when the process
    /// ends (R-H5).
    private var madeBackgroundUploadsFromData = false
    private var engine: (any AppEngine)?
    private var mailbox: AppMailbox
    private var heldEventsExpiry: EventHandle?
    /// Boots the app has seen: an event from an earlier one is dropped (R-B7).
    private var bootCount = 0
    /// The services the current process's engine calls (one per process: object ids count on).
    private var services: LocationServices?
    /// Everything the app saw, in order. Unchecked: only `record` writes it, never from inside
    /// another access to it (a checked access cost a runtime call at every entry, and moving it
    /// out and back, as `changeMailbox` does, a retain and release of each of its arrays).
    @exclusivity(unchecked) private(set) var log: AppLog
    /// The app's data on the device: it outlives every process.
    private(set) var disk: Disk
    /// The app's files on the device (its container): they outlive every process.
    let files = DeviceFiles()
    /// The saved record's pending write: when it is due, and its timer.
    private var savedRecordWrite: (due: Instant, timer: EventHandle)?
    /// The current process's timers not yet due, in the order scheduled.
    private var engineTimers: [(timer: ObjectID, handle: EventHandle)] = []
    /// The current process's Swift concurrency (VirtualConcurrency, docs/concurrency.md): the
    /// jobs and sleeps its code made, run at the end of each callback and when a sleep is due,
    /// dropped when the process ends. A fresh one at each launch.
    private var concurrency = VirtualProcess()
    /// The device's motion coprocessor, which every process of the app reads (R-M1).
    private let motion: MotionCoprocessor?
    /// The device's battery, which every process of the app reads (R-B1).
    private let battery: Battery?
    /// The beacons along the route, which every process of the app may hear (R-L45).
    private let beacons: BeaconField?
    /// Picks among jobs due at one instant: from the run's ordering choices, nil for FIFO.
    private let concurrencyPick: ((Int) -> Int)?
    /// The wake of the current process's earliest sleep: its instant and its timer.
    private var concurrencyWake: (due: Instant, timer: EventHandle)?

    init(
        makeEngine: @escaping () -> any AppEngine, capabilities: AppCapabilities,
        policy: IOSPolicy, accuracy: AccuracyAuthorization, uptimeAtStart: VirtualDuration,
        os: ActorID, daemon: ActorID, network: ActorID, fixArchive: FixArchive,
        motion: MotionCoprocessor? = nil, battery: Battery? = nil, beacons: BeaconField? = nil,
        concurrencyChoices: (any ChoiceSource)? = nil
    ) {
        self.beacons = beacons
        self.motion = motion
        self.battery = battery
        log = AppLog(archive: fixArchive)
        disk = Disk(archive: fixArchive)
        self.accuracy = accuracy
        concurrencyPick = concurrencyChoices.map { choices in
            { count in Int(choices.choose(atMost: UInt64(count - 1))) }
        }
        bootTime = BootTime(sinceStart: .zero - uptimeAtStart)
        self.makeEngine = makeEngine
        self.capabilities = capabilities
        self.policy = policy
        self.os = os
        self.daemon = daemon
        self.network = network
        mailbox = AppMailbox(heldCountMax: policy.queuedUpdateCountMax)
    }

    private var generation: Int { mailbox.generation }

    /// Items the mailbox holds now.
    var heldCount: Int { mailbox.heldCount }

    func receive(_ message: WorldMessage, context: inout Scheduler<WorldMessage>) {
        switch message {
        case .launch(let launch, let generation):
            changeMailbox { $0.launched(generation: generation, into: launch.state) }
            // The last process's services go inside its ended concurrency: what their release
            // resumes is dropped with it.
            release(services.take(), as: concurrency, context.now)
            concurrency = VirtualProcess(pick: concurrencyPick)
            uploadsInFlight.removeAll()
            madeBackgroundUploadsFromData = false
            disk.protectedDataAvailable = launch.protectedDataAvailable
            files.firstUnlocked = launch.protectedDataAvailable
            let services = LocationServices(
                capabilities: capabilities, systemVersion: policy.systemVersion, nextObjectID: 1,
                system: system)
            services.storage.diskSource = self
            services.files = files
            services.motion = motion
            services.battery = battery
            services.beacons = beacons
            services.processNumber = generation
            self.services = services
            authorization = launch.authorization
            accuracy = launch.accuracyAuthorization
            let makeEngine = makeEngine
            engine = asConcurrency(concurrency, context.now) { makeEngine() }
            record(.launch(launch), context.now)
            call(&context) { $0.didLaunch(launch, services: $1) }
            runAgain(&context)
        case .lifecycle(let state, let generation) where generation == self.generation:
            changeMailbox { $0.moved(to: state) }
            record(.lifecycle(state), context.now)
            call(&context) { $0.lifecycleChanged(to: state, services: $1) }
            runAgain(&context)
        case .suspended(let generation) where generation == self.generation:
            changeMailbox { $0.moved(to: .suspended) }
            cancelExpiry(&context)
            // A background task would have kept the process running (R-D13).
            cancelUploads(.suspendedWithoutBackgroundTask, &context)
        case .resumed(let generation) where generation == self.generation:
            changeMailbox { $0.moved(to: .background) }
            runAgain(&context)
            // Sleeps that came due while the process was suspended run now.
            if concurrency.hasDueJobs(at: context.now.nanosecondsSinceStart) {
                call(&context) { _, _ in }
            }
        case .kill(let cause, let generation)
        where generation == self.generation && mailbox.state.exists:
            // The operating system's lifecycle messages share the kill's channel, so the
            // mailbox's state is the state the kill found.
            let endsNormally =
                cause == .forceQuit && mailbox.state.isRunning && policy.willTerminateOnForceQuit
            if endsNormally {
                record(.willTerminate, context.now)
                call(&context) { $0.applicationWillTerminate(services: $1) }
            }
            record(.killed(cause), context.now)
            endConcurrency(&context)
            cancelExpiry(&context)
            settleDisk(ending: cause, normally: endsNormally, &context)
            cancelUploads(.processEnded(cause), &context)
            cancelBackgroundTransfers(ending: cause, &context)
            endTimers(cause, &context)
            for item in changeMailbox({ $0.ended(cause) }) {
                drop(item, .processEnded(cause), &context)
            }
            switch cause {
            case .idle:
                // Launched for these events, the process never listened for them (R-A12).
                dropHeldEvents(.noListener, &context)
            case .reboot:
                break  // the boot drops them (`deviceRebooted` follows on the same channel)
            default:
                askToWakeForHeldEvents(&context)
            }
        case .deviceRebooted:
            bootCount += 1
            bootTime = BootTime(sinceStart: context.now - .start)
            sleep = DeviceSleep(asleepSince: context.now)  // booted to the lock screen
            disk.protectedDataAvailable = false
            files.firstUnlocked = false
            files.locked = true  // booted to the lock screen
            cancelExpiry(&context)
            dropHeldEvents(.reboot, &context)
        case .wakeRefused(let mechanism, let reason) where !mailbox.state.isRunning:
            for event in changeMailbox({ $0.takeHeldEvents(for: mechanism) }) {
                drop(.event(event), reason, &context)
            }
        case .deliver(let item, let generation, let withheld, let boot):
            // What the system keeps across processes (R-G2, R-G5), whatever becomes of it.
            system.note(item)
            // The unlock makes the disk readable whether or not the app's code is told now.
            if case .protectedDataAvailable = item {
                disk.protectedDataAvailable = true
                files.firstUnlocked = true
            }
            if case .authorization(let value) = item { authorization = value }
            if case .accuracyAuthorization(let value) = item { accuracy = value }
            // Granted temporary full accuracy holds when the completion runs (the daemon tells
            // the delegates right after).
            if case .answer(_, .temporaryFullAccuracy(.granted)) = item,
                generation == self.generation
            {
                accuracy = .full
            }
            if case .uploadCompleted(let task, _) = item, generation == self.generation {
                uploadsInFlight.removeAll { $0 == task }
            }
            if let withheld { return drop(item, withheld, &context) }
            // An event sent before a reboot that reached the mailbox after it (R-B7).
            if let boot, boot < bootCount { return drop(item, .reboot, &context) }
            route(item, for: generation, &context)
        case .backgroundTime(let report, let generation):
            backgroundTime = (generation, report)
        case .user(.setLowPowerMode(let enabled)):
            lowPowerMode = enabled
        case .user(.setBackgroundRefresh(let enabled)):
            backgroundRefresh = enabled
        case .user(.setLocationServices(let enabled)):
            locationServicesEnabled = enabled
        case .networkCondition(let up):
            for watcher in services?.pathWatchers.map(\.watcher) ?? [] {
                route(
                    .answer(request: watcher, .networkPath(satisfied: up)), for: generation,
                    &context)
            }
        case .user(.adjustClock(let offset)):
            clockAdjustment = clockAdjustment + offset
        case .screenLocked(let locked):
            sleep.screenLocked(locked, at: context.now)
            files.locked = locked
        case .dropped(let item, let reason):
            record(.dropped(item, reason), context.now)
        case .lost:
            break  // the trace's record of a loss already in the log (`lose`)
        case .appTimer(.commitCompleted(let commit, let generation)):
            guard generation == self.generation else { return }
            for done in changeDisk({ $0.complete(through: commit) }) {
                recordDurable(done, context.now)
                route(.storeDidCommit(done.commit), for: generation, &context)
            }
        case .appTimer(.savedRecordWrite(let generation)):
            savedRecordWrite = nil
            guard generation == self.generation, mailbox.state.exists else { return }
            writeSavedRecord(&context)
        case .appTimer(.engineTimer(let timer, let generation)):
            engineTimers.removeAll { $0.timer == timer }
            guard generation == self.generation else { return }
            route(.timerFired(timer), for: generation, &context)
        case .appTimer(.concurrencyWake(let generation)):
            concurrencyWake = nil
            guard generation == self.generation, mailbox.state.isRunning else { return }
            call(&context) { _, _ in }
        case .appTimer(.heldEventsExpired(let generation)):
            heldEventsExpiry = nil
            guard generation == self.generation, mailbox.state.isRunning else { return }
            dropHeldEvents(.noListener, &context)
        default: break
        }
    }

    // MARK: - The mailbox's decisions

    private func route(
        _ item: AppItem, for generation: Int?, _ context: inout Scheduler<WorldMessage>
    ) {
        // Asked of the mailbox moved out, though it changes nothing: a call on the stored
        // mailbox made Swift copy it whole (retaining its arrays) at every delivery.
        switch changeMailbox({ $0.route(item, for: generation) }) {
        case .deliver where engine == nil:
            // Crashed in a callback; the operating system's kill, on its way, drops what was
            // meant for this process with its cause, and keeps the events.
            hold(item, for: generation, &context)
        case .deliver:
            hand(item, batching: false, &context)
            runAgain(&context)
        case .hold:
            hold(item, for: generation, &context)
        case .drop(let reason):
            drop(item, reason, &context)
        }
    }

    /// Holds `item`; an event for an app that is not running asks the operating system to
    /// wake or relaunch it (R-A10, R-F2).
    private func hold(
        _ item: AppItem, for generation: Int?, _ context: inout Scheduler<WorldMessage>
    ) {
        for pushedOut in changeMailbox({ $0.hold(item, for: generation) }) {
            drop(pushedOut, .queueFull, &context)
        }
        if case .event(let event) = item, !mailbox.state.isRunning {
            context.send(.wake(event.mechanism, boot: bootCount), to: os)
        }
        armExpiryIfNeeded(&context)
    }

    /// Asks for a wake for each kind of event still held (in the order first held).
    private func askToWakeForHeldEvents(_ context: inout Scheduler<WorldMessage>) {
        var asked: [RelaunchMechanism] = []
        for mechanism in mailbox.heldEventMechanisms where !asked.contains(mechanism) {
            asked.append(mechanism)
            context.send(.wake(mechanism, boot: bootCount), to: os)
        }
    }

    /// Drops every held event with `reason`; a monitor condition whose event found no
    /// listener stops being monitored (R-A12, F).
    private func dropHeldEvents(_ reason: DropReason, _ context: inout Scheduler<WorldMessage>) {
        for event in changeMailbox({ $0.takeHeldEvents() }) {
            drop(.event(event), reason, &context)
            guard reason == .noListener else { continue }
            let abandoned: RegionKey? =
                switch event {
                case .conditionExit(let monitor, let name), .conditionEntry(let monitor, let name):
                    .condition(monitor: monitor, name: name)
                case .conditionChanged(let monitor, let record):
                    .condition(monitor: monitor, name: record.lastEvent.identifier)
                default: nil
                }
            if let abandoned { context.send(.conditionAbandoned(abandoned), to: daemon) }
        }
    }

    /// Records the loss in the trace (a message to itself) and, on its delivery, in the log.
    private func drop(
        _ item: consuming AppItem, _ reason: DropReason, _ context: inout Scheduler<WorldMessage>
    ) {
        context.send(.dropped(consume item, reason), to: context.currentActor)
    }

    /// The process runs again, or its listeners changed: hands it, in arrival order, what was
    /// held for it and every held event it now listens for.
    private func runAgain(_ context: inout Scheduler<WorldMessage>) {
        // Asked first: most times nothing is held. The count loads two stored fields; a call
        // on the stored mailbox (`hasDeliverable`) made Swift copy it whole.
        while engine != nil, mailbox.heldCount > 0, changeMailbox({ $0.hasDeliverable }),
            let item = changeMailbox({ $0.takeDeliverable() })
        {
            hand(item, batching: true, &context)
        }
        armExpiryIfNeeded(&context)
    }

    /// Held events wait at most `relaunchRecreateWindow` for a running process to listen
    /// (R-A12).
    private func armExpiryIfNeeded(_ context: inout Scheduler<WorldMessage>) {
        guard heldEventsExpiry == nil, mailbox.hasHeldEvents, mailbox.state.isRunning,
            engine != nil
        else { return }
        heldEventsExpiry = context.setTimer(
            after: policy.relaunchRecreateWindow,
            .appTimer(.heldEventsExpired(generation: generation)))
    }

    private func cancelExpiry(_ context: inout Scheduler<WorldMessage>) {
        if let handle = heldEventsExpiry { context.cancel(handle) }
        heldEventsExpiry = nil
    }

    // MARK: - The engine

    /// Logs `update`; returns it with its fix carrying its slot in the archive, which is what
    /// the engine gets, so that the store and the server keep the fix by its slot.
    private func logged(_ update: LocationUpdate, _ now: Instant) -> LocationUpdate {
        var slotted = update
        log.appendLocation(&slotted, at: stamp(now))
        return slotted
    }

    /// Logs `item` and runs the engine's callback for it, then the delegates' (`Delegates`).
    /// A manager's location taken from the held items (`batching`) takes with it the held
    /// locations of the same manager that follow it: the engine's first-form callback gets them
    /// one by one, each logged, and the manager's delegate gets them in one batch (R-A2).
    private func hand(
        _ item: AppItem, batching: Bool, _ context: inout Scheduler<WorldMessage>
    ) {
        let now = context.now
        switch item {
        case .location(let update):
            let update = logged(update, now)
            call(&context) { $0.didReceive(update, services: $1) }
            guard case .manager(let id) = update.channel else { return }
            var fixes = update.fix.map { [$0] } ?? []
            while batching, engine != nil,
                let next = changeMailbox({ $0.takeDeliverableLocation(of: id) })
            {
                let next = logged(next, now)
                call(&context) { $0.didReceive(next, services: $1) }
                if let fix = next.fix { fixes.append(fix) }
            }
            if !fixes.isEmpty { callDelegates(&context) { $0.deliver(fixes, to: id) } }
        case .failure(let error, let manager):
            record(.failure(error, manager), now)
            call(&context) {
                _ = ($0 as? any FirstFormCallbacks)?.didFail(
                    error, manager: manager, services: $1)
            }
            callDelegates(&context) { $0.fail(error, manager: manager) }
        case .monitoringFailure(let region, let error, let manager):
            record(.monitoringFailure(region: region, error, manager), now)
            call(&context) {
                _ = ($0 as? any FirstFormCallbacks)?.monitoringDidFail(
                    for: region, error: error, manager: manager, services: $1)
            }
            callDelegates(&context) { $0.monitoringFailed(region, error, manager: manager) }
        case .monitoringStarted(let region, let manager):
            record(.monitoringStarted(region: region, manager), now)
            callDelegates(&context) { $0.monitoringStarted(region, manager: manager) }
        case .regionState(let region, let state, let manager):
            record(.regionState(region: region, state, manager), now)
            callDelegates(&context) { $0.determined(state, region, manager: manager) }
        case .event(let event):
            record(.event(event), now)
            call(&context) { $0.didReceive(event, services: $1) }
            callDelegates(&context) { $0.deliver(event) }
            if case .conditionChanged(let monitor, let conditionRecord) = event {
                callMonitor(monitor, &context) { $0.receive(conditionRecord) }
            }
        case .authorization(let authorization):
            record(.authorization(authorization), now)
            call(&context) { $0.authorizationChanged(to: authorization, services: $1) }
            callDelegates(&context) { $0.authorizationChanged() }
        case .accuracyAuthorization(let accuracy):
            record(.accuracyAuthorization(accuracy), now)
            call(&context) { $0.accuracyAuthorizationChanged(to: accuracy, services: $1) }
            callDelegates(&context) { $0.authorizationChanged() }
        case .locationUpdatesPaused(let manager):
            record(.locationUpdatesPaused(manager), now)
            call(&context) {
                _ = ($0 as? any FirstFormCallbacks)?.locationUpdatesPausedChanged(
                    manager: manager, paused: true, services: $1)
            }
            callDelegates(&context) { $0.pausedChanged(manager: manager, paused: true) }
        case .locationUpdatesResumed(let manager):
            record(.locationUpdatesResumed(manager), now)
            call(&context) {
                _ = ($0 as? any FirstFormCallbacks)?.locationUpdatesPausedChanged(
                    manager: manager, paused: false, services: $1)
            }
            callDelegates(&context) { $0.pausedChanged(manager: manager, paused: false) }
        case .protectedDataAvailable:
            record(.protectedDataAvailable, now)
            call(&context) { $0.protectedDataDidBecomeAvailable(services: $1) }
        case .backgroundTaskExpiring(let task):
            record(.backgroundTaskExpiring(task), now)
            call(&context) { $0.backgroundTaskWillExpire(BackgroundTaskID(task), services: $1) }
        case .storeDidCommit(let commit):
            log.appendDidCommit(commit, at: stamp(now))
            call(&context) { $0.storeDidCommit(commit, services: $1) }
        case .uploadCompleted(let task, let result):
            record(.uploadCompleted(task, result), now)
            call(&context) { $0.didCompleteUpload(task, result: result, services: $1) }
        case .sessionDiagnostic(let session, let diagnostic):
            record(.sessionDiagnostic(session, diagnostic), now)
            call(&context) { _, services in services.session(session)?.receive(diagnostic) }
        case .monitorRecords(let monitor, let records):
            record(.monitorRecords(monitor: monitor, records), now)
            callMonitor(monitor, &context) { $0.receive(records: records) }
        case .timerFired(let timer):
            record(.timerFired(timer), now)
            call(&context) { $0.timerDidFire(TimerID(timer), services: $1) }
        case .trackingToggled(let on):
            record(.trackingToggled(on: on), now)
            call(&context) { $0.userDidSetTracking(on, services: $1) }
        case .wake(let task, let kind):
            record(.wake(task, kind), now)
            call(&context) { $0.didBeginWake(task, kind: kind, services: $1) }
        case .wakeExpiring(let task):
            record(.wakeExpiring(task), now)
            call(&context) { $0.wakeWillExpire(task, services: $1) }
        case .backgroundTransferCompleted(let event):
            record(.backgroundTransferCompleted(event), now)
            call(&context) { $0.didCompleteBackgroundTransfer(event, services: $1) }
        case .backgroundSessionEventsFinished(let session):
            record(.backgroundSessionEventsFinished(session: session), now)
            call(&context) { $0.backgroundSessionDidFinishEvents(session, services: $1) }
        case .answer(let request, let answer):
            record(.answer(request: request, answer), now)
            call(&context) { _, services in services.receiveAnswer(request, answer) }
        }
    }

    // MARK: - Swift concurrency (VirtualConcurrency)

    /// Runs `body` as the current process's Swift concurrency at `now`: the jobs it makes are
    /// the process's, and `Date()`, `ContinuousClock` and `ProcessInfo.systemUptime` read the
    /// device's clocks at `now` on this thread (`clockReading`).
    private func asConcurrency<Result>(
        _ process: VirtualProcess, _ now: Instant, _ body: () -> Result
    ) -> Result {
        process.withCurrent(at: now.nanosecondsSinceStart, clock: clockReading(at: now), body)
    }

    /// The device's clocks at `now`: the wall clock from `VirtualClockReading`'s start moved by
    /// `adjustClock`, the uptime without sleep (`CLOCK_MONOTONIC`) and with it
    /// (`CLOCK_BOOTTIME`, the continuous clock of `Task.sleep`).
    private func clockReading(at now: Instant) -> VirtualClockReading {
        let uptime = bootTime.uptime(at: now)
        return clockReading(at: now, uptime: uptime, awake: uptime - sleep.asleep(until: now))
    }

    /// The same, from the uptime with and without sleep already read for `now`.
    private func clockReading(at now: Instant, uptime: VirtualDuration, awake: VirtualDuration)
        -> VirtualClockReading
    {
        VirtualClockReading(
            realtime: VirtualClockReading.realtimeAtStartSeconds * 1_000_000_000
                + (now - .start).nanoseconds + clockAdjustment.nanoseconds,
            monotonic: awake.nanoseconds, boottime: uptime.nanoseconds)
    }

    /// Runs `process`'s jobs due now, until an assertion ends the process.
    private static func runDueJobs(of process: VirtualProcess, _ services: LocationServices) {
        guard process.hasDueJobs(at: process.now) else { return }
        process.runDueJobs { services.crashReason != nil }
    }

    /// Releases `object` (the engine, the services) as `process` at `now`: what its release
    /// resumes (a continuation a `deinit` finishes) belongs to that process, and an ended
    /// process runs nothing.
    private func release(_ object: consuming AnyObject?, as process: VirtualProcess, _ now: Instant)
    {
        var held = consume object
        asConcurrency(process, now) { _ = held.take() }
    }

    /// Sets the wake for the process's earliest sleep, unless one is set for no later.
    private func armConcurrencyWake(_ context: inout Scheduler<WorldMessage>) {
        guard let deadline = concurrency.nextDeadline else { return }
        let due = max(Instant(nanosecondsSinceStart: deadline), context.now)
        if let wake = concurrencyWake {
            if wake.due <= due { return }
            context.cancel(wake.timer)
        }
        let timer = context.send(
            .appTimer(.concurrencyWake(generation: generation)), to: context.currentActor,
            at: due)
        concurrencyWake = (due, timer)
    }

    /// The process ended: its jobs and sleeps are dropped, and its engine is released as the
    /// ended process, so that nothing its release resumes ever runs.
    private func endConcurrency(_ context: inout Scheduler<WorldMessage>) {
        if let wake = concurrencyWake { context.cancel(wake.timer) }
        concurrencyWake = nil
        concurrency.end()
        release(engine.take(), as: concurrency, context.now)
    }

    /// Arms and cancels the engine's timers as the callback asked.
    private func applyTimerRequests(
        _ requests: [TimerRequest], _ context: inout Scheduler<WorldMessage>
    ) {
        for request in requests {
            switch request {
            case .schedule(let timer, let delay):
                let handle = context.setTimer(
                    after: delay, .appTimer(.engineTimer(timer, generation: generation)))
                engineTimers.append((timer, handle))
            case .invalidate(let timer):
                for pending in engineTimers where pending.timer == timer {
                    context.cancel(pending.handle)
                }
                engineTimers.removeAll { $0.timer == timer }
            }
        }
    }

    /// The process ended: its pending timers end with it, each noted in the log.
    private func endTimers(_ cause: TerminationCause, _ context: inout Scheduler<WorldMessage>) {
        for pending in engineTimers {
            context.cancel(pending.handle)
            record(.timerEnded(pending.timer, cause), context.now)
        }
        engineTimers.removeAll()
    }

    /// Runs a callback of the process's `Monitor` object named `name`, as one callback; nothing
    /// runs when the engine did not open it as an object.
    private func callMonitor(
        _ name: String, _ context: inout Scheduler<WorldMessage>, _ body: (Monitor) -> Void
    ) {
        guard let monitor = services?.monitors.first(where: { $0.name == name }) else { return }
        call(&context) { _, _ in body(monitor) }
    }

    /// Tells the network to cancel the current process's requests in flight, if it has any
    /// (an app that never uploads sends nothing). Their completions come back through the
    /// mailbox with `reason`.
    private func cancelUploads(_ reason: DropReason, _ context: inout Scheduler<WorldMessage>) {
        guard !uploadsInFlight.isEmpty else { return }
        uploadsInFlight.removeAll()
        context.send(.cancelUploads(generation: generation, reason), to: network)
    }

    /// The process ended: a force-quit cancels every background transfer of the app (R-H7);
    /// any other end fails the process's background uploads from data (R-H5). Nothing is sent
    /// when there is nothing to cancel.
    private func cancelBackgroundTransfers(
        ending cause: TerminationCause, _ context: inout Scheduler<WorldMessage>
    ) {
        if cause == .forceQuit && madeBackgroundUploads {
            context.send(.cancelBackgroundTransfers(.forceQuit), to: network)
        } else if madeBackgroundUploadsFromData {
            context.send(
                .cancelBackgroundTransfers(.uploadsFromData(generation: generation, cause)),
                to: network)
        }
        madeBackgroundUploadsFromData = false
    }

    /// Runs the delegate callbacks of the process's `LocationManager` objects for one item, as
    /// one callback; nothing runs (and nothing reaches the trace) when the engine made none.
    private func callDelegates(
        _ context: inout Scheduler<WorldMessage>, _ body: (Delegates) -> Void
    ) {
        guard let services, !services.locationManagers.isEmpty else { return }
        call(&context) { _, services in body(Delegates(services: services)) }
    }

    /// Runs one engine callback and sends what it asked for; an assertion ends the process.
    private func call(
        _ context: inout Scheduler<WorldMessage>, _ body: (any AppEngine, LocationServices) -> Void
    ) {
        // The engine and the services are moved out of the actor for the callback (`take()`)
        // and back after it, not copied: both are referenced weakly (a manager's delegate, its
        // services), so each has a side table, and each retain and release of either took the
        // runtime's slow path, twice per callback. Nothing the callback runs reads them from
        // the actor (the disk view reads only `disk`). Each is put back on the one path out
        // (no `consume` inside a `defer`: Swift 6.3 miscompiles that for a `var`).
        guard self.engine != nil, self.services != nil else { return }
        let engine = self.engine.take()!
        let services = self.services.take()!
        let storage = services.storage
        storage.protectedDataAvailable = disk.protectedDataAvailable
        // The store and the saved record read the disk through `callbackCommittedRows` and
        // `callbackStoredValues`, only while the callback runs: nothing of the disk is copied
        // (or retained) for a callback that does not read it, which is nearly every one.
        storage.inCallback = true
        // The uptime is read once, for the callback's moment and for its clocks.
        let uptime = bootTime.uptime(at: context.now)
        let awake = uptime - sleep.asleep(until: context.now)
        let toldBackgroundTime = backgroundTime  // read once
        services.moment = CallbackMoment(
            authorizationStatus: authorization, accuracyAuthorization: accuracy,
            isLowPowerModeEnabled: lowPowerMode,
            isBackgroundRefreshEnabled: backgroundRefresh && !lowPowerMode,
            locationServicesEnabled: locationServicesEnabled,
            backgroundTime: toldBackgroundTime.flatMap {
                $0.generation == generation ? $0.report : nil
            }
                ?? .startsWithTask(policy.backgroundTaskBudget),
            bootTime: BootTime(sinceStart: bootTime.sinceStart + clockAdjustment),
            uptime: awake, now: context.now)
        if services.crashReason == nil {
            // The callback, then the jobs of the process's Swift concurrency due now (those
            // it made and the sleeps come due), as the process at this instant: they are the
            // engine's code, blamed on it if they trap, and what they ask goes on with the
            // callback's requests. An assertion in one ends the process: no job runs after it.
            // Nothing of the actor is read or written inside the closure: an access to a stored
            // property there made Swift check every access to it at run time.
            let process = concurrency
            let runsJobs = mailbox.state.isRunning
            let observe = callbackObserver
            let clock = clockReading(at: context.now, uptime: uptime, awake: awake)
            process.withCurrent(at: context.now.nanosecondsSinceStart, clock: clock) {
                observe?(true)
                body(engine, services)
                if runsJobs { Self.runDueJobs(of: process, services) }
                observe?(false)
            }
            armConcurrencyWake(&context)
        }
        self.engine = consume engine
        storage.inCallback = false
        sendRequests(of: services, &context)
        self.services = consume services
    }

    /// Sends on what the callback that returned asked for; an assertion in it ends the process.
    /// It runs before `call` puts the services back: it reads them through `services` only,
    /// never through the actor's `services`, which is nil until then.
    private func sendRequests(
        of services: LocationServices, _ context: inout Scheduler<WorldMessage>
    ) {
        let storage = services.storage
        // Each kind of request is taken only when the callback made some: most callbacks make
        // none of most kinds, and taking an empty set still swapped and released its arrays.
        let asked = services.hasRequests ? services.takeRequests() : nil
        for api in asked?.unavailableCalls ?? [] { record(.unavailableAPI(api), context.now) }
        if storage.hasRequests {
            var applied = storage.takeRequests()
            applyStorageRequests(applied, &context)
            storage.recycle(&applied)
        }
        if services.urlSession.hasRequests {
            for request in services.urlSession.takeRequests() {
                uploadsInFlight.append(request.task)
                context.send(.upload(request, generation: generation), to: network)
            }
            for var request in services.urlSession.takeBackgroundRequests() {
                request.generation = generation
                request.startedInBackground = mailbox.state != .foreground  // R-H9
                madeBackgroundUploads = true
                if !request.fromFile { madeBackgroundUploadsFromData = true }
                system.noteBackgroundUpload(request)
                context.send(.backgroundUpload(request), to: network)
            }
            for task in services.urlSession.takeBackgroundCancellations() {
                context.send(.cancelBackgroundTransfers(.task(task)), to: network)
            }
        }
        guard let asked else { return endIfCrashed(services, &context) }
        applyTimerRequests(asked.timerRequests, &context)
        watchNetworkPath(for: asked.newPathWatchers, &context)
        if !asked.requests.isEmpty {
            system.note(asked.requests)
            changeMailbox { $0.noteRequests(asked.requests) }
            // Background tasks and prompts are the operating system's; the rest the daemon's.
            let tasks = asked.requests.filter(\.isOperatingSystemRequest)
            let location = asked.requests.filter { !$0.isOperatingSystemRequest }
            if !location.isEmpty {
                context.send(.requests(location, generation: generation), to: daemon)
            }
            if !tasks.isEmpty { context.send(.requests(tasks, generation: generation), to: os) }
        }
        endIfCrashed(services, &context)
    }

    /// New network path watchers (R-N47) are told whether the network is up: the network is
    /// asked, and answers every watcher of the process, then tells them of every change. (A
    /// watcher already told hears the same status again, as a path update may repeat it.)
    private func watchNetworkPath(
        for watchers: [ObjectID], _ context: inout Scheduler<WorldMessage>
    ) {
        guard !watchers.isEmpty else { return }
        context.send(.watchNetworkPath, to: network)
    }

    /// An assertion in the callback ends the process.
    private func endIfCrashed(
        _ services: LocationServices, _ context: inout Scheduler<WorldMessage>
    ) {
        guard let reason = services.crashReason else { return }
        record(.crashed(reason), context.now)
        // Released as the process (an ended one runs nothing): what the engine's release
        // resumes must not reach a later process's code. The kill drops the process's jobs.
        release(engine.take(), as: concurrency, context.now)
        context.send(.processCrashed(reason: reason, generation: generation), to: os)
    }

    // MARK: - The disk

    /// The disk as the running callback sees it: the durable rows, and the saved record unless
    /// the data is protected (R-D9). The disk does not change while a callback runs (commits
    /// complete and writes land in deliveries of their own), so this is the disk as of the
    /// callback's start.
    var callbackCommittedRows: StoredRows { disk.rows }
    var callbackStoredValues: [String: SavedValue] {
        disk.protectedDataAvailable ? disk.savedValues : [:]
    }

    /// Issues the commits the callback asked for, arms the saved record's write after a
    /// change, and logs failed opens.
    private func applyStorageRequests(
        _ asked: ProcessStorage.StorageRequests, _ context: inout Scheduler<WorldMessage>
    ) {
        for error in asked.openFailures { record(.storeUnavailable(error), context.now) }
        for request in asked.commitRequests {
            let completesAt = disk.completionInstant(
                issuedAt: context.now,
                duration: request.immediately ? .zero : policy.storeCommitDuration)
            let timer = context.setTimer(
                after: completesAt - context.now,
                .appTimer(.commitCompleted(request.commit, generation: generation)))
            let inFlight = Disk.InFlight(
                commit: request.commit, rows: request.rows, completesAt: completesAt, timer: timer,
                deletions: request.deletions, deletesFileRows: request.immediately)
            changeDisk { $0.issue(inFlight) }
        }
        if asked.savedRecordChanged && savedRecordWrite == nil {
            let timer = context.setTimer(
                after: policy.savedRecordWriteDelay,
                .appTimer(.savedRecordWrite(generation: generation)))
            savedRecordWrite = (context.now + policy.savedRecordWriteDelay, timer)
        }
    }

    /// Writes the saved record's unwritten changes, or loses them while the data is protected
    /// (R-D9).
    private func writeSavedRecord(_ context: inout Scheduler<WorldMessage>) {
        guard let storage = services?.storage, !storage.unsavedChanges.isEmpty else { return }
        let changes = storage.unsavedChanges
        storage.unsavedChanges.removeAll()
        if disk.protectedDataAvailable {
            changeDisk { $0.write(changes) }
            record(.savedRecordWritten(keys: changes.map(\.key)), context.now)
        } else {
            lose(.savedRecordChange(keys: changes.map(\.key)), .protectedDataUnavailable, &context)
        }
    }

    /// The process ended: what is due on disk by now is written (a completion at the instant
    /// of the termination falls on the durable side); the rest is lost with the process. A
    /// process that ends `normally` (its `applicationWillTerminate` ran and returned) writes
    /// its saved record's changes first, those made in that callback included (R-S3).
    private func settleDisk(
        ending cause: TerminationCause, normally: Bool = false,
        _ context: inout Scheduler<WorldMessage>
    ) {
        let now = context.now
        let (completed, lost) = changeDisk { $0.terminate(at: now) }
        for commit in completed {
            context.cancel(commit.timer)
            recordDurable(commit, context.now)
            drop(.storeDidCommit(commit.commit), .processEnded(cause), &context)
        }
        for commit in lost {
            context.cancel(commit.timer)
            lose(
                .commit(commit.commit, rowCount: commit.rows.count), .processEnded(cause), &context)
        }
        if let write = savedRecordWrite {
            context.cancel(write.timer)
            savedRecordWrite = nil
            if write.due <= context.now || normally {
                writeSavedRecord(&context)
            }
        }
        if let store = services?.openedStore, !store.uncommittedRows.isEmpty {
            let rows = store.uncommittedRows
            store.rollback()
            record(.uncommittedRowsLost(rows, cause), context.now)
            context.send(
                .lost(.uncommittedRows(rowCount: rows.count), .processEnded(cause)),
                to: context.currentActor)
        }
        if let storage = services?.storage, !storage.unsavedChanges.isEmpty {
            lose(
                .savedRecordChange(keys: storage.unsavedChanges.map(\.key)),
                .processEnded(cause), &context)
            storage.unsavedChanges.removeAll()
        }
    }

    /// Logs a completed commit: its rows, then what its deletions removed (if anything).
    private func recordDurable(_ commit: Disk.InFlight, _ now: Instant) {
        log.appendCommitDurable(commit.commit, rowCount: commit.rows.count, at: stamp(now))
        guard !commit.deleted.isEmpty else { return }
        record(
            .rowsDeleted(
                commit.commit, commit.deleted.map(\.row), positions: commit.deleted.map(\.position)),
            now)
    }

    /// Records the loss in the log at once, as the process that lost it (a later process may
    /// launch at the same instant, before a message to itself arrives), and in the trace (a
    /// message to itself).
    private func lose(
        _ loss: StorageLoss, _ reason: DropReason, _ context: inout Scheduler<WorldMessage>
    ) {
        switch loss {
        case .commit(let commit, let rowCount):
            record(.commitLost(commit, rowCount: rowCount, reason), context.now)
        case .savedRecordChange(let keys):
            record(.savedRecordChangeLost(keys: keys, reason), context.now)
        case .uncommittedRows:
            preconditionFailure("uncommitted rows are recorded with the rows themselves")
        }
        context.send(.lost(loss, reason), to: context.currentActor)
    }

    /// Runs `change` on the disk moved out of the actor and then moved back: no call runs
    /// inside an access to `disk`, so the compiler checks every access to it statically.
    private func changeDisk<Result>(_ change: (inout Disk) -> Result) -> Result {
        var moved = Disk()
        swap(&moved, &disk)
        defer { swap(&moved, &disk) }
        return change(&moved)
    }

    /// Runs `change` on the mailbox moved out of the actor and then moved back, as
    /// `changeDisk` does for the disk: every access to `mailbox` is then checked statically
    /// (one mutating call on it inside an access made the compiler check them all at run time,
    /// and copy the whole mailbox to read it). `change` must not read `self.mailbox`.
    private func changeMailbox<Result>(_ change: (inout AppMailbox) -> Result) -> Result {
        var moved = AppMailbox(heldCountMax: 0)
        swap(&moved, &mailbox)
        defer { swap(&moved, &mailbox) }
        return change(&moved)
    }

    /// `kind` is taken, not borrowed: it moves into the entry instead of being copied (an
    /// outlined copy of the enum, with a retain of each payload, at every entry).
    private func record(_ kind: consuming AppLogEntry.Kind, _ instant: Instant) {
        log.appendWhole(kind, at: stamp(instant))
    }

    /// The log's stamp of an entry at `instant`: the process and its states now.
    private func stamp(_ instant: Instant) -> AppLog.Stamp {
        AppLog.Stamp(
            instant: instant, generation: generation, appState: appState,
            processState: mailbox.state)
    }

    /// The state as UIKit reports it: a suspended app reads as in the background.
    private var appState: ProcessState {
        mailbox.state == .suspended ? .background : mailbox.state
    }
}

/// Told when an engine callback begins (true) and ends (false), if set: the fuzzer's worker
/// process streams it while it runs one scenario, so that a trap is blamed on the engine when
/// it came inside a callback and on Lifeline's model otherwise. Set it only in a process that
/// runs one world at a time, before the world is made (each app process reads it once, when
/// it is made); nil, the default, costs one check per callback.
package enum EngineCallbackObserver {
    nonisolated(unsafe) package static var observe: ((Bool) -> Void)?
}
