// A background URLSession through LifelineKit (R-H5–R-H9): an app delegate written with Apple's
// names hands an upload to a background session, is resumed or relaunched with the session's
// events, learns of a force-quit's cancellation at its next launch; and the invariants catch an
// app that forgets its rows before the upload completed.
//
// This file imports Foundation and, where it exists, FoundationNetworking, as cross-platform
// code does: both declare `URLSession` (and its configuration, tasks and delegates) on this
// platform, and the scoped imports below are what makes LifelineKit's the one these names mean
// (docs/your-engine.md). `URLSessionNameTests.swift` compiles the same names with only
// Foundation and LifelineKit imported.
import Engines
import ExampleEngines
import Foundation
import Invariants
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.URLSession
import class LifelineKit.URLSessionConfiguration
import protocol LifelineKit.URLSessionDelegate
import class LifelineKit.URLSessionTask
import protocol LifelineKit.URLSessionTaskDelegate
import class LifelineKit.URLSessionUploadTask

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app that records its locations in the store and, in the foreground once 25 of them wait,
/// uploads the rows not yet accepted through a background session, to begin a minute later
/// (`earliestBeginDate`); batches are keyed by the ordinal of their first fix, so a resend
/// repeats the key. It notes what the session tells it.
///
/// `forgetsBeforeCompletion` is the mistake: the app marks the rows uploaded when it hands them
/// to the session, not when the server accepted them, so a cancelled upload loses them.
final class UploadingApp: UIResponder, UIApplicationDelegate,
    @preconcurrency CLLocationManagerDelegate, @preconcurrency URLSessionTaskDelegate
{
    static let sessionIdentifier = "com.example.uploads"
    let services: LocationServices
    let journal: Journal
    let forgetsBeforeCompletion: Bool
    /// Labels each task with its rows (`taskDescription`) and notes the label it gets back.
    var labelsTasks = false
    private var manager: CLLocationManager?
    private var session: URLSession?
    private var eventsCompletionHandler: (() -> Void)?

    init(services: LocationServices, journal: Journal, forgetsBeforeCompletion: Bool = false) {
        self.services = services
        self.journal = journal
        self.forgetsBeforeCompletion = forgetsBeforeCompletion
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.note("launch \(application.applicationState)")
        // Apple: recreate the background session at launch with the same identifier.
        makeSession()
        if application.applicationState != .background {
            let manager = CLLocationManager()
            manager.delegate = self
            manager.startUpdatingLocation()
            self.manager = manager
        }
        return true
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        journal.note("handle events \(identifier) \(application.applicationState)")
        eventsCompletionHandler = completionHandler
        if session == nil { makeSession() }
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard commitFixRows(of: locations, services: services) else { return }
        if UIApplication.shared.applicationState == .active && pendingCount() >= 25 {
            uploadPending()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        let code = (error as? URLError)?.code
        let reason = (error as? URLError)?.userInfo[NSURLErrorBackgroundTaskCancelledReasonKey]
        let forceQuit = reason as? Int == NSURLErrorCancelledReasonUserForceQuitApplication
        journal.note(
            "task \(task.taskIdentifier) "
                + (error == nil ? "uploaded" : "failed \(code?.rawValue ?? 0)")
                + (forceQuit ? " (user force-quit)" : ""))
        if labelsTasks { journal.note("label \(task.taskDescription ?? "none")") }
        guard !forgetsBeforeCompletion, let sent = lastSent() else { return }
        if error == nil {
            mark("upload.done", String(sent.first + sent.count))
        } else {
            send(first: sent.first, count: sent.count)  // the same rows, under the same key
        }
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        journal.note("events finished")
        eventsCompletionHandler?()
        eventsCompletionHandler = nil
    }

    // MARK: - The app's upload bookkeeping (its own, on the store)

    private func makeSession() {
        let configuration = URLSessionConfiguration.background(
            withIdentifier: Self.sessionIdentifier)
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    private var rows: [StoredRow] { (try? services.openStore()).map { Array($0.rows) } ?? [] }
    private var fixRows: [StoredRow] { rows.filter { $0.key == FixRecorder.fixRowKey } }

    /// How many fix rows the server has accepted, as the app last recorded.
    private func uploadedCount() -> Int {
        rows.last { $0.key == "upload.done" }.flatMap { Int($0.text) } ?? 0
    }

    /// The batch handed to the session and not yet answered (by any process), if any.
    private func lastSent() -> (first: Int, count: Int)? {
        guard let last = rows.last(where: { $0.key.hasPrefix("upload.") }),
            last.key == "upload.sent"
        else { return nil }
        let numbers = last.text.split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    private func mark(_ key: String, _ text: String) {
        guard let store = try? services.openStore() else { return }
        store.insert(StoredRow(key: key, text: text))
        store.commit()
    }

    private func pendingCount() -> Int { fixRows.count - uploadedCount() }

    /// Hands the rows not yet accepted to the session, unless a batch is on its way.
    private func uploadPending() {
        guard lastSent() == nil else { return }
        let first = uploadedCount()
        let count = fixRows.count - first
        if count > 0 { send(first: first, count: count) }
    }

    /// Uploads fix rows `first ..< first + count`, keyed by their position.
    private func send(first: Int, count: Int) {
        guard let session else { return }
        let rows = Array(fixRows.dropFirst(first).prefix(count))
        let batch = UploadBatch(
            key: UploadBatchKey(firstRowIndex: first, rowCount: rows.count), rows: rows)
        var request = URLRequest(url: URL(string: "https://example.com/locations")!)
        request.httpMethod = "POST"
        let task = session.uploadTask(
            with: request, fromFile: SimulatedUploadBody.file(for: batch))
        task.earliestBeginDate = Date().addingTimeInterval(60)
        if labelsTasks { task.taskDescription = "rows \(first) to \(first + rows.count - 1)" }
        task.resume()
        journal.note("upload task \(task.taskIdentifier) of \(rows.count) rows")
        if forgetsBeforeCompletion {
            mark("upload.done", String(first + rows.count))
        } else {
            mark("upload.sent", "\(first) \(rows.count)")
        }
    }
}

/// Runs `UploadingApp` on a drive and returns the run's record and the app's journal.
func runUploadingApp(
    actions: [(Double, UserAction)], horizon: Double, forgetsBeforeCompletion: Bool = false,
    labelsTasks: Bool = false, ordering: OrderingSpecification = .fifo
) -> (RunRecord, Journal) {
    let journal = Journal()
    let record = RunRecord.run(
        configuration: WorldConfiguration(
            policy: .iOS18, capabilities: AppCapabilities(sceneBased: false),
            authorization: .whenInUse, route: drive(20), seed: 5, ordering: ordering),
        actions: actions.map { ScheduledAction(.start + VirtualDuration(seconds: $0.0), $0.1) },
        horizon: .start + VirtualDuration(seconds: horizon), launchRules: LaunchRules()
    ) {
        ApplicationEngine(
            delegate: { services in
                let app = UploadingApp(
                    services: services, journal: journal,
                    forgetsBeforeCompletion: forgetsBeforeCompletion)
                app.labelsTasks = labelsTasks
                return app
            },
            setTracking: { _, _ in })
    }
    return (record, journal)
}

@Suite("LifelineKit: background URLSession (R-H5–R-H9)")
struct URLSessionKitTests {
    @Test(
        "R-H5, R-H6: suspended, the app is resumed: handleEvents, didCompleteWithError, then didFinishEvents"
    )
    func suspendedAppGetsItsEvents() {
        let (record, journal) = runUploadingApp(actions: [(0, .open), (30, .leave)], horizon: 200)
        #expect(
            Array(journal.notes.drop { !$0.hasPrefix("upload task") }) == [
                "upload task 1 of 25 rows",
                "handle events com.example.uploads background", "task 1 uploaded",
                "events finished",
            ])
        #expect(record.server.acceptedRows.count == 25)
    }

    @Test("R-H5, R-H6: ended for memory, the app is launched in the background and gets its events")
    func endedAppIsRelaunched() {
        let (_, journal) = runUploadingApp(
            actions: [(0, .open), (30, .leave), (60, .memoryPressure)], horizon: 200)
        #expect(
            Array(journal.notes.drop { !$0.hasPrefix("upload task") }) == [
                "upload task 1 of 25 rows", "launch background",
                "handle events com.example.uploads background", "task 1 uploaded",
                "events finished",
            ])
    }

    @Test(
        "taskDescription set before resume() comes back on the task a relaunched process is handed"
    )
    func relaunchedProcessReadsTheLabel() {
        let (_, journal) = runUploadingApp(
            actions: [(0, .open), (30, .leave), (60, .memoryPressure)], horizon: 200,
            labelsTasks: true)
        #expect(
            Array(journal.notes.drop { !$0.hasPrefix("upload task") }) == [
                "upload task 1 of 25 rows", "launch background",
                "handle events com.example.uploads background", "task 1 uploaded",
                "label rows 0 to 24", "events finished",
            ])
    }

    @Test(
        "R-H7: a force-quit cancels the upload; at the next launch the task fails with the user force-quit reason"
    )
    func forceQuitCancels() {
        let (record, journal) = runUploadingApp(
            actions: [(0, .open), (30, .leave), (35, .forceQuit), (60, .open)], horizon: 200)
        #expect(
            Array(journal.notes.drop { !$0.hasPrefix("upload task") }.prefix(4)) == [
                "upload task 1 of 25 rows", "launch inactive",
                "task 1 failed \(URLError.Code.cancelled.rawValue) (user force-quit)",
                "upload task 2 of 25 rows",
            ])
        #expect(
            record.server.acceptedBatches.map(\.key) == [
                UploadBatchKey(firstRowIndex: 0, rowCount: 25)
            ],
            "resent under the same key")
    }

    /// Open, leave at 30 s (the first 25 fixes handed over at 24 s, to begin at 84 s),
    /// force-quit at 35 s, which cancels them; open again at 60 s and stay until 1,500 s (the
    /// app uploads as it goes; what it stored in the last 10 minutes is not judged).
    static let forceQuitThenReturn: [(Double, UserAction)] = [
        (0, .open), (30, .leave), (35, .forceQuit), (60, .open), (1_500, .leave),
    ]

    @Test("uploaded-once holds for the app that marks rows uploaded when the server accepted them")
    func correctAppHoldsUploadedOnce() {
        let (record, _) = runUploadingApp(actions: Self.forceQuitThenReturn, horizon: 1_600)
        #expect(Invariant.uploadedOnce().check(record).isEmpty)
        let firstBatch = record.server.acceptedBatches.first
        #expect(firstBatch?.key == UploadBatchKey(firstRowIndex: 0, rowCount: 25), "resent")
        #expect(record.server.repeatedKeys.isEmpty)
    }

    @Test(
        "deterministic under random same-instant orderings, and the correct app still holds uploaded-once",
        arguments: [UInt64(1), 2, 3])
    func randomOrderings(seed: UInt64) {
        let actions = Self.forceQuitThenReturn + [(1_510, .memoryPressure)]
        let (first, journal) = runUploadingApp(
            actions: actions, horizon: 1_600, ordering: .random(seed: seed))
        let (again, replayed) = runUploadingApp(
            actions: actions, horizon: 1_600, ordering: .random(seed: seed))
        #expect(journal.notes == replayed.notes)
        #expect(first.server.acceptedBatches.map(\.key) == again.server.acceptedBatches.map(\.key))
        #expect(Invariant.uploadedOnce().check(first).isEmpty)
    }

    @Test(
        "uploaded-once catches the app that forgets its rows when it hands them over: the force-quit loses them"
    )
    func forgettingAppIsCaught() {
        let (record, _) = runUploadingApp(
            actions: Self.forceQuitThenReturn, horizon: 1_600, forgetsBeforeCompletion: true)
        let violations = Invariant.uploadedOnce().check(record)
        #expect(violations.count == 1)
        #expect(violations.first?.explanation.contains("25 stored fixes") == true)
        #expect(violations.first?.explanation.contains("never reached the server") == true)
    }
}
