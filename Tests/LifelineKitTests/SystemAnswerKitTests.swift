// The calls whose answer comes later through a completion handler or an `await`:
// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` and its async form
// (ios-facts: Reduced accuracy), and `BGTaskScheduler.getPendingTaskRequests` and
// `pendingTaskRequests()` (R-H1, R-H10).
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// Runs `ProbeApp` on a parked device, When In Use with `accuracy`, the temporary full accuracy
/// prompt answered `granted` after the default delay, with `actions` at their seconds.
private func runAccuracyProbe(
    authorization: Authorization = .whenInUse, accuracy: AccuracyAuthorization = .reduced,
    granted: Bool = true, answerDelay: VirtualDuration = AuthorizationAnswers().responseDelay,
    capabilities: AppCapabilities = AppCapabilities(sceneBased: false),
    until end: Double = 60, actions: [(Double, UserAction)] = [(0, .open)],
    setUp: @escaping @MainActor @Sendable (ProbeApp, UIApplication) -> Void
) -> (World, Journal) {
    runProbe(
        authorization: authorization, accuracy: accuracy,
        answers: AuthorizationAnswers(responseDelay: answerDelay, temporaryFullAccuracy: granted),
        capabilities: capabilities, route: drive(20, parkedFor: .hours(1)), until: end,
        actions: actions, setUp: setUp)
}

/// The seconds from the start at which the app was handed the system's answers.
private func answerSeconds(_ world: World) -> [Double] {
    world.log.compactMap { entry in
        guard case .answer = entry.kind else { return nil }
        return (entry.instant - .start).seconds
    }
}

/// Asks for temporary full accuracy at launch with a completion that notes what it got and
/// the manager's accuracy then.
@MainActor private func askWithCompletion(_ app: ProbeApp, _ application: UIApplication) {
    // Apple's completion is `@Sendable`; the simulated process runs on one thread.
    nonisolated(unsafe) let manager = app.makeManager()
    let journal = app.journal
    manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Navigation") { error in
        let code =
            (error as? CLError)?.code == .promptDeclined
            ? "promptDeclined" : "\(String(describing: error))"
        let full = manager.accuracyAuthorization == .fullAccuracy
        journal.note("completion \(error == nil ? "nil" : code) full \(full)")
    }
}

/// The journal's notes that start with one of `prefixes`, in order.
private func notes(_ journal: Journal, _ prefixes: String...) -> [String] {
    journal.notes.filter { note in prefixes.contains { note.hasPrefix($0) } }
}

@Suite("LifelineKit: answers through completion handlers and await")
struct SystemAnswerKitTests {
    static let delay = AuthorizationAnswers().responseDelay.seconds

    /// The delegate hears of the change after the completion ran.
    @Test("granted: the completion gets nil once answered, with accuracy already full")
    func grantedCompletion() {
        let (world, journal) = runAccuracyProbe(setUp: askWithCompletion)
        // The delegate's first call is the new manager's initial authorization (reduced).
        #expect(
            notes(journal, "completion", "authorization") == [
                "authorization 4", "completion nil full true", "authorization 4",
            ])
        #expect(answerSeconds(world) == [Self.delay])
    }

    @Test("declined: the completion gets nil too (the prompt was shown), accuracy stays reduced")
    func declinedCompletion() {
        let (world, journal) = runAccuracyProbe(granted: false, setUp: askWithCompletion)
        #expect(notes(journal, "completion") == ["completion nil full false"])
        #expect(answerSeconds(world) == [Self.delay])
    }

    @Test("already full accuracy: no prompt, the completion gets CLError.promptDeclined at once")
    func notShownWhenFull() {
        let (world, journal) = runAccuracyProbe(accuracy: .full, setUp: askWithCompletion)
        #expect(notes(journal, "completion") == ["completion promptDeclined full true"])
        #expect(answerSeconds(world) == [0])
    }

    @Test("asked in the background: no prompt, the completion gets an error at once")
    func notShownInBackground() {
        let (world, journal) = runAccuracyProbe(
            actions: [(0, .open), (5, .leave)],
            setUp: { app, application in
                let journal = app.journal
                nonisolated(unsafe) let manager = app.makeManager()
                // A background task keeps the process running after it leaves at 5 s.
                app.task = application.beginBackgroundTask(withName: "ask", expirationHandler: nil)
                _ = MainActor.assumeIsolated {
                    Task { @MainActor in
                        try? await Task.sleep(for: .seconds(20))
                        let state = "\(UIApplication.shared.applicationState)"
                        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "Nav") {
                            journal.note("completion \($0 == nil ? "nil" : "error") \(state)")
                        }
                    }
                }
            })
        #expect(notes(journal, "completion") == ["completion error background"])
        #expect(answerSeconds(world).count == 1)
        #expect(answerSeconds(world) == [20])
    }

    @Test("the process ends before the answer: the completion never runs")
    func endsWithProcess() {
        let (world, journal) = runAccuracyProbe(
            actions: [(0, .open), (1, .forceQuit)], setUp: askWithCompletion)
        #expect(notes(journal, "completion").isEmpty)
        #expect(answerSeconds(world).isEmpty)
    }

    @Test("a relaunched process asking at once gets its own prompt and only its own answer")
    func relaunchAsksAgain() {
        // Process 1 asks at 0 and is force-quit at 1 s; its prompt goes with it. Process 2
        // asks at 1.5 s and is answered 2 s later; process 1's completion never runs.
        let (world, journal) = runAccuracyProbe(
            actions: [(0, .open), (1, .forceQuit), (1.5, .open)], setUp: askWithCompletion)
        #expect(notes(journal, "completion") == ["completion nil full true"])
        #expect(answerSeconds(world) == [1.5 + Self.delay])
    }

    @Test("another prompt on screen: no prompt, the completion gets an error at once")
    func anotherPromptOnScreen() {
        let (world, journal) = runAccuracyProbe(authorization: .notDetermined) { app, _ in
            let manager = app.makeManager()
            manager.requestWhenInUseAuthorization()
            askWithCompletion(app, UIApplication.shared)
        }
        #expect(notes(journal, "completion") == ["completion promptDeclined full false"])
        #expect(answerSeconds(world) == [0])
    }

    @Test("answered while the app is suspended: the completion runs when it runs again")
    func answeredWhileSuspended() {
        let (world, journal) = runAccuracyProbe(
            answerDelay: .seconds(20), actions: [(0, .open), (1, .leave), (30, .open)],
            setUp: askWithCompletion)
        #expect(notes(journal, "completion") == ["completion nil full true"])
        #expect(answerSeconds(world) == [30])
    }

    /// Awaits the async form at launch from a main-actor task, and notes how it ended.
    @MainActor static func awaitAtLaunch(_ app: ProbeApp, _ application: UIApplication) {
        nonisolated(unsafe) let manager = app.makeManager()
        let journal = app.journal
        _ = MainActor.assumeIsolated {
            Task { @MainActor in
                do {
                    try await manager.requestTemporaryFullAccuracyAuthorization(
                        withPurposeKey: "Navigation")
                    journal.note("returned full \(manager.accuracyAuthorization == .fullAccuracy)")
                } catch {
                    journal.note("threw \((error as? CLError)?.code == .promptDeclined)")
                }
            }
        }
    }

    @Test("the async form returns once the user answered, and the accuracy is full then")
    func asyncForm() {
        let (_, journal) = runAccuracyProbe(setUp: Self.awaitAtLaunch)
        #expect(notes(journal, "returned", "threw") == ["returned full true"])
    }

    @Test("the async form throws CLError.promptDeclined when the prompt cannot show")
    func asyncFormThrows() {
        let (_, journal) = runAccuracyProbe(accuracy: .full, setUp: Self.awaitAtLaunch)
        #expect(notes(journal, "returned", "threw") == ["threw true"])
    }

    static let taskCapabilities = AppCapabilities(
        sceneBased: false, backgroundModes: ["fetch", "processing"],
        permittedTaskIdentifiers: ["com.example.refresh", "com.example.process"])

    @Test("a request without a date comes back without one; a cancelled one is gone")
    func undatedAndCancelled() {
        let (_, journal) = runAccuracyProbe(
            accuracy: .full, capabilities: Self.taskCapabilities, until: 30
        ) { app, _ in
            let journal = app.journal
            let scheduler = BGTaskScheduler.shared
            let processing = BGProcessingTaskRequest(identifier: "com.example.process")
            processing.requiresExternalPower = true
            let refresh = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
            refresh.earliestBeginDate = VirtualClock.startDate.addingTimeInterval(600)
            try? scheduler.submit(processing)
            try? scheduler.submit(refresh)
            scheduler.cancel(taskRequestWithIdentifier: "com.example.refresh")
            scheduler.getPendingTaskRequests { requests in
                let dates = requests.map { "\($0.identifier) \($0.earliestBeginDate == nil)" }
                journal.note("pending \(dates)")
            }
        }
        #expect(notes(journal, "pending") == [#"pending ["com.example.process true"]"#])
    }

    /// A refresh that ran is gone; the processing request that never runs stays.
    @Test("getPendingTaskRequests hands back copies of the requests not yet run, any process")
    func pendingTaskRequests() {
        let (_, journal) = runAccuracyProbe(
            accuracy: .full, capabilities: Self.taskCapabilities, until: 400,
            actions: [(0, .open), (10, .leave), (200, .forceQuit), (300, .open)]
        ) { app, application in
            let journal = app.journal
            let scheduler = BGTaskScheduler.shared
            _ = scheduler.register(forTaskWithIdentifier: "com.example.refresh", using: nil) {
                task in
                journal.note("ran \(task.identifier)")
                task.setTaskCompleted(success: true)
            }
            _ = scheduler.register(forTaskWithIdentifier: "com.example.process", using: nil) {
                $0.setTaskCompleted(success: true)
            }
            @Sendable func describe(_ requests: [BGTaskRequest]) -> String {
                requests.map { request in
                    let begin = Int(
                        request.earliestBeginDate?.timeIntervalSince(VirtualClock.startDate) ?? -1)
                    let power = (request as? BGProcessingTaskRequest)?.requiresExternalPower
                    return "\(request.identifier)@\(begin)"
                        + (power.map { " power \($0)" } ?? "")
                }.joined(separator: ", ")
            }
            if journal.launches == 1 {
                let refresh = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
                refresh.earliestBeginDate = VirtualClock.startDate.addingTimeInterval(60)
                let processing = BGProcessingTaskRequest(identifier: "com.example.process")
                processing.earliestBeginDate = VirtualClock.startDate.addingTimeInterval(30)
                processing.requiresExternalPower = true  // never runs: no external power
                try? scheduler.submit(refresh)
                try? scheduler.submit(processing)
                scheduler.getPendingTaskRequests { journal.note("pending \(describe($0))") }
                journal.note("asked")
            } else {
                _ = MainActor.assumeIsolated {
                    Task { @MainActor in
                        let pending = await scheduler.pendingTaskRequests()
                        journal.note("later \(describe(pending))")
                    }
                }
            }
        }
        #expect(
            notes(journal, "asked", "pending", "ran", "later") == [
                "asked", "pending com.example.refresh@60, com.example.process@30 power true",
                "ran com.example.refresh",
                "later com.example.process@30 power true",
            ])
    }
}
