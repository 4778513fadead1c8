// Examples/DebouncedRecorder as engines: the recorder as written (its stop debounced with
// `DispatchQueue.main.asyncAfter` and a `DispatchWorkItem`), its twin timed with
// `Task.sleep`, and its planted bug (a cancelled stop that still runs), over
// `DeviceLocationStore`.
import DebouncedRecorderExample
import Engines
import Foundation
import Fuzzing
import Invariants
import LifelineKit

import class LifelineKit.DispatchQueue
import class LifelineKit.DispatchWorkItem

/// The debounced recorder as written; it keeps its locations on the phone.
package let debouncedRecorder = CustomEngine.application(
    name: "debounced-recorder",
    summary: "Examples/DebouncedRecorder: a switch debounced with asyncAfter and a work item",
    profile: .phoneOnly()
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
        recorder.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        return true
    }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        recorder.protectedDataDidBecomeAvailable()
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

/// The recorder's twin: the same verdicts as `debouncedRecorder`, case by case.
package let sleepingRecorder = CustomEngine.application(
    name: "sleeping-recorder", summary: "the debounced recorder, its stop timed by Task.sleep",
    profile: .phoneOnly()
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
        recorder.launch(protectedDataAvailable: application.isProtectedDataAvailable)
        return true
    }

    func applicationProtectedDataDidBecomeAvailable(_ application: UIApplication) {
        recorder.protectedDataDidBecomeAvailable()
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        recorder.armRestartRegion()
    }
}

/// The recorder's planted bug as an engine (`bounded-gaps` or
/// `restore-exactly-what-was-running` finds it).
package let stillWritingRecorder = CustomEngine.application(
    name: "still-writing-recorder",
    summary: "the debounced recorder whose cancelled stop still runs",
    profile: .phoneOnly()
) { services in
    StillWritingRecorderAppDelegate(store: DeviceLocationStore(services: services))
} setTracking: { app, on in
    app.setRecording(on)
}

extension ExampleEngines {
    /// The recorder keeps its locations on the device (no uploader, its profile says so):
    /// every built-in invariant but `uploaded-once`.
    package static let recorderInvariants = InvariantSelection().applied(
        to: Invariant.builtIn, profile: debouncedRecorder.profile)
}
