// `URLSession.shared` and `URLSessionConfiguration.default` through the simulation: a standard
// session's upload is the process's own request (R-D13), its end handed to the completion
// handler with the response.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.URLSession
import class LifelineKit.URLSessionConfiguration
import protocol LifelineKit.URLSessionDelegate
import class LifelineKit.URLSessionTask
import protocol LifelineKit.URLSessionTaskDelegate

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app that, at its first launch, uploads one row through `URLSession.shared` with a
/// completion handler, beginning `afterSeconds` later, and notes the end.
private final class SharedSessionApp: UIResponder, UIApplicationDelegate {
    let journal: Journal
    let afterSeconds: Double

    init(journal: Journal, afterSeconds: Double) {
        self.journal = journal
        self.afterSeconds = afterSeconds
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        journal.launches += 1
        guard journal.launches == 1 else { return true }
        let batch = UploadBatch(
            key: UploadBatchKey(firstRowIndex: 0, rowCount: 1),
            rows: [StoredRow(key: "fix", text: "row 0")])
        var request = URLRequest(url: URL(string: "https://example.com/rows")!)
        request.httpMethod = "POST"
        let journal = journal
        let task = URLSession.shared.uploadTask(
            with: request, from: SimulatedUploadBody.data(for: batch)
        ) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode
            let code = (error as? URLError)?.code.rawValue
            journal.note(
                "ended: status \(status.map(String.init) ?? "none"), "
                    + "error \(code.map(String.init) ?? "none"), data \(data == nil ? "nil" : "some")"
            )
        }
        task.earliestBeginDate = Date().addingTimeInterval(afterSeconds)
        task.resume()
        journal.note("\(task.state) \(task.currentRequest?.httpMethod ?? "-")")
        journal.note("shared is one object: \(URLSession.shared === URLSession.shared)")
        return true
    }
}

@Suite("LifelineKit: URLSession.shared and the default configuration")
struct StandardURLSessionTests {
    @Test("R-D13: a shared-session upload reaches the server; its handler gets status 200")
    func sharedUploadAccepted() {
        let journal = Journal()
        let world = runParkedApp(until: 30, actions: [(0, .open)]) {
            SharedSessionApp(journal: journal, afterSeconds: 0)
        }
        #expect(
            journal.notes == [
                "running POST", "shared is one object: true",
                "ended: status 200, error none, data some",
            ])
        #expect(world.server.acceptedBatches.count == 1)
    }

    @Test(
        "R-D13: suspended outside a background task, the shared-session upload is cancelled and its handler told when the app runs again"
    )
    func sharedUploadCancelledBySuspension() {
        let journal = Journal()
        let world = runParkedApp(until: 200, actions: [(0, .open), (5, .leave), (100, .open)]) {
            SharedSessionApp(journal: journal, afterSeconds: 60)
        }
        #expect(
            journal.notes == [
                "running POST", "shared is one object: true",
                "ended: status none, error \(NSURLErrorCancelled), data nil",
            ])
        #expect(world.server.acceptedBatches.isEmpty)
    }

    @Test("URLSessionConfiguration.default has no identifier; background(withIdentifier:) has one")
    func defaultConfiguration() {
        #expect(URLSessionConfiguration.default.identifier == nil)
        #expect(URLSessionConfiguration.background(withIdentifier: "b").identifier == "b")
    }
}
