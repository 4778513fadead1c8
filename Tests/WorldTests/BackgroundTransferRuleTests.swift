// A background URLSession's upload (R-H5–R-H9): the system carries it on while the app is
// suspended or after iOS ended it, resumes or relaunches the app with the session's events,
// cancels it at a force-quit, and holds it while the network is down. Each test runs a small
// world and compares what the app saw, and when the server accepted the batch, with the rule.
import Simulation
import Testing

@testable import World

/// An engine that hands the system one background upload of one row, in its first process's
/// foreground launch (the saved record remembers it was sent), and completes each wake when
/// its session's events are finished.
final class TransferEngine: AppEngine {
    let options: BackgroundTransferOptions
    let fromFile: Bool
    /// Seconds from the launch to the transfer's earliest begin date.
    let beginAfter: Double
    /// Calls the wake's completion handler once the session's events are finished.
    let completesWake: Bool
    private var wake: WakeTaskID?

    init(
        options: BackgroundTransferOptions = BackgroundTransferOptions(), fromFile: Bool = true,
        beginAfter: Double = 0, completesWake: Bool = true
    ) {
        self.options = options
        self.fromFile = fromFile
        self.beginAfter = beginAfter
        self.completesWake = completesWake
    }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        guard launch.state == .foreground, !services.userDefaults.bool(forKey: "sent") else {
            return
        }
        services.userDefaults.set(true, forKey: "sent")
        let batch = UploadBatch(
            key: UploadBatchKey(firstRowIndex: 0, rowCount: 1), rows: [StoredRow(key: "row")])
        services.urlSession.backgroundUploadTask(
            session: "uploads", with: batch, fromFile: fromFile, options: options,
            earliestBeginAfter: VirtualDuration(seconds: beginAfter))
    }
    func didBeginWake(_ task: WakeTaskID, kind: WakeKind, services: LocationServices) {
        wake = task  // handleEventsForBackgroundURLSession: the handler is kept
    }
    func backgroundSessionDidFinishEvents(_ session: String, services: LocationServices) {
        if completesWake, let wake { services.completeWake(wake, success: true) }
    }
}

extension World {
    /// What the app saw of its background transfers, and when the server accepted a batch,
    /// each as "seconds what", in order.
    func transferTimeline() -> [String] {
        func at(_ instant: Instant) -> String {
            PlainText.fixed((instant - .start).seconds, digits: 1)
        }
        var lines: [(Instant, String)] = server.acceptedBatches.map {
            ($0.instant, "\(at($0.instant)) server \($0.key)")
        }
        for entry in log {
            let text: String? =
                switch entry.kind {
                case .launch(let context): "launch \(context.state.rawValue)"
                case .killed(let cause): "killed \(cause.rawValue)"
                case .wake(_, let kind): "\(kind)"
                case .backgroundTransferCompleted(let event): "\(event.result)"
                case .backgroundSessionEventsFinished: "events finished"
                default: nil
                }
            if let text { lines.append((entry.instant, "\(at(entry.instant)) \(text)")) }
        }
        // A stable sort: the server's acceptance first at an instant, then the app's log.
        return lines.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map(\.element.1)
    }
}

/// Open at 0 s (the upload is handed over), leave at 2 s: suspended at 8.5 s.
private let openAndLeave: [(Double, UserAction)] = [(0, .open), (2, .leave)]

@Suite("Background URLSession (R-H5–R-H9)")
struct BackgroundTransferRuleTests {
    @Test(
        "R-H5, R-H6: the upload runs on while the app is suspended, which is resumed with the events"
    )
    func suspendedAppIsResumed() {
        let world = runWorld(route: parked, until: 120, actions: openAndLeave) {
            TransferEngine()
        }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "10.0 server batch 0+1",
                "10.0 background session uploads events", "10.0 accepted", "10.0 events finished",
            ])
    }

    @Test(
        "R-H5, R-H6: after iOS ended the app for memory, it is launched in the background for the events"
    )
    func endedAppIsRelaunched() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(9, .memoryPressure)]
        ) { TransferEngine() }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "9.0 killed memory", "10.0 server batch 0+1",
                "10.0 launch background", "10.0 background session uploads events",
                "10.0 accepted", "10.0 events finished",
            ])
    }

    @Test("R-H6: a running app's session is told at once, with no wake")
    func runningAppIsToldAtOnce() {
        let world = runWorld(route: parked, until: 120, actions: [(0, .open)]) {
            TransferEngine()
        }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "10.0 server batch 0+1", "10.0 accepted",
            ])
    }

    @Test(
        "R-H7: a force-quit cancels the upload and nothing relaunches the app; it learns at its next launch"
    )
    func forceQuitCancels() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(5, .forceQuit), (60, .open)]
        ) { TransferEngine() }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "5.0 killed force-quit", "60.0 launch foreground",
                "60.0 failed: cancelled: process ended (force-quit), R-A1",
            ])
        #expect(world.server.acceptedBatches.isEmpty)
    }

    @Test("R-H8: the upload waits while the network is down and goes when it is up")
    func networkDownHolds() {
        let world = runWorld(
            route: parked, until: 120,
            actions: openAndLeave + [(1, .networkDown), (60, .networkUp)]
        ) { TransferEngine() }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "70.0 server batch 0+1",
                "70.0 background session uploads events", "70.0 accepted", "70.0 events finished",
            ])
    }

    @Test("R-H8: handed over while the network is down, the upload begins when it is up")
    func beginsWhenNetworkUp() {
        let world = runWorld(
            route: parked, until: 120,
            actions: [(0, .networkDown), (0, .open), (2, .leave), (30, .networkUp)]
        ) { TransferEngine() }
        let acceptedAt: Instant = .start + .seconds(40)
        #expect(world.server.acceptedBatches.map(\.instant) == [acceptedAt])
    }

    @Test(
        "R-H6: without launch events, a suspended app is not resumed; it is told when it next runs")
    func withoutLaunchEvents() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(60, .open)]
        ) { TransferEngine(options: BackgroundTransferOptions(sendsLaunchEvents: false)) }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "10.0 server batch 0+1", "60.0 accepted",
            ])
    }

    @Test("R-H9: a discretionary upload begins after the discretionary delay")
    func discretionaryWaits() {
        let world = runWorld(route: parked, until: 1_200, actions: openAndLeave) {
            TransferEngine(options: BackgroundTransferOptions(isDiscretionary: true))
        }
        let acceptedAt: Instant = .start + .seconds(910)
        #expect(world.server.acceptedBatches.map(\.instant) == [acceptedAt])
    }

    @Test(
        "R-H5: an upload from data fails when its process ends; the app is relaunched with the failure"
    )
    func uploadFromDataFailsWithItsProcess() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(9, .memoryPressure)]
        ) { TransferEngine(fromFile: false) }
        #expect(
            world.transferTimeline() == [
                "0.0 launch foreground", "9.0 killed memory", "9.0 launch background",
                "9.0 background session uploads events",
                "9.0 failed: cancelled: process ended (memory), R-F3", "9.0 events finished",
            ])
        #expect(world.server.acceptedBatches.isEmpty)
    }

    @Test(
        "R-H6: a completion handler never called ends nothing: no kill, the app is suspended later")
    func completionHandlerNotCalled() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(100, .memoryPressure)]
        ) { TransferEngine(completesWake: false) }
        // Suspended 30 s (the events runtime) + 5 s after the wake: the memory pressure at
        // 100 s finds it suspended and ends it; never a watchdog kill.
        #expect(world.transferTimeline().last == "100.0 killed memory")
        #expect(
            !world.log.contains { if case .killed(.watchdog) = $0.kind { true } else { false } })
    }

    @Test("an app that makes no background upload sends the transfer service nothing")
    func nothingWithoutUploads() {
        let world = runWorld(
            route: parked, until: 120, actions: openAndLeave + [(5, .forceQuit)]
        ) { WakeEngine() }
        #expect(world.server.acceptedBatches.isEmpty)
        #expect(world.transferTimeline() == ["0.0 launch foreground", "5.0 killed force-quit"])
    }
}

extension PolicyScenario {
    /// A background upload handed over at 0 s by an app suspended at 8.5 s: when the server
    /// accepts it and when the app is resumed and suspended again.
    static let backgroundUpload = PolicyScenario(name: "background upload") { policy in
        runWorld(
            policy: policy, route: parked, until: 1_200, actions: openAndLeave + [(100, .open)]
        ) { TransferEngine(completesWake: false) }
        .transferTimeline()
    }

    /// A discretionary background upload: when the server accepts it.
    static let discretionaryUpload = PolicyScenario(name: "discretionary upload") { policy in
        runWorld(policy: policy, route: parked, until: 1_200, actions: openAndLeave) {
            TransferEngine(options: BackgroundTransferOptions(isDiscretionary: true))
        }
        .transferTimeline()
    }

    /// A background upload whose app never calls the events' completion handler and is under
    /// memory pressure at 30 s: still kept running then, or already suspended and ended.
    static let eventsHandlerNeverCalled = PolicyScenario(name: "events handler never called") {
        policy in
        runWorld(
            policy: policy, route: parked, until: 120,
            actions: openAndLeave + [(30, .memoryPressure)]
        ) { TransferEngine(completesWake: false) }
        .transferTimeline()
    }
}
