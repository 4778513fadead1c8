// The operating system as an actor (layer 3): the app process's states and transitions, what
// keeps it running in the background, terminations, relaunches, reboot and data protection.
import Simulation

/// The operating system's policy toward the one app under test.
///
/// States and transitions (R-A1): `open` launches the app into the foreground or brings it
/// back; `leave` moves it to the background after `leavingTransition` (R-A4); a background app
/// that nothing keeps running is suspended after `suspensionDelay`; `memoryPressure` ends a
/// suspended app with no callback (R-F3); `forceQuit`, `crash` and `exit` end it; the location
/// daemon's `wake` resumes a suspended app or relaunches an ended one into the background
/// (R-A10) when the rules allow: Always authorization (R-F5), and after a force-quit only the
/// mechanisms the policy allows (R-B4–B6). A relaunch carries no launch options in a
/// scene-based app (R-A11). Reboot ends the process; saved data stays unreadable until the
/// first unlock (R-D9). The user's tracking switch (`trackingOn`, `trackingOff`) is in the
/// app's UI: it does what `open` does, then hands the toggle to the app.
///
/// What keeps a background app running: the daemon's keep-alive (a manager allowed in the
/// background, a held background activity session with live updates flowing, R-A3, R-A6, or
/// a Live Activity while some location request is active, R-C4),
/// a background task within the app's background time (R-F1), the wake runtime after a
/// location event (R-F2), or a test host (source A's XCTest setup).
///
/// Background time (R-F1) is the app's, not each task's: `UIApplication.backgroundTimeRemaining`
/// is one figure for the whole app, and reads `DBL_MAX` in the foreground (ios-facts). The
/// clock starts when the app first holds a task while it runs in the background on borrowed
/// time (nothing but its tasks and the wake runtime keeps it running), and every task held
/// then expires when `backgroundTaskBudget` is spent: a task begun after another ended does
/// not get a fresh budget. The clock stops when the app is foreground, suspended, ended, or
/// kept running by the daemon or a test host; the next stint on borrowed time starts afresh.
///
/// Wakes that are not location events (R-H1–R-H4): an app refresh request comes due at its
/// earliest begin date, a silent push when the scenario sends it. Either resumes a suspended
/// app or launches an ended one into the background, whatever the location authorization, and
/// never after a force-quit until the user opens the app again (R-H2). A wake keeps the app
/// running until the engine completes it or its time is up: an app refresh then gets its
/// expiration call and the watchdog kills an app that still has not completed it (R-H3); a
/// silent push's process is killed at once (R-H4). An app refresh due while the app is in the
/// foreground waits until it is in the background; a silent push reaches a foreground app with
/// no time limit.
///
/// Background `URLSession` transfers (R-H5–R-H9, `BackgroundTransfers.swift`): the network's
/// transfer service tells this actor each transfer's end. A running app is told at once; for
/// an app that does not run the end is held, and when its session has no work left the app is
/// resumed or launched into the background with a wake for the session
/// (`backgroundSessionEventsRuntime`), then the session's events (R-H6), unless the session
/// sends no launch events or the user force-quit the app (R-H7): then the held ends reach the
/// app when it next runs.
final class OperatingSystem: SimulationActor {
    private let policy: IOSPolicy
    private let capabilities: AppCapabilities
    private let daemon: ActorID
    private let app: ActorID
    /// The network, asked whether it is up for processing requests (R-H10).
    let network: ActorID
    private var random: Xoshiro256StarStar

    private(set) var state = ProcessState.notRunning
    private(set) var generation = 0
    private(set) var lastTermination: TerminationCause?
    /// The app's own authorization, as the user or a prompt last set it.
    private var grantedAuthorization: Authorization
    /// Location Services on for the whole phone (R-L40).
    private var locationServicesEnabled = true
    /// The authorization the app and the daemon see: its own, but `denied` while Location
    /// Services are off (R-L41: Apple's `CLAuthorizationStatus.denied` covers "location
    /// services are disabled globally in Settings").
    private var authorization: Authorization {
        locationServicesEnabled ? grantedAuthorization : .denied
    }
    private var accuracy: AccuracyAuthorization
    private let answers: AuthorizationAnswers
    /// The app has asked for Always once: iOS ignores every later request.
    private var alwaysRequested = false
    /// The authorization prompt on screen, until the user answers it.
    private var prompt: EventHandle?
    /// The prompt on screen asks for temporary full accuracy: it belongs to the process that
    /// asked, and goes with it.
    private var promptIsTemporaryFullAccuracy = false
    /// Full accuracy was granted for the current process only (temporary full accuracy): it
    /// reverts to reduced when the process ends.
    private var temporaryFullAccuracy = false
    private var unlockedSinceBoot = true
    /// The screen is locked: the device sleeps. The world starts unlocked.
    private var screenLocked = false
    private var daemonKeepsAlive = false
    private var testHostAttached = false
    private var launchedInBackground = false
    private var registeredThisProcess = false
    // invariant: tasks of the current process only, in the order begun; a task's expiry is set
    // exactly while `backgroundTimeEnds` is
    private var backgroundTasks: [(task: ObjectID, expiry: EventHandle?)] = []
    /// When the app's background time runs out in this stint on borrowed time (R-F1).
    private var backgroundTimeEnds: Instant?
    /// This stint's background time is spent: tasks still held keep nothing running (R-F1).
    private var backgroundTimeIsUp = false
    private var leaving: EventHandle?
    private var suspension: EventHandle?
    private var wakeRuntime: EventHandle?
    private var pendingRelaunch: EventHandle?
    /// Boots so far: a wake asked for before the last one is void (R-B7).
    private var bootCount = 0
    /// App refresh requests not yet due, by identifier, in the order submitted (R-H1). They
    /// belong to the system, not to a process.
    private var pendingRefreshes: [(identifier: String, due: EventHandle)] = []
    /// App refresh requests that came due while the app was in the foreground (R-H1).
    private var refreshesAwaitingBackground: [String] = []
    /// The earliest begin date of the last app refresh request submitted with each identifier
    /// (nil when it had none), in the order submitted: what `getPendingTaskRequests` hands back.
    /// One entry per identifier the Info.plist permits (R-H11), so it stays small.
    private var refreshEarliestBegins: [(identifier: String, earliestBegin: Instant?)] = []
    // invariant: wakes of the current process only; `expiry` is nil once the wake's time is up
    private var wakes: [(task: WakeTaskID, kind: WakeKind, expiry: EventHandle?)] = []
    /// Wakes handed out so far, across processes: the next wake's number.
    private var wakeCount = 0
    /// When the system last began a task request of the app (app refresh or processing):
    /// the next waits `taskRequestIntervalMin` from it (R-H15).
    private var lastTaskRequestBegan: Instant?
    /// Counts the wakes begun at one instant: a loop in the model, not the app's (`ModelLoop`).
    private var loopGuard = ModelLoopGuard()
    /// The loop the model fell into, if it did: the run was stopped there.
    private(set) var modelLoop: ModelLoop?
    /// The ends of background transfers held while the app does not run (R-H6, R-H7).
    var backgroundSessionEvents = BackgroundSessionEvents()
    /// The processing requests the system holds (R-H10, `ProcessingTasks.swift`).
    var processingTasks = ProcessingTasks()
    /// Background App Refresh for the app, as the user set it in Settings (R-H12).
    private var backgroundRefreshEnabled = true
    /// Low Power Mode, as the user set it: while it is on Background App Refresh is off
    /// (R-H13).
    private var lowPowerMode = false
    /// Some process of the app reads its background time (`watchBackgroundTime`): every later
    /// process is told it too, from its launch (R-F1, `BackgroundTimeReport`).
    private var backgroundTimeWatched = false
    /// What the current process was last told of its background time.
    private var reportedBackgroundTime: BackgroundTimeReport?
    /// The next stint's background time, drawn before its clock starts when a watching app is
    /// told it in advance. Only `taskLifetime()` draws from `random`, so drawing early takes
    /// the same number from the stream.
    private var nextTaskLifetime: VirtualDuration?

    init(
        policy: IOSPolicy, capabilities: AppCapabilities, authorization: Authorization,
        accuracy: AccuracyAuthorization, answers: AuthorizationAnswers, daemon: ActorID,
        app: ActorID, network: ActorID, seed: Seed, battery: Battery? = nil
    ) {
        self.battery = battery
        self.network = network
        self.answers = answers
        self.policy = policy
        self.capabilities = capabilities
        grantedAuthorization = authorization
        self.accuracy = accuracy
        self.daemon = daemon
        self.app = app
        self.random = Xoshiro256StarStar(seed: seed)
    }

    /// The device's battery, whose charger the user plugs in and out (R-B2).
    private let battery: Battery?

    func receive(_ message: WorldMessage, context: inout Scheduler<WorldMessage>) {
        switch message {
        case .user(let action): handle(action, &context)
        // Requests and crashes of a process that has ended are lost with it.
        case .requests(let requests, let generation)
        where generation == self.generation && state.exists:
            handleTaskRequests(requests, &context)
        case .processCrashed(_, let generation) where generation == self.generation && state.exists:
            terminate(.crash, &context)
        case .keepAlive(let keeps):
            daemonKeepsAlive = keeps
            if keeps && state == .suspended { resume(&context) }
            reconsiderSuspension(&context)
        case .registered(let generation) where generation == self.generation:
            registeredThisProcess = true
        case .wake(let mechanism, let boot) where boot == bootCount: wake(for: mechanism, &context)
        case .backgroundTransferDone(let event, let finished, let sendsLaunchEvents):
            backgroundTransferDone(
                event, sessionFinished: finished, sendsLaunchEvents: sendsLaunchEvents, &context)
        case .networkCondition(let up): networkConditionChanged(up: up, &context)
        case .osTimer(let timer): handle(timer, &context)
        default: break
        }
    }

    // MARK: - User actions

    private func handle(_ action: UserAction, _ context: inout Scheduler<WorldMessage>) {
        switch action {
        case .open:
            bringToForeground(&context)
        case .trackingOn, .trackingOff:
            // The switch is in the app's UI: the user opens the app first, then turns it. The
            // toggle follows the launch or the move to the foreground on the same channel, so
            // the app's mailbox is in the foreground when it arrives.
            bringToForeground(&context)
            deliverToApp(.trackingToggled(on: action == .trackingOn), &context)
        case .leave:
            guard state == .foreground, leaving == nil else { return }
            leaving = context.setTimer(
                after: policy.leavingTransition, .osTimer(.enterBackground(generation: generation)))
        case .lock, .unlock:
            let locking = action == .lock
            if locking != screenLocked {
                screenLocked = locking
                context.send(.screenLocked(locking), to: app)
            }
            if action == .unlock && !unlockedSinceBoot {
                unlockedSinceBoot = true
                context.send(.firstUnlock, to: daemon)
                if state.exists { deliverToApp(.protectedDataAvailable, &context) }
            }
        case .forceQuit:
            if state.exists { terminate(.forceQuit, &context) }
        case .memoryPressure:
            if state == .suspended { terminate(.memory, &context) }
        case .crash:
            if state.isRunning { terminate(.crash, &context) }
        case .exit:
            if state.exists { terminate(.exit, &context) }
        case .reboot:
            if state.exists { terminate(.reboot, &context) }
            // A relaunch on its way does not survive the boot; the registrations that asked
            // for it do, in the daemon (R-B7).
            cancel(&pendingRelaunch, &context)
            bootCount += 1
            state = .notRunning
            unlockedSinceBoot = false
            screenLocked = true  // a device boots to its lock screen (the app process knows)
            context.send(.deviceBooted, to: daemon)
            context.send(.deviceRebooted, to: app)
        case .setAuthorization(let value):
            setAuthorization(value, &context)
        case .setAccuracy(let value):
            accuracy = value
            temporaryFullAccuracy = false
            context.send(.authorizationChanged(authorization, accuracy), to: daemon)
        case .attachTestHost(let attached):
            testHostAttached = attached
            reconsiderSuspension(&context)
        case .startLiveActivity, .endLiveActivity:
            // The location daemon decides what it means for delivery, and keeps the app
            // running through its keep-alive while location is in use (R-C4).
            context.send(.liveActivity(action == .startLiveActivity), to: daemon)
        case .networkDown, .networkUp, .networkSlow, .adjustClock:
            break  // the network's and the app's (`World.schedule` sends them there)
        case .setLowPowerMode(let on):
            // R-H13: Background App Refresh is off while it is on; the app reads both.
            lowPowerMode = on
            context.send(.user(action), to: app)
        case .setBackgroundRefresh(let on):
            // R-H12: the system's setting; the app reads it (`backgroundRefreshStatus`).
            backgroundRefreshEnabled = on
            context.send(.user(action), to: app)
        case .setLocationServices(let on):
            setLocationServices(on, &context)
        case .serverDown, .serverUp, .serverSlow, .serverThrottling:
            break  // the network's (`World.schedule` sends them there)
        case .silentPush:
            // R-H11: without the remote-notification mode only an app in use receives it.
            guard capabilities.receivesBackgroundNotifications || state == .foreground else {
                return dropWake(.remoteNotification, rule: "R-H11", &context)
            }
            beginWake(.remoteNotification, &context)
        case .setCharger(let on):
            // R-B2: the battery charges from now; the app reads it (`UIDevice`).
            battery?.setCharger(on, at: context.now)
        }
    }

    /// What `open` does. Only an unlocked device opens an app: opening one unlocks it first
    /// (after a boot, that is the first unlock, R-D9). Then the app is launched into the
    /// foreground, or brought back there.
    private func bringToForeground(_ context: inout Scheduler<WorldMessage>) {
        if screenLocked || !unlockedSinceBoot { handle(.unlock, &context) }
        switch state {
        case .notRunning, .terminated: launch(into: .foreground, &context)
        case .background, .suspended:
            // The user opened it: it is no longer a background launch waiting to go idle.
            cancel(&leaving, &context)
            cancel(&wakeRuntime, &context)
            launchedInBackground = false
            setState(.foreground, &context)
        case .foreground:
            cancel(&leaving, &context)
        }
    }

    // MARK: - Timers

    private func handle(_ timer: OSTimer, _ context: inout Scheduler<WorldMessage>) {
        switch timer {
        case .authorizationPromptAnswered(let answer):
            prompt = nil
            if answer != grantedAuthorization { setAuthorization(answer, &context) }
        case .temporaryFullAccuracyAnswered(let granted, let generation, let answer):
            prompt = nil
            promptIsTemporaryFullAccuracy = false
            guard generation == self.generation, state.exists else { return }
            let grants = granted && accuracy == .reduced
            if grants {
                accuracy = .full
                temporaryFullAccuracy = true
                context.send(.authorizationChanged(authorization, accuracy), to: daemon)
            }
            // The completion runs after the change (the app process makes its accuracy full
            // as the answer reaches it, before the delegates hear of it from the daemon).
            if let answer {
                let outcome: TemporaryFullAccuracyOutcome = grants ? .granted : .declined
                deliverToApp(.answer(request: answer, .temporaryFullAccuracy(outcome)), &context)
            }
        case .enterBackground(let generation):
            leaving = nil
            guard generation == self.generation, state == .foreground else { return }
            setState(.background, &context)
            let awaiting = refreshesAwaitingBackground
            refreshesAwaitingBackground.removeAll()
            for identifier in awaiting {
                if let rule = backgroundRefreshOffRule {
                    dropWake(.appRefresh(identifier: identifier), rule: rule, &context)
                } else {
                    startWake(.appRefresh(identifier: identifier), &context)
                }
            }
            runDueProcessing(&context)
            reconsiderSuspension(&context)
        case .suspend(let generation):
            suspension = nil
            guard generation == self.generation, state == .background, !isKeptRunning else {
                return
            }
            setState(.suspended, &context)
        case .wakeRuntimeEnded(let generation):
            wakeRuntime = nil
            guard generation == self.generation, state == .background else { return }
            if policy.endsIdleBackgroundLaunch && launchedInBackground && !registeredThisProcess
                && !isKeptRunning
            {
                terminate(.idle, &context)
            } else {
                reconsiderSuspension(&context)
            }
        case .relaunch(let mechanism):
            // The mechanism stays in the trace; the app is not told it (R-A11).
            pendingRelaunch = nil
            guard !state.exists else { return }
            // The rules are checked again: authorization may have changed meanwhile (R-F5).
            if let refusal = relaunchRefusal(for: mechanism) {
                context.send(.wakeRefused(mechanism, refusal), to: app)
                return
            }
            launch(into: .background, &context)
        case .backgroundTaskExpired(let task, let generation):
            guard generation == self.generation,
                backgroundTasks.contains(where: { $0.task == task })
            else { return }
            backgroundTimeIsUp = true
            deliverToApp(.backgroundTaskExpiring(task), &context)
            context.setTimer(
                after: policy.backgroundTaskWatchdogDelay,
                .osTimer(.backgroundTaskWatchdog(task, generation: generation)))
            reconsiderSuspension(&context)
        case .backgroundTaskWatchdog(let task, let generation):
            // R-F1: an app that never ends its task is killed.
            // An app back in the foreground, or kept running otherwise, has time again.
            if generation == self.generation, backgroundTimeEnds != nil,
                backgroundTasks.contains(where: { $0.task == task })
            {
                terminate(.watchdog, &context)
            }
        case .appRefreshDue(let identifier):
            guard let index = pendingRefreshes.firstIndex(where: { $0.identifier == identifier })
            else { return }
            pendingRefreshes.remove(at: index)
            beginWake(.appRefresh(identifier: identifier), &context)
        case .wakeExpired(let task, let generation):
            guard generation == self.generation,
                let index = wakes.firstIndex(where: { $0.task == task })
            else { return }
            wakes[index].expiry = nil
            switch wakes[index].kind {
            case .remoteNotification:
                // R-H4: the completion handler was not called in time.
                terminate(.watchdog, &context)
            case .backgroundURLSession:
                // R-H6: Apple documents no consequence of a completion handler not called;
                // the wake no longer keeps the app running.
                reconsiderSuspension(&context)
            case .appRefresh, .processing:
                deliverToApp(.wakeExpiring(task), &context)
                context.setTimer(
                    after: policy.backgroundTaskWatchdogDelay,
                    .osTimer(.wakeWatchdog(task, generation: generation)))
                reconsiderSuspension(&context)
            }
        case .processingDue(let identifier):
            processingDue(identifier, &context)
        case .wakeWatchdog(let task, let generation):
            // R-H3: a task not completed after its expiration call. An app the user brought
            // back to the foreground is not killed.
            if generation == self.generation, state == .background,
                wakes.contains(where: { $0.task == task })
            {
                terminate(.watchdog, &context)
            }
        }
    }

    // MARK: - Wakes that are not location events (R-H1–R-H4)

    /// Runs the app in the background for `kind`: resumes it, launches it, or (a refresh in
    /// the foreground) waits for the background; refused after a force-quit (R-H2).
    func beginWake(_ kind: WakeKind, _ context: inout Scheduler<WorldMessage>) {
        // R-H12, R-H13: with Background App Refresh off, a due task request does not run.
        if kind.needsBackgroundRefresh, let rule = backgroundRefreshOffRule {
            return dropWake(kind, rule: rule, &context)
        }
        switch state {
        case .foreground:
            if case .appRefresh(let identifier) = kind {
                refreshesAwaitingBackground.append(identifier)
            } else {
                guard noteWake(kind, &context) else { return }
                wakeCount += 1  // no time limit for an app in use
                deliverToApp(.wake(WakeTaskID(wakeCount), kind), &context)
            }
        case .background:
            startWake(kind, &context)
        case .suspended:
            resume(&context)
            startWake(kind, &context)
        case .notRunning, .terminated:
            guard lastTermination != .forceQuit else {
                wakeCount += 1
                context.send(
                    .deliver(
                        .wake(WakeTaskID(wakeCount), kind), generation: generation,
                        withheld: .notRelaunched(rule: "R-H2"), boot: nil), to: app)
                return
            }
            launch(into: .background, &context)
            // Launched for this wake, not for a location event: it is not an idle relaunch.
            launchedInBackground = false
            startWake(kind, &context)
        }
    }

    /// Notes that the system begins a wake of `kind` now: a task request starts the interval
    /// to the next (R-H15). Returns false, having stopped the run, when the model has begun
    /// it over and over at this instant (`ModelLoop`): Lifeline's loop, not the app's.
    private func noteWake(_ kind: WakeKind, _ context: inout Scheduler<WorldMessage>) -> Bool {
        if kind.needsBackgroundRefresh { lastTaskRequestBegan = context.now }
        guard modelLoop == nil else { return false }
        if let loop = loopGuard.note("\(kind) began", rule: kind.rule, at: context.now) {
            modelLoop = loop
            context.requestStop()
            return false
        }
        return true
    }

    /// The earliest instant a task request with `earliestBegin` may begin: no sooner than
    /// `taskRequestIntervalMin` after the last one began (R-H15), nor than now.
    func taskRequestDue(earliestBegin: Instant, now: Instant) -> Instant {
        let floor = lastTaskRequestBegan.map { $0 + policy.taskRequestIntervalMin } ?? now
        return max(earliestBegin, floor, now)
    }

    /// Why Background App Refresh is off for the app, if it is: the user turned it off in
    /// Settings (R-H12), or Low Power Mode is on, which turns it off (R-H13; the user's own
    /// setting is named first).
    private var backgroundRefreshOffRule: String? {
        !backgroundRefreshEnabled ? "R-H12" : lowPowerMode ? "R-H13" : nil
    }

    /// Records that the wake of `kind` never reached the app, naming the rule.
    private func dropWake(
        _ kind: WakeKind, rule: String, _ context: inout Scheduler<WorldMessage>
    ) {
        wakeCount += 1
        context.send(
            .deliver(
                .wake(WakeTaskID(wakeCount), kind), generation: generation,
                withheld: .notRelaunched(rule: rule), boot: nil), to: app)
    }

    /// Hands the running background app a wake that keeps it running for its time (R-H3,
    /// R-H4).
    func startWake(_ kind: WakeKind, _ context: inout Scheduler<WorldMessage>) {
        guard noteWake(kind, &context) else { return }
        wakeCount += 1
        let task = WakeTaskID(wakeCount)
        let runtime =
            switch kind {
            case .appRefresh: policy.appRefreshRuntime
            case .remoteNotification: policy.remoteNotificationRuntime
            case .backgroundURLSession: policy.backgroundSessionEventsRuntime
            case .processing: policy.processingTaskRuntime
            }
        let expiry = context.setTimer(
            after: runtime, .osTimer(.wakeExpired(task, generation: generation)))
        wakes.append((task, kind, expiry))
        deliverToApp(.wake(task, kind), &context)
        reconsiderSuspension(&context)
    }

    /// A submitted app refresh request: due at its earliest begin date, replacing a pending
    /// one with the same identifier (R-H1).
    private func submitRefresh(
        _ identifier: String, earliestBegin: Instant, dated: Bool,
        _ context: inout Scheduler<WorldMessage>
    ) {
        cancelRefreshes(identifier, &context)
        refreshEarliestBegins.removeAll { $0.identifier == identifier }
        refreshEarliestBegins.append((identifier, dated ? earliestBegin : nil))
        let delay = taskRequestDue(earliestBegin: earliestBegin, now: context.now) - context.now
        let due = context.setTimer(after: delay, .osTimer(.appRefreshDue(identifier)))
        pendingRefreshes.append((identifier, due))
    }

    /// Cancels the pending refresh requests with `identifier`, or all of them (nil).
    private func cancelRefreshes(_ identifier: String?, _ context: inout Scheduler<WorldMessage>) {
        for pending in pendingRefreshes where identifier == nil || pending.identifier == identifier
        {
            context.cancel(pending.due)
        }
        pendingRefreshes.removeAll { identifier == nil || $0.identifier == identifier }
        refreshesAwaitingBackground.removeAll { identifier == nil || $0 == identifier }
    }

    /// The app refresh and processing requests held and not yet run (R-H1, R-H10): app
    /// refreshes first (due ones waiting for the background, then those not yet due, each in
    /// the order it came to its list), then processing requests in the order submitted.
    private var pendingTaskRequests: [PendingTaskRequest] {
        func refresh(_ identifier: String) -> PendingTaskRequest {
            let begin = refreshEarliestBegins.last { $0.identifier == identifier }?.earliestBegin
            return PendingTaskRequest(
                identifier: identifier, kind: .appRefresh, earliestBegin: begin)
        }
        return refreshesAwaitingBackground.map(refresh)
            + pendingRefreshes.map { refresh($0.identifier) }
            + processingTasks.requests.map { request in
                PendingTaskRequest(
                    identifier: request.identifier,
                    kind: .processing(
                        requiresNetworkConnectivity: request.requiresNetwork,
                        requiresExternalPower: request.requiresPower),
                    earliestBegin: request.dated ? request.earliestBegin : nil)
            }
    }

    // MARK: - Launch, wake, termination

    private func launch(into launchState: ProcessState, _ context: inout Scheduler<WorldMessage>) {
        cancel(&pendingRelaunch, &context)  // the user's launch comes first
        generation += 1
        lastTermination = nil
        registeredThisProcess = false
        backgroundTasks.removeAll()  // a task of the ended process (the kill cancelled its timers)
        wakes.removeAll()
        reportedBackgroundTime = nil
        launchedInBackground = launchState == .background
        state = launchState
        context.send(.processChanged(launchState, generation: generation, cause: nil), to: daemon)
        let options =
            capabilities.sceneBased || launchState == .foreground
                || !policy.legacyLaunchOptionsCarryLocation
            ? [] : ["location"]
        let launchContext = LaunchContext(
            state: launchState, protectedDataAvailable: unlockedSinceBoot,
            launchOptions: options, authorization: authorization, accuracyAuthorization: accuracy)
        reportBackgroundTime(&context)  // a watching app reads it from its launch
        context.send(.launch(launchContext, generation: generation), to: app)
        if launchState == .background {
            wakeRuntime = context.setTimer(
                after: policy.backgroundWakeRuntime,
                .osTimer(.wakeRuntimeEnded(generation: generation)))
        }
        deliverHeldBackgroundTransferEvents(&context)
    }

    /// Launches the ended app into the background for a wake that is not a location event: it
    /// is not an idle relaunch (R-H1, R-H4, R-H6).
    func launchForWake(_ context: inout Scheduler<WorldMessage>) {
        launch(into: .background, &context)
        launchedInBackground = false
    }

    /// Resumes the suspended app for a wake.
    func resumeForWake(_ context: inout Scheduler<WorldMessage>) { resume(&context) }

    /// The daemon has an event for the app: resume it, or relaunch it if the rules allow.
    private func wake(for mechanism: RelaunchMechanism, _ context: inout Scheduler<WorldMessage>) {
        switch state {
        case .foreground, .background:
            return
        case .suspended:
            // Resuming for an event needs what relaunching would (R-A3, R-F5); otherwise the
            // event waits in the mailbox until the app runs again.
            guard relaunchRefusal(for: mechanism) == nil else { return }
            resume(&context)
            cancel(&wakeRuntime, &context)
            wakeRuntime = context.setTimer(
                after: policy.backgroundWakeRuntime,
                .osTimer(.wakeRuntimeEnded(generation: generation)))
        case .notRunning, .terminated:
            // A relaunch already on its way brings a process that may listen for this event.
            guard pendingRelaunch == nil else { return }
            if let refusal = relaunchRefusal(for: mechanism) {
                context.send(.wakeRefused(mechanism, refusal), to: app)
                return
            }
            pendingRelaunch = context.setTimer(
                after: policy.relaunchLatency(for: mechanism), .osTimer(.relaunch(mechanism)))
        }
    }

    /// Why `mechanism` may not relaunch the ended app now, if it may not: only Always
    /// authorization relaunches an app (R-F5; a session also with When In Use, R-B9), and
    /// after a force-quit only the mechanisms the preset allows (R-B4–R-B6).
    func relaunchRefusal(for mechanism: RelaunchMechanism) -> DropReason? {
        guard authorization == .always || (mechanism == .session && authorization == .whenInUse)
        else { return .notRelaunched(rule: "R-F5") }
        guard lastTermination == .forceQuit else { return nil }
        let (allowed, rule) =
            switch mechanism {
            case .significantChange: (policy.forceQuitRelaunchBySignificantChange, "R-B5")
            case .region: (policy.forceQuitRelaunchByRegion, "R-B6")
            case .session: (policy.forceQuitRelaunchBySession, "R-B4")
            case .visit, .boot: (false, "R-B5")
            }
        return allowed ? nil : .notRelaunched(rule: rule)
    }

    private func resume(_ context: inout Scheduler<WorldMessage>) {
        setState(.background, &context)
    }

    private func terminate(_ cause: TerminationCause, _ context: inout Scheduler<WorldMessage>) {
        let ended = generation
        stopBackgroundTime(&context)
        backgroundTasks.removeAll()
        for wake in wakes { if let expiry = wake.expiry { context.cancel(expiry) } }
        wakes.removeAll()
        // Refreshes that waited for the background are due again once the process has ended.
        for identifier in refreshesAwaitingBackground {
            pendingRefreshes.append(
                (identifier, context.setTimer(after: .zero, .osTimer(.appRefreshDue(identifier)))))
        }
        refreshesAwaitingBackground.removeAll()
        processingAfterTermination(&context)
        if promptIsTemporaryFullAccuracy {
            cancel(&prompt, &context)
            promptIsTemporaryFullAccuracy = false
        }
        cancel(&leaving, &context)
        cancel(&suspension, &context)
        cancel(&wakeRuntime, &context)
        lastTermination = cause
        daemonKeepsAlive = false
        state = .terminated
        context.send(.processChanged(.terminated, generation: ended, cause: cause), to: daemon)
        if temporaryFullAccuracy {
            temporaryFullAccuracy = false
            accuracy = .reduced
            context.send(.authorizationChanged(authorization, accuracy), to: daemon)
        }
        context.send(.kill(cause, generation: ended), to: app)
    }

    // MARK: - Staying running

    private var isKeptRunning: Bool {
        daemonKeepsAlive || (!backgroundTasks.isEmpty && !backgroundTimeIsUp) || testHostAttached
            || wakeRuntime != nil || wakes.contains { $0.expiry != nil }
    }

    /// Schedules or cancels the suspension of a background app as its keep-alives change.
    private func reconsiderSuspension(_ context: inout Scheduler<WorldMessage>) {
        reconsiderBackgroundTime(&context)
        guard state == .background else { return }
        if isKeptRunning {
            cancel(&suspension, &context)
        } else if suspension == nil {
            suspension = context.setTimer(
                after: policy.suspensionDelay, .osTimer(.suspend(generation: generation)))
        }
    }

    /// The user (or the prompt's answer) set the authorization: the daemon and a running or
    /// suspended app are told.
    private func setAuthorization(
        _ value: Authorization, _ context: inout Scheduler<WorldMessage>
    ) {
        let seen = authorization
        grantedAuthorization = value
        // While Location Services are off the app's own choice is kept for later (R-L42).
        guard authorization != seen || locationServicesEnabled else { return }
        context.send(.authorizationChanged(authorization, accuracy), to: daemon)
        if state.exists { deliverToApp(.authorization(authorization), &context) }
    }

    /// The user turned Location Services off or on for the whole phone (R-L40–R-L42): the app
    /// process reads the switch (`locationServicesEnabled()`); the daemon and a running or
    /// suspended app are told the authorization the app now sees, `denied` while off (R-L41),
    /// its own when on again (R-L42), as a change of its authorization.
    private func setLocationServices(_ on: Bool, _ context: inout Scheduler<WorldMessage>) {
        guard on != locationServicesEnabled else { return }
        locationServicesEnabled = on
        context.send(.user(.setLocationServices(on)), to: app)
        guard grantedAuthorization != .denied else { return }
        context.send(.authorizationChanged(authorization, accuracy), to: daemon)
        if state.exists { deliverToApp(.authorization(authorization), &context) }
    }

    /// Shows the prompt an authorization request calls for (`AuthorizationAnswers`), if any:
    /// only to an app in the foreground with no prompt on screen; Always once per app.
    private func promptIfAllowed(
        for request: AppRequest, _ context: inout Scheduler<WorldMessage>
    ) {
        guard state == .foreground, prompt == nil else { return }
        let answer: Authorization
        switch (request, authorization) {
        case (.requestWhenInUseAuthorization, .notDetermined):
            answer = answers.whenInUse
        case (.requestAlwaysAuthorization, .notDetermined) where !alwaysRequested:
            alwaysRequested = true
            answer = answers.whenInUse
        case (.requestAlwaysAuthorization, .whenInUse) where !alwaysRequested:
            alwaysRequested = true
            answer = answers.always
        default:
            return
        }
        prompt = context.setTimer(
            after: answers.responseDelay, .osTimer(.authorizationPromptAnswered(answer)))
    }

    private func handleTaskRequests(
        _ requests: [AppRequest], _ context: inout Scheduler<WorldMessage>
    ) {
        for request in requests {
            assert(request.isOperatingSystemRequest, "location requests go to the daemon")
            switch request {
            case .requestWhenInUseAuthorization, .requestAlwaysAuthorization:
                promptIfAllowed(for: request, &context)
            case .requestTemporaryFullAccuracy(_, let answer):
                // In the background the request fails (ios-facts: Reduced accuracy); with full
                // accuracy, or another prompt on screen, no prompt shows either
                // (`TemporaryFullAccuracyOutcome.notShown`).
                guard state == .foreground, prompt == nil, accuracy == .reduced else {
                    if let answer {
                        deliverToApp(
                            .answer(request: answer, .temporaryFullAccuracy(.notShown)), &context)
                    }
                    break
                }
                promptIsTemporaryFullAccuracy = true
                prompt = context.setTimer(
                    after: answers.responseDelay,
                    .osTimer(
                        .temporaryFullAccuracyAnswered(
                            granted: answers.temporaryFullAccuracy, generation: generation,
                            answer: answer)))
            case .getPendingTaskRequests(let answer):
                deliverToApp(
                    .answer(request: answer, .pendingTaskRequests(pendingTaskRequests)), &context)
            case .beginBackgroundTask(let task):
                backgroundTasks.append((task, nil))  // its expiry: reconsiderBackgroundTime
            case .endBackgroundTask(let task):
                if let index = backgroundTasks.firstIndex(where: { $0.task == task }) {
                    cancel(&backgroundTasks[index].expiry, &context)
                    backgroundTasks.remove(at: index)
                }
            case .submitAppRefresh(let identifier, let earliestBegin, let dated):
                submitRefresh(identifier, earliestBegin: earliestBegin, dated: dated, &context)
            case .cancelAppRefresh(let identifier):
                cancelRefreshes(identifier, &context)
                cancelProcessing(identifier, &context)
            case .submitProcessing(
                let identifier, let earliestBegin, let dated, let network, let power):
                submitProcessing(
                    identifier, earliestBegin: earliestBegin, dated: dated,
                    requiresNetwork: network,
                    requiresPower: power, &context)
            case .completeWake(let task, _):
                if let index = wakes.firstIndex(where: { $0.task == task }) {
                    cancel(&wakes[index].expiry, &context)
                    wakes.remove(at: index)
                }
            case .watchBackgroundTime:
                backgroundTimeWatched = true  // told by `reconsiderSuspension` below
            default: break
            }
        }
        reconsiderSuspension(&context)
    }

    /// Starts the background-time clock when the app holds a task on borrowed time, gives every
    /// held task its expiry at the clock's end, or stops the clock when the app no longer runs
    /// on borrowed time (R-F1).
    private func reconsiderBackgroundTime(_ context: inout Scheduler<WorldMessage>) {
        defer { reportBackgroundTime(&context) }
        guard isOnBorrowedTime else { return stopBackgroundTime(&context) }
        guard !backgroundTasks.isEmpty else { return }
        let ends = backgroundTimeEnds ?? context.now + taskLifetime()
        backgroundTimeEnds = ends
        let remaining = ends < context.now ? VirtualDuration.zero : ends - context.now
        for index in backgroundTasks.indices where backgroundTasks[index].expiry == nil {
            backgroundTasks[index].expiry = context.setTimer(
                after: remaining,
                .osTimer(
                    .backgroundTaskExpired(backgroundTasks[index].task, generation: generation)))
        }
    }

    private func stopBackgroundTime(_ context: inout Scheduler<WorldMessage>) {
        backgroundTimeEnds = nil
        backgroundTimeIsUp = false
        for index in backgroundTasks.indices {
            cancel(&backgroundTasks[index].expiry, &context)
        }
    }

    /// The app runs in the background on borrowed time: nothing but its tasks and wakes keeps
    /// it running (R-F1).
    private var isOnBorrowedTime: Bool {
        state == .background && !daemonKeepsAlive && !testHostAttached
    }

    /// Tells a watching app's running process its background time when it has changed
    /// (`WorldMessage.backgroundTime`): the figure `backgroundTimeRemaining` reads (R-F1).
    private func reportBackgroundTime(_ context: inout Scheduler<WorldMessage>) {
        guard backgroundTimeWatched, state.isRunning else { return }
        let report: BackgroundTimeReport
        if !isOnBorrowedTime {
            report = .unlimited
        } else if let ends = backgroundTimeEnds {
            report = .endsAt(ends)
        } else {
            if nextTaskLifetime == nil { nextTaskLifetime = drawTaskLifetime() }
            report = .startsWithTask(nextTaskLifetime!)
        }
        guard report != reportedBackgroundTime else { return }
        reportedBackgroundTime = report
        context.send(.backgroundTime(report, generation: generation), to: app)
    }

    /// The next stint's background time: the one drawn in advance for a watching app, if any.
    private func taskLifetime() -> VirtualDuration {
        defer { nextTaskLifetime = nil }
        return nextTaskLifetime ?? drawTaskLifetime()
    }

    /// The app's background time, cut short at a random point with the policy's early-expiry
    /// chance.
    private func drawTaskLifetime() -> VirtualDuration {
        let budget = policy.backgroundTaskBudget
        guard policy.backgroundTaskEarlyExpiryPercent > 0, budget.nanoseconds > 0,
            random.nextBounded(below: 100) < UInt64(policy.backgroundTaskEarlyExpiryPercent)
        else { return budget }
        return .nanoseconds(Int64(random.nextBounded(below: UInt64(budget.nanoseconds))))
    }

    /// Moves the running process to `newState`, telling the daemon and the app: UIKit's
    /// foreground and background transitions, or, to the app's mailbox only, suspension and
    /// resumption.
    private func setState(_ newState: ProcessState, _ context: inout Scheduler<WorldMessage>) {
        let previous = state
        state = newState
        if newState != .background {
            cancel(&suspension, &context)
            stopBackgroundTime(&context)
        }
        context.send(.processChanged(newState, generation: generation, cause: nil), to: daemon)
        // Before the lifecycle message, so `applicationDidEnterBackground` reads the new figure.
        reportBackgroundTime(&context)
        let toApp: WorldMessage =
            switch (previous, newState) {
            case (_, .suspended): .suspended(generation: generation)
            case (.suspended, .background): .resumed(generation: generation)
            default: .lifecycle(newState, generation: generation)
            }
        context.send(toApp, to: app)
        if previous == .suspended && newState.isRunning {
            deliverHeldBackgroundTransferEvents(&context)
        }
    }

    /// Sends a callback to the current process, through the app's mailbox.
    func deliverToApp(_ item: AppItem, _ context: inout Scheduler<WorldMessage>) {
        context.send(
            .deliver(item, generation: generation, withheld: nil, boot: nil), to: app)
    }

    private func cancel(_ handle: inout EventHandle?, _ context: inout Scheduler<WorldMessage>) {
        if let existing = handle { context.cancel(existing) }
        handle = nil
    }
}
