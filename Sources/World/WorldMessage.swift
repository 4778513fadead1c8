// Everything delivered in a world simulation (layer 3): user actions, what the app asks, what
// the operating system and the location daemon tell each other and the app, and their timers.
import Simulation

/// What the person holding the phone, or the system around it, does.
public enum UserAction: Sendable, Equatable, CustomStringConvertible {
    /// Opens the app (launch, or return to it).
    case open
    /// Leaves the app (home gesture, another app).
    case leave
    case lock
    case unlock
    /// Swipes the app away in the app switcher.
    case forceQuit
    /// The system needs memory (purges a suspended app, R-F3).
    case memoryPressure
    case crash
    /// The process exits on its own (a test host at the end of its test).
    case exit
    case reboot
    case setAuthorization(Authorization)
    case setAccuracy(AccuracyAuthorization)
    /// XCTest hosting the app keeps its process running in the background (source A's setup).
    case attachTestHost(Bool)
    /// A Live Activity of the app starts (ActivityKit), or ends (R-C4): while one is active the
    /// app counts as in use, so it receives background locations with no other configuration.
    case startLiveActivity
    case endLiveActivity
    /// The network goes down: requests fail (`Network`).
    case networkDown
    /// The network is up again, at its normal latency (`uploadLatency`).
    case networkUp
    /// The network is up but slow: requests take `uploadLatency` plus this.
    case networkSlow(VirtualDuration)
    /// The user turns Low Power Mode on or off (`ProcessInfo.isLowPowerModeEnabled`). While it
    /// is on, Background App Refresh is off (R-H13: the operating system refuses and drops app
    /// refresh and processing requests as with `setBackgroundRefresh(false)`, and
    /// `backgroundRefreshStatus` reads `.denied`). The world models no effect of it on location
    /// services (ios-facts: Low Power Mode, no documented change to Core Location).
    case setLowPowerMode(Bool)
    /// The device's wall clock is set forward (positive) or back by this much (network time,
    /// or the user): `kern.boottime` is the wall clock less the uptime, so the boot time the
    /// app reads moves by the same amount while the uptime does not (R-B12's drift tolerance
    /// exists for this). Nothing else in the world reads the wall clock.
    case adjustClock(by: VirtualDuration)
    /// The user turns tracking on or off in the app's own UI (the host app's switch): the
    /// engine's `AppEngine.userDidSetTracking(_:services:)`. The switch is on screen only
    /// while the app is in the foreground, so the operating system first does what `open`
    /// does (it unlocks the device, launches the app into the foreground or brings it back),
    /// then hands the toggle to the app through its mailbox (`AppItem.trackingToggled`),
    /// after the launch or the move to the foreground on the same channel. It never reaches a
    /// process in the background. A process that crashed in its launch never gets it: it is
    /// dropped with the process's end, as any item for it.
    case trackingOn
    case trackingOff
    /// A background (silent) remote notification reaches the device: the system wakes a
    /// suspended app, or launches an ended one, in the background and hands it the push
    /// (`didReceiveRemoteNotification:fetchCompletionHandler:`), with
    /// `remoteNotificationRuntime` to call its completion handler (R-H4); never after a
    /// force-quit (R-H2). An app in the foreground gets it with no time limit.
    case silentPush
    /// The user turns Background App Refresh for the app on or off in Settings
    /// (`UIApplication.backgroundRefreshStatus`): while it is off the system refuses app
    /// refresh and processing requests and runs none that come due (R-H12). On at the start.
    case setBackgroundRefresh(Bool)
    /// The user plugs the charger in (true) or pulls it out (false): the battery charges
    /// while it is in, and drains while it is out (R-B1, R-B2). Out at the start.
    case setCharger(Bool)
    /// The app's server goes down for maintenance (R-N41): it answers every request with 503
    /// Service Unavailable and `Retry-After` (`IOSPolicy.serverRetryAfter`) and stores nothing,
    /// until `serverUp`. The network stays up: the request reaches the server.
    case serverDown
    /// The server is back to normal: it stores what it receives and answers 200 (R-N40).
    case serverUp
    /// The server answers this much later than usual (R-N44): a request takes `uploadLatency`
    /// plus this (and the network's own extra latency), and is stored when it is answered.
    case serverSlow(VirtualDuration)
    /// The server throttles (R-N43): it answers every request with 429 Too Many Requests and
    /// `Retry-After` of this duration, and stores nothing, until `serverUp`.
    case serverThrottling(VirtualDuration)
    /// The user turns Location Services off or on for the whole phone (Settings, Privacy,
    /// Location Services; R-L40): while off, every app's authorization reads `denied` and its
    /// location services stop (R-L41); on again, its own authorization comes back (R-L42).
    case setLocationServices(Bool)

    /// True for the actions only the app process reads (the clock).
    var isAppAction: Bool {
        switch self {
        case .adjustClock: true
        default: false
        }
    }

    var isNetworkAction: Bool {
        switch self {
        case .networkDown, .networkUp, .networkSlow: true
        case .serverDown, .serverUp, .serverSlow, .serverThrottling: true
        default: false
        }
    }

    /// The words of a scenario file, which the trace, the timeline and the pictures use too.
    public var description: String { spelling.text }

    /// How the action is written, and who does it (UserAction+Words.swift): one row per case.
    /// The switch has no default, so a new case is not built until it has its words; the
    /// parser reads them back from `readable`, with no code of its own per case.
    package var spelling: Spelling {
        switch self {
        case .open: Spelling(.user, "open", aliases: ["launch", "return"])
        case .leave: Spelling(.user, "leave")
        case .lock: Spelling(.user, "lock")
        case .unlock: Spelling(.user, "unlock")
        case .forceQuit: Spelling(.user, "force-quit")
        case .memoryPressure: Spelling(.system, "memory-pressure")
        case .crash: Spelling(.system, "crash")
        case .exit: Spelling(.system, "exit")
        case .reboot: Spelling(.system, "reboot")
        case .setAuthorization(let value):
            Spelling(.user, "authorization", value: .word(value.rawValue, name: "an authorization"))
        case .setAccuracy(let value):
            Spelling(.user, "precise-location", value: Self.onOff(value == .full))
        case .attachTestHost(let on): Spelling(.system, "test-host", value: Self.onOff(on))
        case .startLiveActivity: Spelling(.user, "live-activity", "start")
        case .endLiveActivity: Spelling(.user, "live-activity", "end")
        case .networkDown: Spelling(.network, "network", "down")
        case .networkUp: Spelling(.network, "network", "up")
        case .networkSlow(let extra):
            Spelling(
                .network, "network", "slow",
                value: .duration(extra, signed: false, name: "the extra latency") {
                    .networkSlow($0)
                })
        case .setLowPowerMode(let on): Spelling(.user, "low-power", value: Self.onOff(on))
        case .adjustClock(let offset):
            Spelling(
                .system, "clock",
                value: .duration(offset, signed: true, name: "a clock adjustment") {
                    .adjustClock(by: $0)
                })
        case .trackingOn: Spelling(.user, "tracking", "on")
        case .trackingOff: Spelling(.user, "tracking", "off")
        case .silentPush: Spelling(.network, "silent-push")
        case .setBackgroundRefresh(let on):
            Spelling(.user, "background-refresh", value: Self.onOff(on))
        case .setCharger(let on): Spelling(.user, "charger", value: Self.onOff(on))
        case .serverDown: Spelling(.network, "server", "down")
        case .serverUp: Spelling(.network, "server", "up")
        case .serverSlow(let extra):
            Spelling(
                .network, "server", "slow",
                value: .duration(extra, signed: false, name: "the server's extra latency") {
                    .serverSlow($0)
                })
        case .serverThrottling(let retryAfter):
            Spelling(
                .network, "server", "throttling",
                value: .duration(retryAfter, signed: false, name: "the Retry-After delay") {
                    .serverThrottling($0)
                })
        case .setLocationServices(let on):
            Spelling(.user, "location-services", value: Self.onOff(on))
        }
    }

    /// Every action a scenario file can write: each case, with every value of its own when it
    /// carries one (a duration once, at zero: the file gives it), kinds in the order an error
    /// lists their first words, values in the order it lists them.
    package static let readable: [UserAction] =
        [.open, .leave, .lock, .unlock, .forceQuit, .memoryPressure, .crash, .exit, .reboot]
        + Authorization.allCases.map { .setAuthorization($0) }
        + [
            .setAccuracy(.full), .setAccuracy(.reduced), .setLowPowerMode(true),
            .setLowPowerMode(false), .startLiveActivity, .endLiveActivity, .networkDown,
            .networkUp, .networkSlow(.zero), .adjustClock(by: .zero), .trackingOn, .trackingOff,
            .attachTestHost(true), .attachTestHost(false), .silentPush,
            .setBackgroundRefresh(true), .setBackgroundRefresh(false), .setCharger(true),
            .setCharger(false),
            .serverDown, .serverUp, .serverSlow(.zero), .serverThrottling(.zero),
            .setLocationServices(false), .setLocationServices(true),
        ]
}

/// The operating system's timers.
package enum OSTimer: Sendable, Equatable, CustomStringConvertible {
    case enterBackground(generation: Int)
    case suspend(generation: Int)
    case wakeRuntimeEnded(generation: Int)
    case relaunch(RelaunchMechanism)
    case backgroundTaskExpired(ObjectID, generation: Int)
    case backgroundTaskWatchdog(ObjectID, generation: Int)
    /// The user answers an authorization prompt.
    case authorizationPromptAnswered(Authorization)
    /// The user answered the temporary full accuracy prompt; the app's completion waits for
    /// `answer`, if any.
    case temporaryFullAccuracyAnswered(granted: Bool, generation: Int, answer: ObjectID?)
    /// An app refresh request's earliest begin date came (R-H1).
    case appRefreshDue(String)
    /// A processing request's earliest begin date came, or a due one may run now (R-H10).
    case processingDue(String)
    /// A wake's time is up (R-H3, R-H4).
    case wakeExpired(WakeTaskID, generation: Int)
    /// An app refresh task still not completed after its expiry (R-H3).
    case wakeWatchdog(WakeTaskID, generation: Int)

    package var description: String {
        switch self {
        case .enterBackground(let generation): "enter background (process \(generation))"
        case .suspend(let generation): "suspend (process \(generation))"
        case .wakeRuntimeEnded(let generation): "wake runtime ended (process \(generation))"
        case .relaunch(let mechanism): "relaunch for \(mechanism.rawValue)"
        case .authorizationPromptAnswered(let answer):
            "authorization prompt answered \(answer.rawValue)"
        case .temporaryFullAccuracyAnswered(let granted, let generation, _):
            "temporary full accuracy \(granted ? "granted" : "declined") (process \(generation))"
        case .backgroundTaskExpired(let task, let generation):
            "background task \(task) expired (process \(generation))"
        case .backgroundTaskWatchdog(let task, let generation):
            "background task \(task) watchdog (process \(generation))"
        case .appRefreshDue(let identifier): "app refresh \(identifier) due"
        case .processingDue(let identifier): "processing \(identifier) due"
        case .wakeExpired(let task, let generation): "\(task) expired (process \(generation))"
        case .wakeWatchdog(let task, let generation): "\(task) watchdog (process \(generation))"
        }
    }
}

/// The location daemon's timers.
package enum DaemonTimer: Sendable, Equatable, CustomStringConvertible {
    case fix
    case motionResumes
    case graceEnded(generation: Int)
    case deniedSignal(ObjectID, generation: Int)
    case significantChange
    case regionExit(RegionKey)
    case regionEntry(RegionKey)
    case visit
    /// A `requestLocation()` of the manager got no fix to the app in time (R-G1).
    case locationRequestTimedOut(ObjectID, generation: Int)

    package var description: String {
        switch self {
        case .fix: "fix"
        case .motionResumes: "motion resumes"
        case .graceEnded(let generation): "grace ended (process \(generation))"
        case .deniedSignal(let manager, let generation):
            "denied signal for manager \(manager) (process \(generation))"
        case .significantChange: "significant change"
        case .regionExit(let key): "exit \(key)"
        case .regionEntry(let key): "entry \(key)"
        case .visit: "visit"
        case .locationRequestTimedOut(let manager, let generation):
            "location request of manager \(manager) timed out (process \(generation))"
        }
    }
}

/// The app process's timers: held events whose listener did not come back in time, and the
/// disk's writes (a store commit completing, the saved record written).
package enum AppTimer: Sendable, Equatable, CustomStringConvertible {
    case heldEventsExpired(generation: Int)
    case commitCompleted(CommitID, generation: Int)
    case savedRecordWrite(generation: Int)
    /// A timer the engine scheduled came due.
    case engineTimer(ObjectID, generation: Int)
    /// The earliest `Task.sleep` of the process's Swift concurrency came due
    /// (VirtualConcurrency): its jobs run now.
    case concurrencyWake(generation: Int)

    package var description: String {
        switch self {
        case .heldEventsExpired(let generation): "held events expired (process \(generation))"
        case .commitCompleted(let commit, let generation):
            "store \(commit) durable (process \(generation))"
        case .savedRecordWrite(let generation): "saved record written (process \(generation))"
        case .engineTimer(let timer, let generation): "timer \(timer) due (process \(generation))"
        case .concurrencyWake(let generation): "async jobs due (process \(generation))"
        }
    }
}

/// Every message of a world simulation. Messages to the app carry the process generation they
/// were meant for; a later process ignores them.
package enum WorldMessage: Sendable, CustomStringConvertible {
    // The scenario to the operating system.
    case user(UserAction)
    // The app process to the location daemon and the operating system.
    case requests([AppRequest], generation: Int)
    case processCrashed(reason: String, generation: Int)
    /// A monitor condition whose event found no listener stops being monitored (R-A12).
    case conditionAbandoned(RegionKey)
    // The app process to the network.
    /// An upload request of process `generation`.
    case upload(UploadRequest, generation: Int)
    /// The requests of process `generation` are cancelled: it was suspended outside a
    /// background task (R-D13) or ended (R-A1, R-F3).
    case cancelUploads(generation: Int, DropReason)
    /// A background `URLSession` upload handed to the system's transfer service (R-H5).
    /// `indirect` (boxed) to keep `WorldMessage` within 128 bytes (see `DropReason`).
    indirect case backgroundUpload(BackgroundUploadRequest)
    /// The transfer service cancels the background transfers the app process names (R-H5,
    /// R-H7).
    case cancelBackgroundTransfers(BackgroundTransferCancellation)
    /// The operating system asks the network to tell it whether it is up, now and at every
    /// change (processing requests that require the network, R-H10).
    case watchNetwork
    /// The app process asks the network to tell it whether it is up, now and at every change
    /// (an `NWPathMonitor` started, R-N47).
    case watchNetworkPath
    // The network to the operating system.
    /// Whether the network is up (R-H10), once asked (`watchNetwork`).
    case networkCondition(up: Bool)
    /// A background transfer ended; `sessionFinished` when its session has no work left (R-H6).
    indirect case backgroundTransferDone(
        BackgroundTransferEvent, sessionFinished: Bool, sendsLaunchEvents: Bool)
    // The operating system to the location daemon.
    case processChanged(ProcessState, generation: Int, cause: TerminationCause?)
    case authorizationChanged(Authorization, AccuracyAuthorization)
    case deviceBooted
    case firstUnlock
    /// A Live Activity of the app is active (true) or no longer (R-C4).
    case liveActivity(Bool)
    // The location daemon (or the app's mailbox, for an event it holds) to the operating system.
    case keepAlive(Bool)
    /// Asks for a wake or relaunch for `mechanism`; `boot` is the sender's boot count, so a
    /// request from before a reboot that crossed it is void (R-B7).
    case wake(RelaunchMechanism, boot: Int)
    case registered(generation: Int)
    // The operating system to the app: the process's life.
    case launch(LaunchContext, generation: Int)
    /// Foreground or background, as UIKit tells the app.
    case lifecycle(ProcessState, generation: Int)
    /// Suspended and resumed: the app's code is not told, its mailbox is (R-A2).
    case suspended(generation: Int)
    case resumed(generation: Int)
    case kill(TerminationCause, generation: Int)
    case deviceRebooted
    /// The screen was locked (the device sleeps: the uptime pauses) or unlocked.
    case screenLocked(Bool)
    /// The operating system will not relaunch the app for `mechanism` (R-F5, R-B4–R-B6): the
    /// events held for it are lost.
    case wakeRefused(RelaunchMechanism, DropReason)
    /// The app's background time as the operating system now counts it (R-F1), sent to an app
    /// that reads it (`AppRequest.watchBackgroundTime`) whenever it changes, and before the
    /// lifecycle message of the change that moved it.
    case backgroundTime(BackgroundTimeReport, generation: Int)
    /// Something for the app's code, through its mailbox: for one process (`generation`), or
    /// for whichever listens (`nil`, monitoring events). `withheld` is set when the sender's
    /// rules keep it from the app; the mailbox drops it with that reason.
    /// `boot` is the sender's boot count for an event (nil for an item bound to one process,
    /// which a reboot ends anyway): an event from before a reboot that crossed it is dropped
    /// (R-B7).
    case deliver(AppItem, generation: Int?, withheld: DropReason?, boot: Int?)
    /// The mailbox's record that an item never reached the app's code, and why.
    case dropped(AppItem, DropReason)
    /// The app process's record, for the trace, that iOS lost some of the app's data, and why
    /// (the log has it already).
    case lost(StorageLoss, DropReason)
    // Timers.
    case osTimer(OSTimer)
    case daemonTimer(DaemonTimer)
    case appTimer(AppTimer)
    case networkTimer(NetworkTimer)

    package var description: String {
        switch self {
        case .user(let action): "user \(action)"
        case .requests(let requests, let generation):
            "requests [\(requests.map(\.description).joined(separator: "; "))] (process \(generation))"
        case .processCrashed(let reason, let generation):
            "crashed (process \(generation)): \(reason)"
        case .conditionAbandoned(let key): "abandon \(key)"
        case .upload(let request, let generation): "upload \(request) (process \(generation))"
        case .cancelUploads(let generation, let reason):
            "cancel uploads (process \(generation)): \(reason)"
        case .backgroundUpload(let request):
            "background upload \(request) (process \(request.generation))"
        case .watchNetwork: "watch network"
        case .watchNetworkPath: "watch network path"
        case .networkCondition(let up): "network \(up ? "up" : "down") (to the system)"
        case .cancelBackgroundTransfers(let cancellation):
            "cancel background transfers: \(cancellation)"
        case .backgroundTransferDone(let event, let finished, _):
            "\(event)" + (finished ? ", session finished" : "")
        case .processChanged(let state, let generation, let cause):
            "process \(generation) \(state.rawValue)\(cause.map { " (\($0.rawValue))" } ?? "")"
        case .authorizationChanged(let authorization, let accuracy):
            "authorization \(authorization.rawValue) \(accuracy.rawValue)"
        case .deviceBooted: "device booted"
        case .firstUnlock: "first unlock"
        case .liveActivity(let active): "live activity \(active ? "active" : "ended")"
        case .keepAlive(let keeps): "keep alive \(keeps)"
        case .wake(let mechanism, _): "wake for \(mechanism.rawValue)"
        case .registered(let generation): "registered (process \(generation))"
        case .launch(let context, let generation): "launch process \(generation) \(context)"
        case .lifecycle(let state, let generation):
            "lifecycle \(state.rawValue) (process \(generation))"
        case .suspended(let generation): "suspended (process \(generation))"
        case .resumed(let generation): "resumed (process \(generation))"
        case .kill(let cause, let generation): "kill process \(generation) (\(cause.rawValue))"
        case .deviceRebooted: "device rebooted"
        case .screenLocked(let locked): "screen \(locked ? "locked" : "unlocked")"
        case .wakeRefused(let mechanism, let reason):
            "no relaunch for \(mechanism.rawValue): \(reason)"
        case .backgroundTime(let report, let generation):
            "background time \(report) (process \(generation))"
        case .deliver(let item, let generation, let withheld, _):
            "\(item) (\(generation.map { "process \($0)" } ?? "any process"))"
                + (withheld.map { ", withheld: \($0)" } ?? "")
        case .dropped(let item, let reason): "dropped \(item): \(reason)"
        case .lost(let loss, let reason): "lost \(loss): \(reason)"
        case .osTimer(let timer): "os timer \(timer)"
        case .daemonTimer(let timer): "daemon timer \(timer)"
        case .appTimer(let timer): "app timer \(timer)"
        case .networkTimer(let timer): "network timer \(timer)"
        }
    }
}
