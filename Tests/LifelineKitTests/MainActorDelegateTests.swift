// UIKit's isolation as Apple declares it: `UIApplicationDelegate` and `UIResponder` are
// main-actor isolated, so an app delegate's `Task { … }` may touch the delegate's own state, as
// on iOS, and `CustomEngine.application` makes and calls such a delegate with no box. This file
// compiles only against main-actor UIKit shapes: against non-isolated ones the task below is
// "passing closure as a 'sending' parameter risks causing data races".
import Engines
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// An app delegate as an iOS team writes it, unchanged: at launch it starts a task that sleeps
/// 10 s and then counts and reads its own state and `UIApplication.shared` (main-actor API).
final class SleepingTaskAppDelegate: UIResponder, UIApplicationDelegate {
    let journal: Journal
    private var launchedAt: Date?
    private var wakes = 0

    init(journal: Journal) {
        self.journal = journal
        super.init()
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        launchedAt = Date()
        Task {
            try? await Task.sleep(for: .seconds(10))
            wakes += 1
            let slept = launchedAt.map { Date().timeIntervalSince($0) } ?? -1
            journal.note(
                "woke \(wakes) after \(Int(slept)) s, "
                    + "\(UIApplication.shared.applicationState)")
        }
        return true
    }
}

/// Its journal: test memory outside the simulated processes.
let sleepingTaskJournal = Journal()

/// The delegate as a custom engine: a `@MainActor` initializer called straight from the
/// `delegate` closure, and the tracking switch a main-actor call too.
let sleepingTaskApp = CustomEngine.application(
    name: "sleeping-task-app", summary: "an app delegate whose launch task touches its state"
) { _ in
    SleepingTaskAppDelegate(journal: sleepingTaskJournal)
} setTracking: { app, on in
    app.journal.note("tracking \(on)")
}

@Suite("LifelineKit: UIKit's main-actor isolation")
struct MainActorDelegateTests {
    @Test(
        "a main-actor app delegate's launch task touches its own state 10 virtual seconds later, on the main actor"
    )
    func launchTaskRunsOnTheMainActor() {
        var world = World(
            WorldConfiguration(
                policy: .iOS18, capabilities: sleepingTaskApp.profile.capabilities,
                authorization: .always, route: drive(20))
        ) { sleepingTaskApp.make(LaunchRules()) }
        world.schedule(.open, at: .start)
        world.schedule(.trackingOn, at: .start + .seconds(5))
        world.run(until: .start + .minutes(1))
        #expect(sleepingTaskJournal.notes == ["tracking true", "woke 1 after 10 s, active"])
    }

    @Test("the app delegate and its UIApplication are on the main actor during a callback")
    func callbacksRunOnTheMainActor() {
        let (_, journal) = runProbe(until: 30, actions: [(0, .open), (10, .leave)]) { app, _ in
            MainActor.assertIsolated("an app delegate's callback runs on the main actor")
            app.journal.note("set up")
        }
        #expect(journal.notes.contains("set up"))
    }
}
