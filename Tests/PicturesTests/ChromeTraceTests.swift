// The Chrome trace checked against the published Trace Event Format: the JSON object form, the
// required keys of each event, known phases only, integer microseconds, per-track timestamps
// that never decrease, complete events that nest or follow one another, and scoped instants.
import Engines
import Foundation
import Fuzzing
import Invariants
import Simulation
import Testing
import World

@testable import Pictures

@Suite("Chrome trace")
struct ChromeTraceTests {
    /// The file's events, after checking the object form: `traceEvents` and `displayTimeUnit`.
    static func events(_ trace: ChromeTrace) throws -> [[String: Any]] {
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(trace.json.utf8)) as? [String: Any])
        #expect(object["displayTimeUnit"] as? String == "ms")
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        #expect(events.count == trace.eventCount)
        return events
    }

    @Test("the force-quit run is valid JSON with every event's required keys and known phases")
    func requiredKeys() throws {
        let picture = try PictureRuns.picture(PictureRuns.scenario(PictureRuns.forceQuitPath))
        let events = try Self.events(ChromeTrace(picture))
        #expect(events.count > 100)
        for (index, event) in events.enumerated() {
            let phase = try #require(event["ph"] as? String, "event \(index) has no ph")
            #expect(["X", "i", "M"].contains(phase), "event \(index): unknown phase \(phase)")
            #expect(event["name"] is String, "event \(index) has no name")
            #expect(event["pid"] is Int && event["tid"] is Int, "event \(index): pid, tid")
            let ts = try #require(event["ts"] as? Int, "event \(index): ts is not an integer")
            #expect(ts >= 0)
            switch phase {
            case "X":
                let duration = try #require(event["dur"] as? Int, "event \(index): X without dur")
                #expect(duration >= 0)
            case "i":
                let scope = try #require(event["s"] as? String, "event \(index): i without s")
                #expect(["g", "p", "t"].contains(scope))
            default:
                #expect(
                    ["process_name", "process_sort_index", "thread_name", "thread_sort_index"]
                        .contains(event["name"] as? String))
                #expect(event["args"] is [String: Any])
            }
            if let args = event["args"] as? [String: Any], phase != "M" {
                // The exact instant: ts is its microseconds, truncated.
                let ns = try #require(args["ns"] as? Int)
                #expect(ts == ns / 1_000)
            }
        }
    }

    @Test("timestamps never decrease on any track, and slices on a track nest or follow")
    func ordering() throws {
        for path in [PictureRuns.forceQuitPath, PictureRuns.failingPath] {
            let picture = try PictureRuns.picture(PictureRuns.scenario(path))
            let events = try Self.events(ChromeTrace(picture))
            var last: [String: Int] = [:]  // looked up by key, never iterated
            var open: [String: [Int]] = [:]  // the ends of the slices enclosing the current one
            for event in events where event["ph"] as? String != "M" {
                let track = "\(event["pid"]!)/\(event["tid"]!)"
                let ts = event["ts"] as! Int
                #expect(ts >= last[track, default: 0], "\(path): ts goes back on track \(track)")
                last[track] = ts
                guard event["ph"] as? String == "X" else { continue }
                let end = ts + (event["dur"] as! Int)
                var stack = open[track, default: []]
                while let enclosing = stack.last, enclosing <= ts { stack.removeLast() }
                if let enclosing = stack.last {
                    #expect(end <= enclosing, "\(path): slices overlap on track \(track)")
                }
                stack.append(end)
                open[track] = stack
            }
        }
    }

    @Test("the app's states are back-to-back slices from the start to the horizon")
    func states() throws {
        let picture = try PictureRuns.picture(PictureRuns.scenario(PictureRuns.forceQuitPath))
        let slices = try Self.events(ChromeTrace(picture)).filter {
            $0["cat"] as? String == "state"
        }
        #expect(
            slices.map { $0["name"] as? String } == [
                "foreground", "background", "not running", "background",
            ])
        for (previous, next) in zip(slices, slices.dropFirst()) {
            #expect((previous["ts"] as! Int) + (previous["dur"] as! Int) == next["ts"] as! Int)
        }
        let last = try #require(slices.last)
        #expect((last["ts"] as! Int) + (last["dur"] as! Int) == 20 * 60 * 1_000_000)
    }

    @Test("a relaunch is a process-scoped instant on the app, a violation a global one")
    func instants() throws {
        let forceQuit = try Self.events(
            ChromeTrace(PictureRuns.picture(PictureRuns.scenario(PictureRuns.forceQuitPath))))
        let relaunches = forceQuit.filter { $0["cat"] as? String == "relaunch" }
        #expect(relaunches.count == 1)
        #expect(relaunches.first?["ph"] as? String == "i")
        #expect(relaunches.first?["s"] as? String == "p")
        #expect(relaunches.first?["pid"] as? Int == 2)
        #expect(relaunches.first?["ts"] as? Int == 301_000_000)
        #expect(forceQuit.contains { $0["name"] as? String == "killed (force-quit, process 1)" })
        #expect(!forceQuit.contains { $0["cat"] as? String == "violation" })

        let failing = try Self.events(
            ChromeTrace(PictureRuns.picture(PictureRuns.scenario(PictureRuns.failingPath))))
        let violations = failing.filter { $0["cat"] as? String == "violation" }
        #expect(!violations.isEmpty)
        #expect(violations.allSatisfy { $0["s"] as? String == "g" && $0["ph"] as? String == "i" })
        #expect(violations.allSatisfy { $0["name"] as? String == "bounded-gaps" })
    }

    @Test("a lost fix names its rule")
    func lostFix() throws {
        let picture = try PictureRuns.picture(PictureRuns.scenario(PictureRuns.forceQuitPath))
        let names = try Self.events(ChromeTrace(picture)).compactMap { $0["name"] as? String }
        let lost = names.filter { $0.hasPrefix("fix lost") }
        #expect(lost == ["fix lost: process ended (force-quit), R-A1"])
        let kept = names.contains("fix delivered") && names.contains("fix stored")
        #expect(kept)
    }

    @Test("the same scenario gives the same bytes twice")
    func deterministic() throws {
        let scenario = try PictureRuns.scenario(PictureRuns.failingPath)
        let first = ChromeTrace(try PictureRuns.picture(scenario)).json
        let second = ChromeTrace(try PictureRuns.picture(scenario)).json
        #expect(first == second)
    }

    @Test("microseconds truncate the nanoseconds below them, and slices still meet")
    func microseconds() {
        #expect(ChromeTraceEvent.microseconds(Instant(nanosecondsSinceStart: 1_999)) == 1)
        #expect(ChromeTraceEvent.microseconds(Instant(nanosecondsSinceStart: 2_000)) == 2)
        let track = ChromeTrack(pid: 2, tid: 1, name: "process")
        let a = ChromeTraceEvent.slice(
            "a", category: "state", track: track, from: Instant(nanosecondsSinceStart: 500),
            to: Instant(nanosecondsSinceStart: 2_700))
        let b = ChromeTraceEvent.slice(
            "b", category: "state", track: track, from: Instant(nanosecondsSinceStart: 2_700),
            to: Instant(nanosecondsSinceStart: 9_000))
        #expect(a.timestamp == 0 && a.duration == 2 && b.timestamp == 2)
    }
}
