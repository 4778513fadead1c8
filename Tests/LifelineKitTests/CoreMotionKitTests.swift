// LifelineKit's Core Motion on the simulated device: the activities a handler gets as the
// route parks and drives (the report delay and the confidence of the motion model), only
// while the process runs, a query of the history, and a manager outside every process.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.OperationQueue
import class LifelineKit.ProcessInfo
import class LifelineKit.Timer

/// Parked 10 minutes, a 10-minute drive, then parked.
private let parkDrivePark = Route(
    start: home, headingDegrees: 90,
    segments: [
        .init(.park, .minutes(10)), .init(.drive, .minutes(10), speedMetersPerSecond: 13.9),
        .init(.park, .hours(2)),
    ])

/// The scenario's second at the app's virtual uptime (the world starts 26 h after the boot).
private func uptimeSecond() -> Int {
    Int((ProcessInfo.processInfo.systemUptime - 26 * 3600).rounded())
}

/// One activity as a line: its kind, confidence, start second and the second it arrived.
private func line(_ activity: CMMotionActivity) -> String {
    let kind =
        activity.stationary
        ? "stationary" : activity.automotive ? "automotive" : activity.walking ? "walking" : "other"
    let start = Int(activity.startDate.timeIntervalSince(VirtualClock.startDate).rounded())
    return "\(kind) \(activity.confidence.rawValue) from \(start) at \(uptimeSecond())"
}

/// Starts activity updates on the main queue at launch, noting each.
@MainActor private func startNotingActivities(_ app: ProbeApp, _ application: UIApplication) {
    let motion = CMMotionActivityManager()
    app.keptDelegates.append(motion)
    let journal = app.journal
    motion.startActivityUpdates(to: .main) { activity in
        if let activity { journal.note(line(activity)) }
    }
}

@Suite("LifelineKit: Core Motion activity")
struct CoreMotionKitTests {
    let model = MotionActivityModel.standard
    var delay: Int { Int(model.reportDelay.seconds) }
    var high: Int { Int(model.highConfidenceDelay.seconds) }

    @Test("R-M1–R-M4: a park, a drive, a park reach the handler late, back-dated, then surer")
    func activitiesFollowTheRoute() {
        let (_, journal) = runProbe(
            route: parkDrivePark, until: 3600, actions: [(0, .open)],
            setUp: startNotingActivities)
        let activities = journal.notes.filter { $0.contains(" from ") }
        let (medium, sure) = (CMMotionActivityConfidence.medium.rawValue, 2)
        #expect(
            activities == [
                "stationary 2 from 0 at 0",
                "automotive \(medium) from 600 at \(600 + delay)",
                "automotive \(sure) from 600 at \(600 + delay + high)",
                "stationary \(medium) from 1200 at \(1200 + delay)",
                "stationary \(sure) from 1200 at \(1200 + delay + high)",
            ])
    }

    @Test("R-M5: reports made while the app is suspended come when it runs again, the latest once")
    func suspendedAppGetsOnlyTheLatest() {
        let (_, journal) = runProbe(
            route: parkDrivePark, until: 3600, actions: [(0, .open), (60, .leave), (1800, .open)],
            setUp: startNotingActivities)
        let activities = journal.notes.filter { $0.contains(" from ") }
        #expect(activities == ["stationary 2 from 0 at 0", "stationary 2 from 1200 at 1800"])
    }

    @Test("R-M3: a stop shorter than the report delay is never reported")
    func shortStopIsAbsorbed() {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(10), speedMetersPerSecond: 13.9),
                .init(.park, model.reportDelay - .seconds(1)),
                .init(.drive, .minutes(10), speedMetersPerSecond: 13.9),
            ])
        // Only the stop at the route's end is reported (medium, then high), from its start.
        let reports = MotionCoprocessor(route: route).reports
        #expect(reports.map(\.kind) == [.automotive, .stationary, .stationary])
        #expect(reports.dropFirst().allSatisfy { $0.startInstant == route.endInstant })
        let walk = Route(
            start: home, headingDegrees: 90,
            segments: [.init(.walk, .minutes(10), speedMetersPerSecond: 1.4)])
        let walked = MotionCoprocessor(route: walk).reports.map(\.kind)
        #expect(walked == [.walking, .stationary, .stationary])
    }

    @Test("R-M6: a query gives each spell begun in the range, as last reported by then")
    func queryGivesTheHistory() {
        let (_, journal) = runProbe(route: parkDrivePark, until: 1400, actions: [(0, .open)]) {
            app, _ in
            let motion = CMMotionActivityManager()
            app.keptDelegates.append(motion)
            let journal = app.journal
            Timer.scheduledTimer(withTimeInterval: 1290, repeats: false) { _ in
                motion.queryActivityStarting(
                    from: VirtualClock.startDate.addingTimeInterval(60),
                    to: VirtualClock.startDate.addingTimeInterval(3600), to: .main
                ) { activities, error in
                    journal.note("error \(error == nil ? "none" : "some")")
                    for activity in activities ?? [] { journal.note(line(activity)) }
                }
            }
        }
        // At 1,290 s: the drive's high report (780 s) and the second park's medium one
        // (1,260 s) are known; the first park began before the range.
        #expect(
            journal.notes.filter { $0.hasPrefix("error") || $0.contains(" from ") } == [
                "error none",
                "automotive 2 from 600 at 1290",
                "stationary 1 from 1200 at 1290",
            ])
    }

    @Test("a manager outside every process: no updates; a query fails at once with code 104")
    func detachedManager() {
        let motion = CMMotionActivityManager()
        nonisolated(unsafe) var got: [String] = []
        motion.startActivityUpdates(to: OperationQueue()) { _ in got.append("update") }
        motion.queryActivityStarting(from: Date(), to: Date(), to: OperationQueue()) {
            activities, error in
            got.append("query \(activities == nil) \((error as NSError?)?.code ?? 0)")
        }
        #expect(got == ["query true 104"])
        #expect(CMMotionActivityManager.authorizationStatus() == .authorized)
        #expect(CMMotionActivityManager.isActivityAvailable())
    }
}
