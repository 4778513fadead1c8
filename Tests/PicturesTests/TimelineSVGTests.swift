// The SVG timeline read back with Foundation's XMLParser: well-formed, one lane per kind, axis
// labels, relaunch and violation markers, bins for a long run, the same bytes twice; and the
// docs/pictures.md's scenario file is the lifecycle matrix's force-quit run.
import Engines
import Foundation
import Fuzzing
import Invariants
import Simulation
import Testing
import World

@testable import Pictures

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a parsed SVG holds: its lanes in order, its tick labels, its markers by kind, and the
/// elements of each lane.
final class SVGSummary: NSObject, XMLParserDelegate {
    var lanes: [String] = []
    var ticks: [String] = []
    var markerKinds: [String] = []
    var elementsPerLane: [Int] = []
    var root: String?
    private var inTick = false
    private var text = ""

    static func parse(_ svg: String) throws -> SVGSummary {
        let summary = SVGSummary()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = summary
        #expect(
            parser.parse(), "the SVG is well-formed XML: \(String(describing: parser.parserError))")
        return summary
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
    ) {
        root = root ?? name
        if name == "g", attributes["class"] == "lane", let lane = attributes["data-lane"] {
            lanes.append(lane)
            elementsPerLane.append(0)
        } else if !elementsPerLane.isEmpty {
            elementsPerLane[elementsPerLane.count - 1] += 1
        }
        if attributes["class"] == "marker", let kind = attributes["data-kind"] {
            markerKinds.append(kind)
        }
        inTick = name == "text" && attributes["class"] == "tick"
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTick { text += string }
    }

    func parser(
        _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        if inTick, name == "text" { ticks.append(text) }
        inTick = false
    }
}

@Suite("SVG timeline")
struct TimelineSVGTests {
    static let lanes = [
        "process state", "live updates", "standard updates", "sessions", "significant change",
        "regions & visits", "fixes stored", "fixes delivered", "fixes lost", "launches",
        "actions", "violations",
    ]

    @Test("the force-quit run parses, with one lane per kind, hh:mm labels and its relaunch")
    func forceQuit() throws {
        let picture = try PictureRuns.picture(PictureRuns.scenario(PictureRuns.forceQuitPath))
        let svg = TimelineSVG(picture, title: "force-quit & <session>").text
        let escaped = svg.contains("force-quit &amp; &lt;session&gt;")
        #expect(escaped)
        let summary = try SVGSummary.parse(svg)
        #expect(summary.root == "svg")
        #expect(summary.lanes == Self.lanes)
        #expect(
            summary.ticks
                == stride(from: 0, through: 20, by: 2).map { "00:\($0 < 10 ? "0" : "")\($0)" })
        #expect(summary.markerKinds.filter { $0 == "relaunch" }.count == 1)
        #expect(summary.markerKinds.filter { $0 == "termination" }.count == 1)
        #expect(summary.markerKinds.filter { $0 == "user" }.count == 3)
        #expect(!summary.markerKinds.contains("violation"))
        let labelled = svg.contains(">relaunch 2: session</text>")
        #expect(labelled, "the relaunch is labelled")
        let verdict = svg.contains("no violation")
        #expect(verdict)
    }

    @Test("a run that fails an invariant has a violation marker for it")
    func violation() throws {
        let picture = try PictureRuns.picture(PictureRuns.scenario(PictureRuns.failingPath))
        #expect(!picture.violations.isEmpty)
        let svg = TimelineSVG(picture, title: "mutant").text
        let summary = try SVGSummary.parse(svg)
        #expect(summary.lanes == Self.lanes)
        #expect(summary.markerKinds.filter { $0 == "violation" }.count == picture.violations.count)
        let verdict = svg.contains("FAIL: bounded-gaps (\(picture.violations.count))")
        #expect(verdict)
    }

    @Test("a long run's fixes are binned: no more bars than the plot has bins")
    func bins() throws {
        let picture = try PictureRuns.picture(PictureRuns.longDrive(hours: 2))
        let delivered = picture.fixes(.delivered).count
        let binCount = TimelineSVG.Layout.binCountMax
        #expect(delivered > 2 * binCount)
        #expect(TimelineSVG.Layout(picture: picture).binSeconds == 15)
        let summary = try SVGSummary.parse(TimelineSVG(picture, title: "long").text)
        let lane = try #require(summary.lanes.firstIndex(of: "fixes delivered"))
        // The lane's background and label, then one bar (and its title) per non-empty bin.
        #expect(summary.elementsPerLane[lane] <= 2 + 2 * binCount)
        #expect(summary.elementsPerLane[lane] > 2 * 2 * 3_600 / 15)
        #expect(summary.ticks.first == "00:00" && summary.ticks.last == "02:00")
    }

    @Test("the same scenario gives the same bytes twice")
    func deterministic() throws {
        let scenario = try PictureRuns.scenario(PictureRuns.forceQuitPath)
        let first = TimelineSVG(try PictureRuns.picture(scenario), title: "a").text
        let second = TimelineSVG(try PictureRuns.picture(scenario), title: "a").text
        #expect(first == second)
    }

    @Test(
        "the docs/pictures.md's scenario file is LifecycleMatrix's force-quit run of the session engine"
    )
    func readmeScenarioIsTheMatrixRun() throws {
        let matrix = LifecycleMatrix(policy: .measured)
        let plan = matrix.plan(.forceQuit)
        let startOnBoot = matrix.startOnBoot
        let expected = RunRecord.run(
            configuration: WorldConfiguration(
                policy: matrix.policy, authorization: .always, route: plan.route,
                seed: matrix.seed),
            actions: plan.actions.map { ScheduledAction(.start + $0.0, $0.1) },
            horizon: .start + plan.fixesWantedFrom + matrix.observedFor,
            launchRules: LaunchRules(startOnBoot: startOnBoot), keepsTrace: true
        ) { BuiltInEngine.session.make(startOnBoot: startOnBoot) }
        let record = try PictureRuns.scenario(PictureRuns.forceQuitPath).record(keepsTrace: true)
        let (trace, expectedTrace) = (try #require(record.trace), try #require(expected.trace))
        #expect(trace.hash.value == expectedTrace.hash.value)
        #expect(trace.records.count == expectedTrace.records.count)
        #expect(record.horizon == expected.horizon)
    }
}
