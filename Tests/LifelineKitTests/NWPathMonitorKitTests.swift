// `NWPathMonitor` through LifelineKit (R-N47): its handler runs on the queue it was started
// on, with `.satisfied` or `.unsatisfied` as the world's network goes up and down, soon after
// the start and at each change; a monitor cancelled hears nothing more.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.DispatchQueue

/// Starts a monitor at launch on a queue of its own, noting each path with its second, and
/// whether the handler ran on that queue; cancels it at `cancelAfter` seconds, if given.
private func runMonitor(actions: [(Double, UserAction)], cancelAfter: Double? = nil) -> Journal {
    let (_, journal) = runProbe(authorization: .always, until: 120, actions: actions) { app, _ in
        let journal = app.journal
        let queue = DispatchQueue(label: "path")
        let monitor = NWPathMonitor()
        monitor.pathUpdateHandler = { path in
            let second = Int(Date().timeIntervalSince(VirtualClock.startDate).rounded())
            journal.note("path \(path.status) at \(second)")
        }
        monitor.start(queue: queue)
        app.keptDelegates.append(monitor)
        if let cancelAfter {
            DispatchQueue.main.asyncAfter(deadline: .now() + cancelAfter) { monitor.cancel() }
        }
    }
    return journal
}

@Suite("LifelineKit: NWPathMonitor (R-N47)")
struct NWPathMonitorKitTests {
    @Test("R-N47: the handler hears the path at the start and at each change of the network")
    func followsTheNetwork() {
        let journal = runMonitor(actions: [
            (0, .open), (10, .networkDown), (30, .networkSlow(.seconds(5))), (50, .networkDown),
            (70, .networkUp),
        ])
        #expect(
            journal.notes.filter { $0.hasPrefix("path") } == [
                "path satisfied at 0", "path unsatisfied at 10", "path satisfied at 30",
                "path unsatisfied at 50", "path satisfied at 70",
            ])
    }

    @Test("R-N47: a monitor started while the network is down first hears unsatisfied")
    func startedWhileDown() {
        let journal = runMonitor(actions: [(0, .networkDown), (1, .open), (40, .networkUp)])
        #expect(
            journal.notes.filter { $0.hasPrefix("path") } == [
                "path unsatisfied at 1", "path satisfied at 40",
            ])
    }

    @Test("R-N47: a cancelled monitor hears nothing more; server conditions are no path change")
    func cancelledHearsNothing() {
        let journal = runMonitor(
            actions: [(0, .open), (5, .serverDown), (10, .networkDown), (40, .networkUp)],
            cancelAfter: 20)
        #expect(
            journal.notes.filter { $0.hasPrefix("path") } == [
                "path satisfied at 0", "path unsatisfied at 10",
            ])
    }
}
