// The two time examples of Examples/ (a Timer-batched reporter, a recorder debounced with
// DispatchQueue.asyncAfter and a DispatchWorkItem) on the simulated device: their storage
// seams, twins written with Task.sleep, one planted bug each, and fuzzing.
import BatchedReporterExample
import DebouncedRecorderExample
import Engines
import Exploration
import Foundation
import Fuzzing
import FuzzingTesting
import Invariants
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.DispatchQueue
import class LifelineKit.DispatchWorkItem
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

/// The recorder's `RecordStore` on the simulated device: `DeviceLocationStore`'s.
extension DeviceLocationStore: RecordStore {
    var recordingSwitchedOff: Bool {
        get { trackingSwitchedOff }
        set { trackingSwitchedOff = newValue }
    }
}

/// A value handed into a task as it is (test code: everything here runs on one simulated
/// process's thread).
struct Handed<Value>: @unchecked Sendable {
    let value: Value
}

// MARK: - The reporter, its twin and its planted bug

let batchedReporter = CustomEngine.application(
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
        reporter.resume()
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
}

let sleepingReporter = CustomEngine.application(
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
        reporter.resume()
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
}

let unscheduledTimerReporter = CustomEngine.application(
    name: "unscheduled-timer-reporter",
    summary: "the batched reporter whose timer is never scheduled again after a relaunch"
) { services in
    UnscheduledTimerAppDelegate(store: DeviceReportStore(services: services))
} setTracking: { app, on in
    app.setReporting(on)
}

// MARK: - The recorder, its twin and its planted bug

let debouncedRecorder = CustomEngine.application(
    name: "debounced-recorder",
    summary: "Examples/DebouncedRecorder: a switch debounced with asyncAfter and a work item"
) { services in
    RecorderAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.recorder.setRecording(on)
}

/// The recorder with its debounced stop as a task that sleeps, cancelled by turning it on.
final class SleepingRecorderAppDelegate: UIResponder, UIApplicationDelegate {
    let store: DeviceLocationStore
    let recorder: LocationRecorder
    private var pendingStop: Task<Void, Never>?
    init(store: DeviceLocationStore) {
        self.store = store
        recorder = LocationRecorder(store: store)
    }

    func setRecording(_ on: Bool) {
        store.recordingSwitchedOff = !on
        pendingStop?.cancel()
        pendingStop = nil
        guard !on else { return recorder.resume() }
        let handed = Handed(value: recorder)
        pendingStop = Task {
            guard (try? await Task.sleep(for: .seconds(LocationRecorder.stopGrace))) != nil
            else { return }
            handed.value.stopServices()
        }
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        recorder.resume()
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        recorder.resume()
        recorder.flush()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        recorder.armRestartRegion()
        recorder.flush()
    }

    func applicationWillTerminate(_ application: UIApplication) { recorder.armRestartRegion() }
}

let sleepingRecorder = CustomEngine.application(
    name: "sleeping-recorder", summary: "the debounced recorder, its stop timed by Task.sleep"
) { services in
    SleepingRecorderAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.setRecording(on)
}

/// The planted bug: the stop is queued as a closure, not as the work item the app keeps and
/// cancels, so a cancelled stop still runs (and writes: it stops every service) after the user
/// turned recording back on.
final class StillWritingRecorderAppDelegate: UIResponder, UIApplicationDelegate {
    let store: DeviceLocationStore
    let recorder: LocationRecorder
    private var pendingStop: DispatchWorkItem?
    init(store: DeviceLocationStore) {
        self.store = store
        recorder = LocationRecorder(store: store)
    }

    func setRecording(_ on: Bool) {
        store.recordingSwitchedOff = !on
        pendingStop?.cancel()
        pendingStop = nil
        guard !on else { return recorder.resume() }
        let recorder = Handed(value: recorder)
        pendingStop = DispatchWorkItem { recorder.value.stopServices() }
        DispatchQueue.main.asyncAfter(deadline: .now() + LocationRecorder.stopGrace) {
            recorder.value.stopServices()
        }
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        recorder.resume()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        recorder.armRestartRegion()
    }
}

let stillWritingRecorder = CustomEngine.application(
    name: "still-writing-recorder",
    summary: "the debounced recorder whose cancelled stop still runs"
) { services in
    StillWritingRecorderAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.setRecording(on)
}

// MARK: - Tests

@Suite("LifelineKit: the Timer and Dispatch examples")
struct TimeExampleTests {
    /// The recorder keeps its locations on the device (no uploader): every built-in invariant
    /// but `uploaded-once`. The reporter uploads: every built-in invariant.
    static let recorderInvariants = Invariant.builtIn.filter { $0.name != "uploaded-once" }

    /// The verdict of generated cases `0..<count` (seed 1) for `engine`: the invariants each
    /// breaks, or "escaped-simulation".
    static func verdicts(_ engine: CustomEngine, _ invariants: [Invariant], count: Int)
        -> [String]
    {
        let generator = ScenarioGenerator(engine: .custom(engine)).scenarios
        return (0..<count).map { index in
            let testCase = TestCase(
                seed: Seed(1).derive(UInt64(index)).value,
                choiceCountMax: Fuzzer.choiceCountMax)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { return "invalid" }
            guard let checked = try? Fuzzer.check(scenario, invariants) else { return "threw" }
            return Set(checked.violations.map(\.invariant)).sorted().joined(separator: ",")
        }
    }

    static var budget: Int {
        Foundation.ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 10
    }

    @Test("the reporter's verdicts equal its Task.sleep twin's, case by case, and hold")
    func reporterMatchesTwin() {
        let timer = Self.verdicts(batchedReporter, Invariant.builtIn, count: 8)
        let sleeping = Self.verdicts(sleepingReporter, Invariant.builtIn, count: 8)
        #expect(timer == sleeping)
        #expect(timer.allSatisfy { $0.isEmpty || $0 == "invalid" }, "\(timer)")
    }

    @Test("the recorder's verdicts equal its Task.sleep twin's, case by case, and hold")
    func recorderMatchesTwin() {
        let items = Self.verdicts(debouncedRecorder, Self.recorderInvariants, count: 8)
        let sleeping = Self.verdicts(sleepingRecorder, Self.recorderInvariants, count: 8)
        #expect(items == sleeping)
        #expect(items.allSatisfy { $0.isEmpty || $0 == "invalid" }, "\(items)")
    }

    @Test("fuzzed, the reporter holds every built-in invariant (LIFELINE_CASES raises it)")
    func reporterFuzzed() {
        let report = fuzzLifecycle(
            of: .custom(batchedReporter), checking: Invariant.builtIn, seed: 1, cases: 10)
        #expect(report?.failure == nil)
        #expect(report?.cases == Self.budget)
    }

    @Test("fuzzed, the recorder holds every built-in invariant but uploaded-once")
    func recorderFuzzed() {
        let report = fuzzLifecycle(
            of: .custom(debouncedRecorder), checking: Self.recorderInvariants, seed: 1,
            cases: 10)
        #expect(report?.failure == nil)
        #expect(report?.cases == Self.budget)
    }

    @Test("the fuzzer finds the timer never scheduled again after a relaunch, and shrinks it")
    func unscheduledTimerIsCaught() throws {
        let report = try plantedMistakeSearch(unscheduledTimerReporter, cases: 100)
        #expect(report.failure?.invariant == "uploaded-once")
        let failure = report.failure
        #expect((failure?.scenario.events.count ?? 99) <= (failure?.originalEventCount ?? 0))
    }

    @Test("the fuzzer finds the cancelled work item that still stops recording, and shrinks it")
    func stillWritingIsCaught() throws {
        let report = try plantedMistakeSearch(
            stillWritingRecorder, checking: Self.recorderInvariants, cases: 300)
        // The services stopped while the user wants recording: a gap, or a relaunch that
        // restores nothing.
        let found = report.failure?.invariant
        #expect(found == "bounded-gaps" || found == "restore-exactly-what-was-running")
        let failure = report.failure
        #expect((failure?.scenario.events.count ?? 99) <= (failure?.originalEventCount ?? 0))
    }

    /// One example's fuzz summary (seed 1, `cases` cases) on `jobs` workers.
    static func summary(
        _ name: String, _ engine: CustomEngine, _ invariants: [Invariant], cases: Int, jobs: Int
    ) throws -> String {
        var settings = FuzzSettings(engine: .custom(engine))
        settings.caseCount = cases
        settings.jobCount = jobs
        settings.invariants = invariants
        let report = try Fuzzer.fuzz(settings)
        return "\(name): \(report.cases) cases, \(report.distinctStates) states, "
            + "\(report.distinctTransitions) transitions, failure "
            + (report.failure?.invariant ?? "none")
    }

    @Test("each example's fuzz summary is the same with one worker and with two")
    func sameSummaryWithAnyJobs() throws {
        let examples = [
            ("batched-reporter", batchedReporter, Invariant.builtIn),
            ("debounced-recorder", debouncedRecorder, Self.recorderInvariants),
        ]
        for (name, engine, invariants) in examples {
            let one = try Self.summary(name, engine, invariants, cases: Self.budget, jobs: 1)
            let two = try Self.summary(name, engine, invariants, cases: Self.budget, jobs: 2)
            #expect(one == two)
            print("fuzz summary \(one)")  // compared across processes by hand (the report)
        }
    }
}
