// LifelineKit's link to the simulated process (layer 4): which process's services the Apple-
// shaped calls reach, the virtual clock as `Date`, and how UIKit's main-actor code is entered.
import Foundation
import Simulation
import VirtualConcurrency
import World

/// The simulated process an Apple-shaped call belongs to: its `LocationServices`, its
/// `UIApplication`, the regions its managers registered and its background tasks' expiration
/// handlers. One per process launch, made by `ApplicationEngine` and dropped with it, so
/// nothing here outlives a process (as a real process's memory does not).
///
/// Code reaches it through `ProcessScope.current`: the simulated process running on the calling
/// thread (`ProcessLocal`), which the world enters around every call into the app (the app
/// delegate's callbacks, the location managers' delegate callbacks, the expiration handlers,
/// the completions) and around every job of the process's Swift concurrency (a `Task`, detached
/// or not). Nothing is bound per call: a task-local bound around each delegate call cost about
/// 900 instructions per fix delivered (docs/studies/kit-engines.md). Each fuzz case runs on its own
/// thread, so parallel cases never see each other's process.
final class ProcessScope: @unchecked Sendable {
    /// The process the calling code runs in, nil outside a simulated process (a scope set
    /// inside one never leaks to code outside every simulation).
    static var current: ProcessScope? { ofProcess.valueInProcess ?? nil }
    /// The process an `ApplicationEngine` launched on this thread's simulated process (set at
    /// its launch).
    static let ofProcess = ProcessLocal<ProcessScope?> { nil }

    /// The process's services (kept by the app process for the life of the process).
    weak var services: LocationServices?
    /// `UIApplication.shared` for this process (set as the launch begins; the engine keeps it,
    /// and it keeps this scope).
    weak var application: UIApplication?
    /// Its `applicationState` (here, so that any code of the process can read it, as
    /// `backgroundTimeRemaining` does off the main actor).
    var applicationState = UIApplication.State.background
    /// The legacy regions this process's managers registered, by identifier, in the order
    /// registered (an array, so no hash order reaches the app).
    var regions: [CLRegion] = []
    /// The expiration handlers of this process's background tasks, by task handle.
    var expirationHandlers: [Int: @MainActor @Sendable () -> Void] = [:]
    /// `BGTaskScheduler.shared` for this process: its launch handlers die with it.
    let taskScheduler: BGTaskScheduler
    /// The app refresh tasks handed to this process and not yet expired, by wake handle.
    var refreshTasks: [Int: BGTask] = [:]
    /// The `CLLocationUpdate.liveUpdates(_:)` iterations of this process.
    let liveStreams = LiveStreams()

    /// The background `URLSession` objects made in this process, in creation order.
    private(set) var urlSessions: [URLSession] = []
    /// Events of background sessions this process has no `URLSession` for yet, in arrival
    /// order, and the run-loop timer that hands them to a session made since (R-H6).
    private var heldSessionEvents: [(session: String, event: BackgroundSessionEvent)] = []
    private var heldSessionEventsTimer: TimerID?
    /// `URLSession.shared` for this process, once read.
    var sharedURLSession: URLSession?
    /// The uploads of this process's standard sessions in flight, in the order resumed.
    private var standardUploads:
        [(upload: UploadTaskID, task: URLSessionTask, session: URLSession)] =
            []
    /// The upload bodies `SimulatedUploadBody` made in this process, in order.
    private var uploadBodies: [UploadBatch] = []

    /// Managers made in this process whose first authorization callback is still due, in
    /// creation order, and the run-loop timer that delivers it.
    private var newManagers: [Weak<CLLocationManager>] = []
    private var newManagersTimer: TimerID?

    init(services: LocationServices) {
        self.services = services
        taskScheduler = BGTaskScheduler(services: services)
    }

    /// Core Location calls a new manager's delegate with the app's authorization once the
    /// code that made it returns ("the system is guaranteed to call the delegate method with
    /// the app's initial authorization state"): modelled as a main run-loop timer of zero
    /// delay (`LocationServices.scheduledTimer(after:)`), so it runs after the current
    /// callback, and when a suspended app runs again.
    func announce(_ manager: CLLocationManager) {
        newManagers.append(Weak(manager))
        guard newManagersTimer == nil, let services else { return }
        newManagersTimer = services.scheduledTimer(after: .zero)
    }

    /// The managers whose first authorization callback `timer` delivers (empty for another
    /// timer).
    func takeNewManagers(firedBy timer: TimerID) -> [CLLocationManager] {
        guard timer == newManagersTimer else { return [] }
        newManagersTimer = nil
        defer { newManagers = [] }
        return newManagers.compactMap(\.value)
    }

    // MARK: - Background sessions (R-H5–R-H9)

    /// A new `URLSession` object: events held for its identifier reach it once the code that
    /// made it returns (a run-loop timer of zero delay, as `announce` does).
    func register(_ session: URLSession) {
        urlSessions.append(session)
        let identifier = session.configuration.identifier
        guard heldSessionEventsTimer == nil, let services,
            heldSessionEvents.contains(where: { $0.session == identifier })
        else { return }
        heldSessionEventsTimer = services.scheduledTimer(after: .zero)
    }

    /// Hands `event` to this process's latest session object for `session`, or holds it until
    /// one is made.
    func deliver(_ event: BackgroundSessionEvent, session: String) {
        guard let object = urlSessions.last(where: { $0.configuration.identifier == session })
        else { return heldSessionEvents.append((session, event)) }
        object.deliver(event)
    }

    /// Hands the held events whose session now has an object, if `timer` is the one that
    /// delivers them; false for another timer.
    func deliverHeldSessionEvents(firedBy timer: TimerID) -> Bool {
        guard timer == heldSessionEventsTimer else { return false }
        heldSessionEventsTimer = nil
        let held = heldSessionEvents
        heldSessionEvents = []
        for (session, event) in held { deliver(event, session: session) }
        return true
    }

    /// Records that the world's `upload` is `task` of `session`.
    func register(_ upload: UploadTaskID, task: URLSessionTask, session: URLSession) {
        standardUploads.append((upload, task, session))
    }

    /// Hands the end of the world's `upload` to its task, if a standard session made it.
    func completeStandardUpload(_ upload: UploadTaskID, result: UploadResult) {
        guard let index = standardUploads.firstIndex(where: { $0.upload == upload }) else {
            return
        }
        let (_, task, session) = standardUploads.remove(at: index)
        session.complete(task, with: result)
    }

    /// The name of the `number`th upload body this process made, counting from 1.
    private static func uploadBodyName(_ number: Int) -> String {
        "/lifeline/uploads/\(number).batch"
    }

    /// Records an upload body for `batch` and returns its name (a path).
    func registerUploadBody(_ batch: UploadBatch) -> String {
        uploadBodies.append(batch)
        return Self.uploadBodyName(uploadBodies.count)
    }

    /// The batch of the upload body called `name`, if this process made it: found by the
    /// number in its name, so that an app uploading each fix alone (thousands of bodies in a
    /// process) pays no search per upload.
    func uploadBody(_ name: String) -> UploadBatch? {
        let number = Int(name.drop { !$0.isNumber }.prefix { $0.isNumber }) ?? 0
        guard uploadBodies.indices.contains(number - 1), Self.uploadBodyName(number) == name
        else { return nil }
        return uploadBodies[number - 1]
    }

    /// The registered region with `identifier`, if this process registered one.
    func region(_ identifier: String) -> CLRegion? {
        regions.first { $0.identifier == identifier }
    }

    /// Records `region` as registered (replacing one with the same identifier, as Core
    /// Location does), last in the order. Identifiers are unique here, so the one it replaces
    /// is found and, when last already (a tracker moving its one wake region), overwritten in
    /// place: `removeAll` and `append` cost about 780 instructions a move.
    func register(_ region: CLRegion) {
        let identifier = region.identifier
        if let index = regions.firstIndex(where: { $0.identifier == identifier }) {
            if index == regions.count - 1 {
                regions[index] = region
                return
            }
            regions.remove(at: index)
        }
        regions.append(region)
    }

    func unregister(_ identifier: String) {
        regions.removeAll { $0.identifier == identifier }
    }
}

/// A weak reference, for lists that must not keep their objects alive.
struct Weak<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// The virtual clock as `Date`: Lifeline's `Instant.start` is `VirtualClock.startDate`.
///
/// Every `Date` LifelineKit hands the app (`CLLocation.timestamp`, `CLVisit`'s dates) is
/// computed from the simulation's instants, never read from the wall clock, so a run's dates
/// are the same in every process and on every machine.
public enum VirtualClock {
    /// The date of `Instant.start`: 2026-01-01 00:00:00 UTC. A fixed choice (no source gives
    /// the date of a scenario); only differences between dates carry meaning.
    public static let startDate = Date(timeIntervalSince1970: 1_767_225_600)

    /// The date of `instant`.
    public static func date(_ instant: Instant) -> Date {
        Date(
            timeIntervalSince1970: 1_767_225_600
                + Double(instant.nanosecondsSinceStart) / 1_000_000_000)
    }

    /// The instant of `date` (to the nanosecond).
    public static func instant(_ date: Date) -> Instant {
        let seconds = date.timeIntervalSince1970 - 1_767_225_600
        return Instant(nanosecondsSinceStart: Int64((seconds * 1_000_000_000).rounded()))
    }
}
