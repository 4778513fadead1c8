// The operating system's rules and numbers (layer 3): every value the world model uses, named,
// documented with the rule of docs/rules.md it implements and its source (docs/sources.md).
import Simulation

/// How iOS treats a location-tracking app: every number and switch of the world model.
///
/// Defaults are the `measured` preset: calibrated to the article that measured each boundary
/// (source A) and the SDK that measured relaunches on a device (source B), with documented
/// values (source F) where nothing was measured.
///
/// Each property's comment names the rule of `docs/rules.md` it implements and its source by
/// letter (`docs/sources.md`): A = an article measuring each boundary on iOS 27, B = a
/// session-engine SDK, measured on a device, C = Apple's live-updates talk, D = a
/// standard-updates SDK, F = a sheet of documented numbers. Presets per iOS
/// generation change what exists and which mechanism relaunches after a force-quit. A policy
/// file overrides any property by name (`IOSPolicy.load(path:)`).
public struct IOSPolicy: Sendable, Equatable {
    /// The preset this policy started from (informational).
    public var name = "measured"

    // MARK: Process lifecycle

    /// Time from the user starting to leave the app until it is in the background (R-A4: "the
    /// app reached the background a second or so later"; 1.5 s puts 10 plain-manager fixes in
    /// the 20 s window, as measured, source A).
    package var leavingTransition = VirtualDuration.milliseconds(1_500)
    /// How long an app with nothing keeping it running stays in the background before it is
    /// suspended (R-A1 "shortly after"; `applicationDidEnterBackground` gets about 5 s, F).
    package var suspensionDelay = VirtualDuration.seconds(5)
    /// The app's background time: how long its background tasks keep it running in the
    /// background, counted from the first task held there and shared by every task of that
    /// stint (R-F1: about 30 s on recent iOS, F; `backgroundTimeRemaining` is one figure for
    /// the whole app, and unlimited in the foreground, F).
    package var backgroundTaskBudget = VirtualDuration.seconds(30)
    /// Time from a background task's expiry handler to the watchdog killing an app that has
    /// not ended the task (R-F1: "a task that is not ended gets the app killed by the
    /// watchdog", F; the delay is undocumented, a parameter).
    package var backgroundTaskWatchdogDelay = VirtualDuration.seconds(1)
    /// Chance, in percent, that the system ends a background task early, at a random point of
    /// its budget (R-F1: "may call the expiry handler early at any time", F). 0 = never.
    package var backgroundTaskEarlyExpiryPercent = 0
    /// Time an app woken or relaunched in the background for a location event runs before it
    /// is suspended, unless something keeps it running (R-F2: about 10 s, F).
    package var backgroundWakeRuntime = VirtualDuration.seconds(10)
    /// How long an app refresh task (`BGAppRefreshTask`) keeps the app running in the
    /// background before its expiration handler is called (R-H3). Apple's BackgroundTasks
    /// reference gives no figure (H: `BGAppRefreshTask`, "a short task"); 30 s is what Apple's
    /// WWDC 2019 talk "Advances in App Background Execution" (session 707) says app refresh
    /// gets, as third-party notes of it report: not documented on the reference pages.
    package var appRefreshRuntime = VirtualDuration.seconds(30)
    /// The least time between two task requests (app refresh or processing) the system begins
    /// for the app: a request due sooner after the last one began waits until this has passed
    /// (R-H15). Apple documents no figure: the system runs app refresh "at its discretion"
    /// and promises only not to start a request before its `earliestBeginDate` (H:
    /// `BGTaskScheduler`, `BGTaskRequest.earliestBeginDate`); 15 minutes is the delay Apple's
    /// own sample code asks for ("Fetch no earlier than 15 minutes from now", H: "Using
    /// background tasks to update your app"): an assumption, not a measurement.
    package var taskRequestIntervalMin = VirtualDuration.minutes(15)
    /// How long a silent push keeps the app running in the background for it to call its
    /// fetch completion handler before the process is killed (R-H4: "up to 30 seconds of
    /// wall-clock time", H: `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
    package var remoteNotificationRuntime = VirtualDuration.seconds(30)
    /// How long events wait for a process to recreate the service that listens for them
    /// before they are lost, and a monitor condition whose event found no listener stops
    /// being monitored (R-A12: "within a few seconds of launch", F; the wake runtime, R-F2).
    package var relaunchRecreateWindow = VirtualDuration.seconds(10)
    /// An app relaunched in the background that recreates no location service ends when its
    /// wake runtime is over, instead of staying suspended. Inferred from source A's relaunch
    /// table (two launches of a host that creates no manager, R-A10, R-A12).
    package var endsIdleBackgroundLaunch = true
    /// Time from a relaunch decision to the app's `didFinishLaunching`, per mechanism. For
    /// live updates held with a session: "within about 1 s" (R-B3, R-B4, B). For significant
    /// change, regions and visits the article measured the whole path from the event on (A);
    /// the event's own latency (`significantChangeLatency`, `regionExitLatency`,
    /// `visitDepartureLatency`) carries the difference, and these stay at 1 s. After a reboot,
    /// `rebootRelaunchDelay` is the measured figure (R-B7), and this adds nothing.
    package var relaunchLatencySession = VirtualDuration.seconds(1)
    package var relaunchLatencySignificantChange = VirtualDuration.seconds(1)
    package var relaunchLatencyRegion = VirtualDuration.seconds(1)
    package var relaunchLatencyVisit = VirtualDuration.seconds(1)
    package var relaunchLatencyBoot = VirtualDuration.zero
    /// Whether a relaunch of a legacy (non-scene) app carries the `location` launch option.
    /// Scene-based apps never get it (R-A11, A, F).
    package var legacyLaunchOptionsCarryLocation = true

    // MARK: When In Use

    /// How long a When In Use app without background configuration keeps receiving fixes after
    /// it reaches the background (R-A4, R-A5: last fix 11.4–11.5 s after leaving began, about
    /// 10 s after reaching the background, A).
    package var whenInUseGrace = VirtualDuration.seconds(10)
    /// Time from the end of the grace to a plain manager's `didFailWithError(denied)` (R-A4:
    /// 13.4–13.5 s after leaving began, 2 s after the last fix, A). Live updates get no signal.
    package var deniedSignalDelay = VirtualDuration.seconds(2)

    // MARK: One-time location

    /// How long `requestLocation()` waits for a fix to reach the app before the request ends
    /// with `didFailWithError(locationUnknown)` (R-G1: Apple says a fix "may take several
    /// seconds" and that one not determined "in a timely manner" is a failure, without a
    /// figure: 10 s is assumed).
    package var requestLocationTimeout = VirtualDuration.seconds(10)

    // MARK: What exists (by iOS generation)

    /// The major iOS version modelled: it decides which APIs exist (`CoreLocationAPI`: live
    /// updates, background activity sessions and `CLMonitor` from 17, C, F; service sessions
    /// from 18, R-B9, F). 27 is the version source A measured.
    package var systemVersion = 27

    // MARK: Live updates and sessions

    /// How long the device must stay still before live updates send `stationary` and pause
    /// (R-C2; undocumented, a parameter).
    package var stationaryPauseDelay = VirtualDuration.minutes(2)
    /// Below this speed the device counts as still (R-C2; a parameter).
    package var stationarySpeedMetersPerSecond = 0.5
    /// Sessions recreated within this time of a relaunch continue the previous grant; later
    /// ones are a new background request, ignored until the next foreground (R-B10: "within a
    /// few seconds of launch", F).
    package var sessionRejoinWindow = VirtualDuration.seconds(3)

    // MARK: Standard updates

    /// How long a still device keeps a manager with `pausesLocationUpdatesAutomatically`
    /// delivering before the system pauses it (R-F4; users see 10 min to 2 h, F).
    package var automaticPauseDelay = VirtualDuration.minutes(15)

    // MARK: Significant change

    /// Distance from the last event before the next (R-F7: at least 500 m, F).
    package var significantChangeDistanceMeters = 500.0
    /// Shortest time between two events (R-F7: never more often than every 5 minutes, F).
    package var significantChangeIntervalMin = VirtualDuration.minutes(5)
    /// Time from crossing the distance to the event (cell-tower based, R-F7). 14 s puts the
    /// relaunch at 25 s on a 50 m/s drive, as measured (R-A10, A).
    package var significantChangeLatency = VirtualDuration.seconds(14)

    // MARK: Regions and monitor conditions

    /// Travel past the boundary before an exit is reported (R-F8: about 200 m, B).
    package var regionExitCushionMeters = 200.0
    /// Time from passing the cushion to the exit event. 85 s puts the second relaunch at 92 s
    /// on a 50 m/s drive past a 100 m condition, as measured (R-A10, A); documented as 3–5
    /// minutes on average "if not sooner" (R-F8, F).
    package var regionExitLatency = VirtualDuration.seconds(85)
    /// How far inside the boundary the device must be before an entry is reported (R-F8). The
    /// cushion of about 200 m is what vendors saw on exits (B); no source measures entries, and
    /// 200 m inward would keep a region of the practical minimum radius (100–200 m, F) from
    /// ever reporting one, so entries have their own cushion: 0, the boundary itself. A cushion
    /// as large as the radius leaves nothing to enter.
    package var regionEntryCushionMeters = 0.0
    /// Time from passing the entry threshold to the entry event (R-F8: entries and exits are
    /// documented alike, "within 3–5 minutes on average, if not sooner", F). Nothing measures
    /// entries on their own: the default is the exit's calibrated 85 s (R-A10, A).
    package var regionEntryLatency = VirtualDuration.seconds(85)
    /// Regions (or monitor conditions) per app (R-F8: 20, F).
    package var regionCountMax = 20

    // MARK: Visits

    /// Stillness within `visitRadiusMeters` before an arrival is reported (R-F9: undocumented).
    package var visitArrivalDwell = VirtualDuration.minutes(5)
    /// Radius that counts as the same place for a visit (R-F9: a parameter).
    package var visitRadiusMeters = 100.0
    /// Time from leaving a visit's radius to the departure event (R-F9: undocumented, coarse).
    package var visitDepartureLatency = VirtualDuration.minutes(3)

    // MARK: Relaunch after a force-quit (R-B4, R-B5, R-B6)

    /// Significant change relaunches a force-quit app (R-B5: until iOS 18; not on iOS 26.4, F).
    package var forceQuitRelaunchBySignificantChange = false
    /// Region exit relaunches a force-quit app (R-B6: "the one location event iOS has delivered
    /// to force-quit apps since iOS 8", B; D's swipe-away relaunch "a few hundred metres" on
    /// relies on it, R-D6; not on iOS 26.4, F, so the iOS26 preset turns it off).
    package var forceQuitRelaunchByRegion = true
    /// Live updates held with a service session relaunch a force-quit app (R-B4: within about
    /// 1 s, three times in a row on a device, B).
    package var forceQuitRelaunchBySession = true
    /// `applicationWillTerminate` runs when the user force-quits the app while its process runs
    /// (foreground, or background and not suspended). The sources disagree: UIKit's
    /// documentation says it is "generally not called for background-capable apps" but may be
    /// called when a running background app is terminated, and location SDKs rely on it at a
    /// swipe-away (R-D7). It is never called for a suspended app, a purge (R-F3), a crash, an
    /// exit or a reboot, whatever this says (ios-facts: applicationWillTerminate, A).
    package var willTerminateOnForceQuit = true

    // MARK: Reboot and data protection

    /// Significant-change and region registrations relaunch the app after a reboot with no
    /// movement (R-B7: about 1 minute after boot, parked, B). When false, a relaunch after a
    /// reboot needs a location event (D, F).
    package var rebootRelaunchWithoutMovement = true
    /// Time from boot to that relaunch (R-B7: about 1 minute, B).
    package var rebootRelaunchDelay = VirtualDuration.seconds(60)
    /// When that relaunch came before the first unlock and the process has ended by the
    /// unlock, the registrations relaunch the app again at the unlock. The boot relaunch is
    /// measured at about a minute, parked (R-B7, B); an app launched before the first unlock
    /// reads nothing and "resumes as soon as the phone is unlocked" (R-D9, D), and the system
    /// restores regions only after the first unlock (R-F6; ios-facts: reboot, "restore after
    /// first unlock"). Without this, a relaunch before a late unlock goes idle and nothing
    /// brings the app back until the device moves.
    package var rebootRelaunchAgainAtFirstUnlock = true

    // MARK: Fixes (R-F10)

    /// Time between fixes from GNSS (1 Hz).
    package var fixInterval = VirtualDuration.seconds(1)
    /// A manager asking for this accuracy or finer gets GNSS fixes; up to
    /// `wifiDesiredAccuracyMetersMax`, Wi-Fi fixes; coarser, cell fixes (R-F10, R-D4: 3 km
    /// between fixes lets the GPS rest, D).
    package var gnssDesiredAccuracyMetersMax = 100.0
    package var wifiDesiredAccuracyMetersMax = 1_000.0
    /// How far a fix lies from the true position, as a fraction of its horizontal accuracy:
    /// uniform in a disc of this radius (R-F10: the accuracy bounds the error; the share of it
    /// is a parameter, no source states it).
    package var fixNoiseRadiusFraction = 0.5
    /// Horizontal accuracy of a GNSS fix (R-F10: about 5 m, F).
    package var gnssAccuracyMeters = 5.0
    /// Horizontal accuracy of a Wi-Fi fix (R-F10: 30–65 m, F); the model draws within it.
    package var wifiAccuracyMetersMin = 30.0
    package var wifiAccuracyMetersMax = 65.0
    /// Horizontal accuracy of a cell fix, as significant change reports (R-F10: 1,414 m, F).
    package var cellAccuracyMeters = 1_414.0
    /// Horizontal accuracy with reduced (not precise) authorization (R-F10: 1–20 km, F).
    package var reducedAccuracyMetersMin = 1_000.0
    package var reducedAccuracyMetersMax = 20_000.0
    /// Time between the fixes a manager or live stream gets under reduced accuracy (R-F10:
    /// "updated a few times an hour", F): three an hour. The first comes at once; the
    /// daemon's epochs in between give the app nothing.
    package var reducedAccuracyUpdateInterval = VirtualDuration.minutes(20)
    /// Updates kept for a suspended app, delivered when it runs again (R-A2; the bound is a
    /// parameter: the oldest are dropped beyond it).
    package var queuedUpdateCountMax = 100

    // MARK: The app's data on disk

    /// Time from an engine's `Store.commit()` to its rows being durable: SQLite's journaled
    /// commit, which ends with an fsync of the journal and the database. A termination of any
    /// kind before then loses the commit's rows (R-A1; R-F3 for memory). No source measures
    /// it: a parameter.
    package var storeCommitDuration = VirtualDuration.milliseconds(20)
    /// Time from a change to the saved record (`UserDefaults`) to its write to disk: the record
    /// is written asynchronously after a change ("changed synchronously within your process,
    /// and asynchronously to persistent storage", H: `UserDefaults`), and an abnormal end in
    /// between (a crash, a memory purge, the watchdog, a reboot) loses the change (R-A1; R-F3
    /// for memory); a normal end after `applicationWillTerminate` writes it (R-S3). No source
    /// states the delay: 1 s is an assumption, chosen on the pessimistic side.
    package var savedRecordWriteDelay = VirtualDuration.seconds(1)

    // MARK: The network

    /// Time from an upload request beginning to the server accepting its batch (and the answer
    /// reaching the app): one request over a working network. No source measures it: a
    /// parameter.
    package var uploadLatency = VirtualDuration.seconds(1)
    /// The chance, in percent, that an upload request fails on a network that is up: half of
    /// the failures lose the request, half lose the server's answer after it accepted the
    /// batch. Drawn from the network's own stream. No source states it: a parameter for
    /// research (0, a reliable network, by default).
    package var networkFailurePercent = 0

    // MARK: The server (R-N40–R-N46)

    /// The chance, in percent, that the server answers an upload with 500 Internal Server
    /// Error while it is up, storing nothing (R-N42, R-N46). Drawn from the server's own
    /// stream, apart from the network's. No source states it: a parameter for research (0, a
    /// server that never errs, by default).
    package var serverErrorPercent = 0
    /// The `Retry-After` a server down for maintenance sends with its 503 (R-N41). RFC 9110
    /// lets a 503 carry one; its value is the server's choice: 60 s is an assumption.
    package var serverRetryAfter = VirtualDuration.seconds(60)

    // MARK: Background URLSession (R-H5–R-H9)

    /// Time a background session's upload takes in the system's transfer service, from its
    /// begin to the server accepting its batch, over a working network (R-H5). Apple gives no
    /// figure; its engineers say background sessions are "significantly slower" than standard
    /// ones (H: Apple developer forums, thread 71207), so the model assumes 10 s, ten times
    /// `uploadLatency`. An assumption: a parameter.
    package var backgroundTransferDuration = VirtualDuration.seconds(10)
    /// How long the system waits before it begins a discretionary background transfer
    /// (`isDiscretionary`, or any transfer the app started in the background) (R-H9). Apple
    /// says only that the system schedules it "at times that are more optimal", such as when
    /// the device is plugged in and on Wi-Fi, neither of which is modelled; the model assumes
    /// 15 minutes. An assumption: a parameter.
    package var backgroundTransferDiscretionaryDelay = VirtualDuration.minutes(15)
    /// How long an app resumed or launched for a background session's events runs before the
    /// system may suspend it, unless it calls the completion handler of
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` sooner (R-H6).
    /// Apple gives no figure and documents no consequence of not calling the handler; the model
    /// assumes the 30 s of the other background wakes (`remoteNotificationRuntime`), after which
    /// the wake no longer keeps the app running (no kill). An assumption: a parameter.
    package var backgroundSessionEventsRuntime = VirtualDuration.seconds(30)
    /// How long a processing task (`BGProcessingTask`) keeps the app running in the background
    /// before its expiration handler is called, as an app refresh's does (R-H10, R-H3). Apple
    /// says only that it "can take minutes to complete" (H: `BGProcessingTaskRequest`); the
    /// model assumes 3 minutes. An assumption: a parameter.
    package var processingTaskRuntime = VirtualDuration.minutes(3)

    package init() {}
}

extension IOSPolicy {
    /// The relaunch latency of `mechanism`.
    package func relaunchLatency(for mechanism: RelaunchMechanism) -> VirtualDuration {
        switch mechanism {
        case .session: relaunchLatencySession
        case .significantChange: relaunchLatencySignificantChange
        case .region: relaunchLatencyRegion
        case .visit: relaunchLatencyVisit
        case .boot: relaunchLatencyBoot
        }
    }

    /// Calibrated to the measurements of sources A and B (the defaults).
    public static var measured: IOSPolicy { IOSPolicy() }

    /// iOS 16: no live updates, sessions or `CLMonitor` (legacy regions only, R-B6);
    /// significant change and regions relaunch a force-quit app (R-B5, R-B6).
    package static var iOS16: IOSPolicy {
        var policy = IOSPolicy.iOS17
        policy.name = "iOS16"
        policy.systemVersion = 16
        return policy
    }

    /// iOS 17: live updates, background activity sessions and `CLMonitor`; no service
    /// sessions.
    package static var iOS17: IOSPolicy {
        var policy = IOSPolicy.iOS18
        policy.name = "iOS17"
        policy.systemVersion = 17
        policy.forceQuitRelaunchBySession = false
        return policy
    }

    /// iOS 18: service sessions; significant change and regions still relaunch a force-quit
    /// app (R-B5: "up to iOS 18", F). A relaunch after a reboot needs an event (D, F).
    public static var iOS18: IOSPolicy {
        var policy = IOSPolicy.iOS26
        policy.name = "iOS18"
        policy.systemVersion = 18
        policy.forceQuitRelaunchBySignificantChange = true
        policy.forceQuitRelaunchByRegion = true
        return policy
    }

    /// iOS 26: a force-quit app is no longer relaunched by significant change or regions
    /// (R-B5, F: iOS 26.4.2).
    package static var iOS26: IOSPolicy {
        var policy = IOSPolicy()
        policy.name = "iOS26"
        policy.systemVersion = 26
        policy.forceQuitRelaunchByRegion = false
        policy.rebootRelaunchWithoutMovement = false
        return policy
    }

    /// The presets by name.
    package static let presetNames = ["measured", "iOS16", "iOS17", "iOS18", "iOS26"]

    /// The preset called `name`, if any.
    package static func preset(named name: String) -> IOSPolicy? {
        switch name {
        case "measured": .measured
        case "iOS16": .iOS16
        case "iOS17": .iOS17
        case "iOS18": .iOS18
        case "iOS26": .iOS26
        default: nil
        }
    }
}
