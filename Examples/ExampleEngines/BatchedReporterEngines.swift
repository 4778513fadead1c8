// Examples/BatchedReporter as engines: the reporter as written (batches timed by a repeating
// `Timer`), its twin timed with `Task.sleep`, and its planted bug (a timer never scheduled
// again after a relaunch), over `DeviceReportStore`.
import BatchedReporterExample
import Engines
import Foundation
import LifelineKit
import World

import class LifelineKit.Timer
import class LifelineKit.UserDefaults

/// The reporter's `ReportStore` on the simulated device: locations as fix rows committed at
/// once; what was sent and confirmed as `upload.sent` and `upload.done` rows (a batch sent and
/// never confirmed is sent again under the same key, so a retry is never a duplicate); the
/// switch in `UserDefaults`.
final class DeviceReportStore: ReportStore {
    private weak var services: LocationServices?
    init(services: LocationServices) { self.services = services }

    func append(_ locations: [CLLocation]) -> Bool {
        commitFixRows(of: locations, services: services)
    }

    func nextBatch() -> (body: Data, number: Int)? {
        guard let services, let store = try? services.openStore() else { return nil }
        let rows = Array(store.rows)
        let fixRows = rows.filter { $0.key == FixRecorder.fixRowKey }
        let last = rows.last { $0.key.hasPrefix("upload.") }
        var first = 0
        var count = 0
        if let last, last.key == "upload.sent" {
            let numbers = last.text.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            (first, count) = (numbers[0], numbers[1])
        } else {
            first = last.flatMap { Int($0.text) } ?? 0
            count = min(fixRows.count - first, 500)
            guard count > 0 else { return nil }
            store.insert(StoredRow(key: "upload.sent", text: "\(first) \(count)"))
            store.commit()
        }
        let batch = UploadBatch(
            key: UploadBatchKey(firstRowIndex: first, rowCount: count),
            rows: Array(fixRows.dropFirst(first).prefix(count)))
        return (SimulatedUploadBody.data(for: batch), first + count)
    }

    func markSent(_ number: Int) {
        guard let services, let store = try? services.openStore() else { return }
        store.insert(StoredRow(key: "upload.done", text: String(number)))
        store.commit()
    }

    var reportingSwitchedOff: Bool {
        get { UserDefaults.standard.bool(forKey: "reporter.switchedOff") }
        set { UserDefaults.standard.set(newValue, forKey: "reporter.switchedOff") }
    }
}

/// The batched reporter as written; it uploads, so every built-in invariant judges it.
package let batchedReporter = CustomEngine.application(
    name: "batched-reporter",
    summary: "Examples/BatchedReporter: uploads batched by a repeating Timer, in a background task"
) { services in
    ReporterAppDelegate(store: DeviceReportStore(services: services))
} setTracking: { app, on in
    app.reporter?.setReporting(on)
}

/// The reporter with its batches timed by `Task.sleep` instead of a `Timer`.
final class SleepingReporterAppDelegate: UIResponder, UIApplicationDelegate {
    let store: ReportStore
    var reporter: LocationReporter?
    init(store: ReportStore) { self.store = store }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let reporter = LocationReporter(store: store, application: application)
        self.reporter = reporter
        reporter.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        let handed = Handed(value: reporter)
        Task {
            while true {
                try await Task.sleep(for: .seconds(LocationReporter.batchInterval))
                handed.value.flush()
            }
        }
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        reporter?.resume()
        reporter?.flush()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        reporter?.armRestartRegion()
        reporter?.flush()
    }

    func applicationWillTerminate(_ application: UIApplication) { reporter?.armRestartRegion() }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        reporter?.protectedDataDidBecomeAvailable()
    }
}

/// The reporter's twin: the same verdicts as `batchedReporter`, case by case.
package let sleepingReporter = CustomEngine.application(
    name: "sleeping-reporter", summary: "the batched reporter, its batches timed by Task.sleep"
) { services in
    SleepingReporterAppDelegate(store: DeviceReportStore(services: services))
} setTracking: { app, on in
    app.reporter?.setReporting(on)
}

/// The planted bug: the batch timer starts only when the user turns reporting on, so a
/// relaunched process (which the user did not touch) never sends its batches.
final class UnscheduledTimerAppDelegate: UIResponder, UIApplicationDelegate {
    let store: ReportStore
    var reporter: LocationReporter?
    private var batchTimer: Timer?
    init(store: ReportStore) { self.store = store }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let reporter = LocationReporter(store: store, application: application)
        self.reporter = reporter
        reporter.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        return true
    }

    func setReporting(_ on: Bool) {
        reporter?.setReporting(on)
        guard on, batchTimer == nil, let reporter else { return }
        let handed = Handed(value: reporter)
        batchTimer = Timer.scheduledTimer(
            withTimeInterval: LocationReporter.batchInterval, repeats: true
        ) { _ in handed.value.flush() }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        reporter?.armRestartRegion()
    }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        reporter?.protectedDataDidBecomeAvailable()
    }
}

/// The reporter's planted bug as an engine (`uploaded-once` finds it).
package let unscheduledTimerReporter = CustomEngine.application(
    name: "unscheduled-timer-reporter",
    summary: "the batched reporter whose timer is never scheduled again after a relaunch"
) { services in
    UnscheduledTimerAppDelegate(store: DeviceReportStore(services: services))
} setTracking: { app, on in
    app.setReporting(on)
}
