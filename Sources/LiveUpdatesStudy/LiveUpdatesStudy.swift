// What async live updates cost (docs/studies/kit-engines.md, "The async live-updates path,
// measured"): one app written twice, receiving live updates for a long drive and committing
// every fix to the store. Form A is a world-level engine (`services.startLiveUpdates` and
// `didReceive`, as `SessionEngine` receives them); form B is a LifelineKit app delegate whose
// launch starts `for try await update in CLLocationUpdate.liveUpdates()`. Both hold a
// background activity session, so the updates go on after the user leaves the app.
import Foundation
import LifelineKit
import Simulation
import World

/// What a run of either form gives back: the updates the app received and the fixes it
/// stored.
package struct LiveUpdatesStudyResult: Sendable {
    /// Updates that reached the app's code (with a location or not).
    package var updates: Int
    /// The fixes on disk at the end of the run, in order.
    package var storedFixes: [Fix]
}

/// The two forms of the same app.
package enum LiveUpdatesStudyForm: String, Sendable, CaseIterable {
    /// A world-level `AppEngine`: `startLiveUpdates`, stored in `didReceive`.
    case world
    /// A LifelineKit app delegate iterating `CLLocationUpdate.liveUpdates()` in a task.
    case kit
    /// The same, the task on the main actor (`Task { @MainActor in … }`), as the code of a
    /// `@MainActor` app delegate on iOS makes it.
    case kitMainActor = "kit-main-actor"
}

/// Counts the updates the app's code saw, across processes (outside the simulated ones).
final class UpdateCounter: @unchecked Sendable {
    var updates = 0
}

/// What both forms do with an update: count it and commit its fix, if any, to the store (one
/// commit per fix, as `FixRecorder` does). Only the simulation's thread touches it (the
/// process's callbacks and jobs), hence `@unchecked Sendable`.
final class FixSink: @unchecked Sendable {
    private let counter: UpdateCounter
    private let store: Store?

    init(counter: UpdateCounter, services: LocationServices) {
        self.counter = counter
        store = try? services.openStore()
    }

    func receive(_ fix: Fix?) {
        counter.updates += 1
        guard let fix, let store else { return }
        store.insert(StoredRow(key: "fix", fix: fix))
        store.commit()
    }
}

/// Form A: the session engine's way of receiving live updates, and nothing else.
final class WorldLiveUpdatesEngine: AppEngine {
    private let counter: UpdateCounter
    private var stream: LiveUpdatesID?
    private var session: BackgroundActivitySession?
    private var sink: FixSink?

    init(counter: UpdateCounter) { self.counter = counter }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        sink = FixSink(counter: counter, services: services)
        session = BackgroundActivitySession(services: services)
        stream = services.startLiveUpdates()
    }

    func didReceive(_ update: LocationUpdate, services: LocationServices) {
        guard let id = update.liveUpdates, id == stream else { return }
        sink?.receive(update.fix)
    }
}

/// Form B: an app delegate as an iOS team writes it with live updates.
final class KitLiveUpdatesApp: UIResponder, UIApplicationDelegate {
    private let sink: FixSink
    private var session: CLBackgroundActivitySession?
    private var task: Task<Void, any Error>?

    private let onMainActor: Bool

    init(counter: UpdateCounter, services: LocationServices, onMainActor: Bool) {
        sink = FixSink(counter: counter, services: services)
        self.onMainActor = onMainActor
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        session = CLBackgroundActivitySession()
        let sink = sink
        if onMainActor {
            task = Task { @MainActor in
                for try await update in CLLocationUpdate.liveUpdates() {
                    sink.receive(update.location?.lifelineFix)
                }
            }
        } else {
            task = Task {
                for try await update in CLLocationUpdate.liveUpdates() {
                    sink.receive(update.location?.lifelineFix)
                }
            }
        }
        return true
    }
}

extension LiveUpdatesStudyForm {
    /// Runs this form on a device driving east at 20 m/s for `duration`, Always authorized,
    /// the app opened at the start and left a minute later; until the drive ends.
    package func run(for duration: VirtualDuration) -> LiveUpdatesStudyResult {
        let counter = UpdateCounter()
        let route = Route(
            start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
            segments: [.init(.drive, duration, speedMetersPerSecond: 20)])
        let configuration = WorldConfiguration(
            policy: .iOS18, capabilities: AppCapabilities(sceneBased: false),
            authorization: .always, route: route)
        var world: World
        switch self {
        case .world:
            world = World(configuration) { WorldLiveUpdatesEngine(counter: counter) }
        case .kit, .kitMainActor:
            let onMainActor = self == .kitMainActor
            world = World(configuration) {
                ApplicationEngine(
                    delegate: { services in
                        KitLiveUpdatesApp(
                            counter: counter, services: services, onMainActor: onMainActor)
                    },
                    setTracking: { _, _ in })
            }
        }
        world.schedule(.open, at: .start)
        world.schedule(.leave, at: .start + .minutes(1))
        world.run(until: .start + duration)
        return LiveUpdatesStudyResult(
            updates: counter.updates, storedFixes: world.storedRows.compactMap(\.fix))
    }
}
