// Core Motion's activity shapes (layer 4): `CMMotionActivityManager` and `CMMotionActivity`
// over the world's motion coprocessor, delivered only while the simulated process runs.
import Foundation
import Simulation
import World

/// Core Motion's error domain.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let CMErrorDomain = "CMErrorDomain"

/// Whether the app may read motion data (`CMAuthorizationStatus`).
public enum CMAuthorizationStatus: Int, Sendable {
    case notDetermined, restricted, denied, authorized
}

/// How sure Core Motion is of an activity (`CMMotionActivityConfidence`, R-M4).
public enum CMMotionActivityConfidence: Int, Sendable {
    case low, medium, high
}

/// The base of Core Motion's logged items (`CMLogItem`): `timestamp` is seconds since the
/// device booted, as Apple's is, from the simulated boot (never the machine's).
open class CMLogItem: NSObject, @unchecked Sendable {
    open private(set) var timestamp: TimeInterval = 0

    override public init() { super.init() }

    init(timestamp: TimeInterval) {
        self.timestamp = timestamp
        super.init()
    }
}

/// One motion activity (`CMMotionActivity`), as the world's motion coprocessor reported it
/// (R-M1–R-M4): one of its flags is true (none for an activity made by `init()`, which is
/// `unknown`), `startDate` is when the spell began, back-dated before the report, and
/// `timestamp` when it was reported.
open class CMMotionActivity: CMLogItem, @unchecked Sendable {
    open private(set) var confidence = CMMotionActivityConfidence.low
    open private(set) var startDate = VirtualClock.startDate
    open private(set) var unknown = true
    open private(set) var stationary = false
    open private(set) var walking = false
    open private(set) var running = false
    open private(set) var automotive = false
    open private(set) var cycling = false

    override public init() { super.init() }

    init(_ report: MotionActivityReport, bootTime: BootTime) {
        super.init(timestamp: bootTime.uptime(at: report.reportInstant).seconds)
        confidence = CMMotionActivityConfidence(rawValue: report.confidence.rawValue) ?? .low
        startDate = VirtualClock.date(report.startInstant)
        unknown = report.kind == .unknown
        stationary = report.kind == .stationary
        walking = report.kind == .walking
        running = report.kind == .running
        automotive = report.kind == .automotive
        cycling = report.kind == .cycling
    }
}

/// `CMMotionActivityHandler`.
public typealias CMMotionActivityHandler = (CMMotionActivity?) -> Void
/// `CMMotionActivityQueryHandler`.
public typealias CMMotionActivityQueryHandler = ([CMMotionActivity]?, (any Error)?) -> Void

/// `CMMotionActivityManager` over the world's motion coprocessor (R-M1–R-M7).
///
/// `startActivityUpdates(to:withHandler:)` runs the handler on the given queue (LifelineKit's
/// `OperationQueue`, in virtual time) with the current activity at once, as Apple documents,
/// then with each new report of the coprocessor. Updates reach the app only while its process
/// runs (R-M5): a report made while the process is suspended is not delivered then; when the
/// process runs again the handler gets the latest one, once, and none of those it missed; an
/// update never wakes or relaunches the app. `stopActivityUpdates()` ends them; updates die
/// with the process. `queryActivityStarting(from:to:to:withHandler:)` gives the activities
/// whose spell began in the range, each as last reported by now (R-M6). The modelled user has
/// allowed Motion & Fitness (R-M7, an assumption: the world models no motion prompt), so
/// `authorizationStatus()` is `.authorized` and `isActivityAvailable()` true. Outside every
/// simulated process the manager is detached: updates never come, and a query's handler gets
/// `CMErrorDomain` code 104 (motion activity not available) at once.
open class CMMotionActivityManager: NSObject, @unchecked Sendable {
    /// The updates' queue and handler, while started.
    private var updates: (queue: OperationQueue, handler: CMMotionActivityHandler)?
    /// The report last handed to the handler, so a repeated fire hands nothing new.
    private var delivered: MotionActivityReport?
    /// The run-loop timer of the next report.
    private var nextReportTimer: Timer?

    override public init() { super.init() }

    /// `isActivityAvailable()`: the device has a motion coprocessor (every modelled iPhone).
    open class func isActivityAvailable() -> Bool { true }

    /// `authorizationStatus()`: Motion & Fitness allowed (R-M7, an assumption).
    open class func authorizationStatus() -> CMAuthorizationStatus { .authorized }

    /// `startActivityUpdates(to:withHandler:)`: the current activity at once, then each change.
    open func startActivityUpdates(
        to queue: OperationQueue, withHandler handler: @escaping CMMotionActivityHandler
    ) {
        guard ProcessScope.current?.services?.motion != nil else { return }
        updates = (queue, handler)
        delivered = nil
        deliverLatest(due: nil)
    }

    /// `stopActivityUpdates()`.
    open func stopActivityUpdates() {
        updates = nil
        nextReportTimer?.invalidate()
        nextReportTimer = nil
    }

    /// `queryActivityStarting(from:to:to:withHandler:)`: the activities whose spell began from
    /// `start` to `end`, each with the confidence last reported by now, in time order.
    open func queryActivityStarting(
        from start: Date, to end: Date, to queue: OperationQueue,
        withHandler handler: @escaping CMMotionActivityQueryHandler
    ) {
        guard let services = ProcessScope.current?.services, let motion = services.motion else {
            let error = NSError(domain: CMErrorDomain, code: 104)
            return handler(nil, error)
        }
        let (from, to) = (VirtualClock.instant(start), VirtualClock.instant(end))
        var bySpell: [MotionActivityReport] = []
        for report in motion.reports where report.reportInstant <= services.now {
            guard from <= report.startInstant, report.startInstant <= to else { continue }
            if bySpell.last?.startInstant == report.startInstant {
                bySpell[bySpell.count - 1] = report
            } else {
                bySpell.append(report)
            }
        }
        let activities = bySpell.map { CMMotionActivity($0, bootTime: services.bootTime) }
        let call = UncheckedBlock { handler(activities, nil) }
        queue.addOperation { call.run() }
    }

    // MARK: - Delivery

    /// Hands the latest report to the handler, unless it was handed already, and sets the
    /// timer of the next one. Runs only while the process runs (a run-loop timer's block).
    /// `due` is the instant of the report a timer was set for: a timer's date is a `Date`,
    /// whose `Double` seconds may put its fire a few hundred nanoseconds before that instant,
    /// and the report is due when it fires.
    private func deliverLatest(due: Instant?) {
        guard let (queue, handler) = updates, let services = ProcessScope.current?.services,
            let motion = services.motion
        else { return }
        let now = max(services.now, due ?? services.now)
        let latest = motion.latestReport(atOrBefore: now)
        if latest != delivered {
            delivered = latest
            let activity = CMMotionActivity(latest, bootTime: services.bootTime)
            let call = UncheckedBlock { handler(activity) }
            queue.addOperation { call.run() }
        }
        nextReportTimer?.invalidate()
        nextReportTimer = nil
        guard let next = motion.nextReport(after: now) else { return }
        let timer = Timer(
            fire: VirtualClock.date(next.reportInstant), interval: 0, repeats: false
        ) { [weak self] _ in self?.deliverLatest(due: next.reportInstant) }
        RunLoop.main.add(timer, forMode: .common)
        nextReportTimer = timer
    }
}
