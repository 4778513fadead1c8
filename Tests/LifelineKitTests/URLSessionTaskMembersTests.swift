// `URLSessionTask`'s request, response and `cancel()`, and `URLSession.getAllTasks`, through
// the simulation (R-H5–R-H9): what a tracker reads of its background uploads.
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

/// An app that, at its first launch, hands a background session the uploads `plan` names
/// (rows 0, 1, … of a made-up table), cancels those marked so, and at every launch notes what
/// `getAllTasks` lists; it notes each task's end with its status code.
private final class TaskProbeApp: UIResponder, UIApplicationDelegate,
    @preconcurrency URLSessionTaskDelegate
{
    enum Upload {
        case send(label: String, afterSeconds: Double)
        case sendAndCancel(label: String)
    }

    let journal: Journal
    let plan: [Upload]
    private var session: URLSession?

    init(journal: Journal, plan: [Upload]) {
        self.journal = journal
        self.plan = plan
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let session = URLSession(
            configuration: .background(withIdentifier: "uploads"), delegate: self,
            delegateQueue: nil)
        self.session = session
        if journal.launches == 0 {
            for (index, upload) in plan.enumerated() { send(upload, row: index, on: session) }
        }
        journal.launches += 1
        let journal = journal
        session.getAllTasks { tasks in
            journal.note(
                "all tasks: "
                    + tasks.map {
                        "\($0.taskIdentifier) \($0.state) \($0.taskDescription ?? "-") "
                            + ($0.originalRequest?.url?.absoluteString ?? "no request")
                    }.joined(separator: ", "))
        }
        return true
    }

    private func send(_ upload: Upload, row: Int, on session: URLSession) {
        let batch = UploadBatch(
            key: UploadBatchKey(firstRowIndex: row, rowCount: 1),
            rows: [StoredRow(key: "fix", text: "row \(row)")])
        var request = URLRequest(url: URL(string: "https://example.com/rows/\(row)")!)
        request.httpMethod = "PUT"
        let task = session.uploadTask(with: request, fromFile: SimulatedUploadBody.file(for: batch))
        switch upload {
        case .send(let label, let after):
            task.taskDescription = label
            task.earliestBeginDate = Date().addingTimeInterval(after)
            task.resume()
        case .sendAndCancel(let label):
            task.taskDescription = label
            task.resume()
            task.cancel()
            journal.note("\(label) \(task.state) after cancel")
        }
        journal.note(
            "\(task.taskDescription ?? "-") \(task.originalRequest?.httpMethod ?? "-") "
                + (task.currentRequest?.url?.absoluteString ?? "-"))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        let status = (task.response as? HTTPURLResponse)?.statusCode
        let code = (error as? URLError)?.code.rawValue
        journal.note(
            "\(task.taskDescription ?? "-") ended: status \(status.map(String.init) ?? "none"), "
                + "error \(code.map(String.init) ?? "none"), \(task.state)")
    }
}

/// Runs `TaskProbeApp` with `plan` and `actions` at their seconds, until `end` seconds.
private func runTaskProbe(
    plan: [TaskProbeApp.Upload], until end: Double, actions: [(Double, UserAction)]
) -> (World, Journal) {
    let journal = Journal()
    let world = runParkedApp(until: end, actions: actions) {
        TaskProbeApp(journal: journal, plan: plan)
    }
    return (world, journal)
}

@Suite("LifelineKit: URLSessionTask members and getAllTasks")
struct URLSessionTaskMembersTests {
    @Test(
        "R-H5: an accepted upload's response is an HTTPURLResponse with status 200; its request is kept"
    )
    func acceptedResponse() {
        let (world, journal) = runTaskProbe(
            plan: [.send(label: "a", afterSeconds: 0)], until: 60, actions: [(0, .open)])
        #expect(
            journal.notes == [
                "a PUT https://example.com/rows/0",
                "all tasks: 1 running a https://example.com/rows/0",
                "a ended: status 200, error none, completed",
            ])
        #expect(world.server.acceptedBatches.count == 1)
    }

    @Test(
        "cancel(): a cancelled background upload ends with NSURLErrorCancelled, no response, and never reaches the server"
    )
    func cancelledUpload() {
        let (world, journal) = runTaskProbe(
            plan: [.sendAndCancel(label: "b"), .send(label: "c", afterSeconds: 0)], until: 60,
            actions: [(0, .open)])
        #expect(
            journal.notes == [
                "b canceling after cancel", "b PUT https://example.com/rows/0",
                "c PUT https://example.com/rows/1",
                "all tasks: 1 canceling b https://example.com/rows/0, 2 running c https://example.com/rows/1",
                "b ended: status none, error \(NSURLErrorCancelled), completed",
                "c ended: status 200, error none, completed",
            ])
        #expect(world.server.acceptedBatches.map(\.key.firstRowIndex) == [1])
    }

    @Test(
        "getAllTasks in a relaunched process lists the transfers an earlier process handed the system, with their label and request"
    )
    func allTasksAfterRelaunch() {
        let (_, journal) = runTaskProbe(
            plan: [.send(label: "d", afterSeconds: 600)], until: 120,
            actions: [(0, .open), (30, .exit), (60, .open)])
        #expect(
            journal.notes == [
                "d PUT https://example.com/rows/0",
                "all tasks: 1 running d https://example.com/rows/0",
                "all tasks: 1 running d https://example.com/rows/0",
            ])
    }
}
