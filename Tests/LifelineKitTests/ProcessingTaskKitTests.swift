// BGTaskScheduler's processing requests through LifelineKit (R-H10): the launch handler gets a
// `BGProcessingTask` once the request's requirements hold.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

/// An app delegate that registers a processing handler at every launch and, at its first
/// foreground launch, submits a request due a minute later with the given requirements.
final class ProcessingApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    let requiresNetwork: Bool
    let requiresPower: Bool

    init(journal: Journal, requiresNetwork: Bool, requiresPower: Bool) {
        self.journal = journal
        self.requiresNetwork = requiresNetwork
        self.requiresPower = requiresPower
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let journal = journal
        BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.maintenance", using: nil
        ) { task in
            journal.note("processing \(task.identifier) \(task is BGProcessingTask)")
            task.setTaskCompleted(success: true)
        }
        guard application.applicationState != .background else { return true }
        let request = BGProcessingTaskRequest(identifier: "com.example.maintenance")
        request.earliestBeginDate = Date().addingTimeInterval(60)
        request.requiresNetworkConnectivity = requiresNetwork
        request.requiresExternalPower = requiresPower
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            journal.note("submit failed")
        }
        return true
    }
}

/// Runs `ProcessingApp` on a parked device; returns when each note was made.
func runProcessingApp(
    actions: [(Double, UserAction)], requiresNetwork: Bool = false, requiresPower: Bool = false
) -> [String] {
    let journal = Journal()
    _ = runParkedApp(until: 300, actions: actions) {
        ProcessingApp(
            journal: journal, requiresNetwork: requiresNetwork, requiresPower: requiresPower)
    }
    return journal.notes
}

@Suite("LifelineKit: BGProcessingTaskRequest (R-H10)")
struct ProcessingTaskKitTests {
    @Test("R-H10: the launch handler gets a BGProcessingTask at the request's date")
    func runs() {
        let notes = runProcessingApp(actions: [(0, .open), (2, .leave)])
        #expect(notes == ["processing com.example.maintenance true"])
    }

    @Test("R-H10: requiring the network, it waits for it; requiring power, it never runs")
    func requirements() {
        let waited = runProcessingApp(
            actions: [(0, .open), (1, .networkDown), (2, .leave), (200, .networkUp)],
            requiresNetwork: true)
        #expect(waited == ["processing com.example.maintenance true"])
        let offline = runProcessingApp(
            actions: [(0, .open), (1, .networkDown), (2, .leave)], requiresNetwork: true)
        #expect(offline.isEmpty, "the network never comes back")
        let unplugged = runProcessingApp(actions: [(0, .open), (2, .leave)], requiresPower: true)
        #expect(unplugged.isEmpty)
    }
}

/// An app delegate that registers a refresh handler and submits a refresh request, noting
/// whether each was accepted.
final class PermittedTasksApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let registered = BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.refresh", using: nil
        ) { $0.setTaskCompleted(success: true) }
        journal.note("registered \(registered)")
        submitRefresh(noting: journal)
        return true
    }
}

extension ProcessingTaskKitTests {
    func permittedTasksNotes(_ capabilities: AppCapabilities) -> [String] {
        let journal = Journal()
        _ = runParkedApp(until: 10, actions: [(0, .open)], capabilities: capabilities) {
            PermittedTasksApp(journal: journal)
        }
        return journal.notes
    }

    @Test(
        "R-H11: an identifier the Info.plist does not permit is not registered, and its request is refused with notPermitted"
    )
    func infoPlistPermits() {
        let permitted = AppCapabilities(
            sceneBased: false, backgroundModes: ["fetch"],
            permittedTaskIdentifiers: ["com.example.refresh"])
        #expect(permittedTasksNotes(permitted) == ["registered true", "submitted"])
        let unlisted = AppCapabilities(
            sceneBased: false, backgroundModes: ["fetch"], permittedTaskIdentifiers: [])
        #expect(permittedTasksNotes(unlisted) == ["registered false", "refused notPermitted"])
        let noFetch = AppCapabilities(
            sceneBased: false, backgroundModes: ["location"],
            permittedTaskIdentifiers: ["com.example.refresh"])
        #expect(permittedTasksNotes(noFetch) == ["registered true", "refused notPermitted"])
    }
}

/// An app delegate that notes Background App Refresh's status and its refresh request's fate.
final class RefreshStatusApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    init(journal: Journal) { self.journal = journal }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.note("status \(application.backgroundRefreshStatus)")
        submitRefresh(noting: journal)
        return true
    }
}

extension ProcessingTaskKitTests {
    @Test("R-H12: with Background App Refresh off, the status is denied and submit is unavailable")
    func backgroundRefreshOff() {
        func notes(_ actions: [(Double, UserAction)]) -> [String] {
            let journal = Journal()
            _ = runParkedApp(until: 10, actions: actions) { RefreshStatusApp(journal: journal) }
            return journal.notes
        }
        #expect(notes([(1, .open)]) == ["status available", "submitted"])
        #expect(
            notes([(0, .setBackgroundRefresh(false)), (1, .open)])
                == ["status denied", "refused unavailable"])
    }

    @Test(
        "R-H13: in Low Power Mode Background App Refresh is off: the status is denied and submit is unavailable, until it is off again"
    )
    func lowPowerModeTurnsBackgroundRefreshOff() {
        func notes(_ actions: [(Double, UserAction)]) -> [String] {
            let journal = Journal()
            _ = runParkedApp(until: 10, actions: actions) { RefreshStatusApp(journal: journal) }
            return journal.notes
        }
        #expect(
            notes([(0, .setLowPowerMode(true)), (1, .open)])
                == ["status denied", "refused unavailable"])
        #expect(
            notes([(0, .setLowPowerMode(true)), (0.5, .setLowPowerMode(false)), (1, .open)])
                == ["status available", "submitted"])
    }
}

/// Submits an app refresh request for `com.example.refresh` and notes what `submit` did.
func submitRefresh(noting journal: Journal) {
    do {
        try BGTaskScheduler.shared.submit(
            BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
        journal.note("submitted")
    } catch let error as BGTaskScheduler.Error {
        journal.note("refused \(error.code)")
    } catch {
        journal.note("other error")
    }
}
