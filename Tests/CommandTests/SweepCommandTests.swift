// `lifeline sweep`: the CSV's columns, units and rows, the SVG chart's structure, the errors of
// bad parameters, the grace sweep over source A's probes, and rows the same for any --jobs.
import Foundation
import Testing

@testable import LifelineCommands

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Sweep command")
struct SweepCommandTests {
    /// Runs `lifeline sweep` with `arguments`, writing the CSV and SVG into `folder`.
    func sweep(_ arguments: [String], folder: TemporaryFolder) throws -> (
        csv: [[String]], svg: String, table: String
    ) {
        let result = runTool(
            ["sweep"] + arguments + [
                "--csv", folder.path("out.csv"), "--svg", folder.path("out.svg"),
            ])
        #expect(result.code == 0, "\(result.error)")
        let csv = try String(contentsOfFile: folder.path("out.csv"), encoding: .utf8)
        let svg = try String(contentsOfFile: folder.path("out.svg"), encoding: .utf8)
        let rows = csv.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (rows, svg, result.standard)
    }

    @Test("CSV: a header with units, then one row per value and engine")
    func csvColumns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = try sweep(
            ["--param", "whenInUseGrace=0...20:10", "--probes", "--jobs", "1"], folder: folder)
        #expect(
            out.csv[0] == [
                "whenInUseGrace (s)", "engine", "runs", "fixes lost (fixes)",
                "fixes stored (fixes)", "mean gap (s)", "longest gap (s)",
                "mean relaunch latency (s)", "GNSS on (s)", "invariant failures (run-invariants)",
            ])
        let body = out.csv.dropFirst()
        // 3 values × (4 probes + 3 engines).
        #expect(body.count == 3 * 7)
        #expect(body.allSatisfy { $0.count == out.csv[0].count })
        #expect(body.map { $0[0] } == ["0", "10", "20"].flatMap { Array(repeating: $0, count: 7) })
        #expect(Set(body.map { $0[1] }).count == 7)
    }

    @Test(
        "R-A4 grace sweep: plain and live probes lose fewer fixes as grace grows, others unchanged")
    func graceSweep() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = try sweep(
            ["--param", "whenInUseGrace=0...30:5", "--probes", "--jobs", "2"], folder: folder)
        func lost(_ engine: String) -> [Int] {
            out.csv.dropFirst().filter { $0[1] == engine }.map { Int($0[3])! }
        }
        for probe in ["probe-plain", "probe-live"] {
            let series = lost(probe)
            #expect(series.count == 7)
            #expect(series.first! > 0 && series.last! == 0, "\(probe): \(series)")
            #expect(zip(series, series.dropFirst()).allSatisfy { $0 >= $1 }, "\(probe): \(series)")
        }
        for other in [
            "probe-background", "probe-live-session", "location-runtime", "session", "standard",
        ] {
            let rows: [[String]] = out.csv.dropFirst().filter { $0[1] == other }
            let measured: Set<String> = Set(
                rows.map { $0.dropFirst(2).joined(separator: ",") })
            #expect(measured.count == 1, "\(other)")
        }
    }

    @Test("SVG: well-formed XML, one polyline per engine, both axes labelled with units")
    func svgChart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = try sweep(
            ["--param", "whenInUseGrace=0...30:10", "--probes", "--jobs", "1"], folder: folder)
        final class Collector: NSObject, XMLParserDelegate {
            var polylines: [String] = []
            var texts: [(cls: String?, text: String)] = []
            var currentClass: String?
            var current: String?
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String]
            ) {
                if name == "polyline" { polylines.append(attributes["data-series"] ?? "") }
                if name == "text" {
                    currentClass = attributes["class"]
                    current = ""
                }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
            func parser(
                _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
                qualifiedName: String?
            ) {
                if name == "text", let text = current { texts.append((currentClass, text)) }
                current = nil
            }
        }
        let parser = XMLParser(data: Data(out.svg.utf8))
        let collector = Collector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(
            collector.polylines == [
                "probe-plain", "probe-background", "probe-live", "probe-live-session",
                "location-runtime", "session", "standard",
            ])
        #expect(collector.texts.contains { $0.cls == "x-label" && $0.text == "whenInUseGrace (s)" })
        #expect(collector.texts.contains { $0.cls == "y-label" && $0.text == "fixes lost (fixes)" })
        #expect(collector.texts.filter { $0.cls == "legend" }.count == 7)
    }

    @Test("rows are the same with --jobs 1 and --jobs 2 on generated scenarios")
    func jobsDeterminism() throws {
        let one = try TemporaryFolder(function: "jobs1")
        let two = try TemporaryFolder(function: "jobs2")
        defer {
            one.remove()
            two.remove()
        }
        let arguments = [
            "--param", "significantChangeLatency=0...60:60", "--generated", "4", "--seed", "3",
        ]
        let first = try sweep(arguments + ["--jobs", "1"], folder: one)
        let second = try sweep(arguments + ["--jobs", "2"], folder: two)
        #expect(first.csv == second.csv)
        #expect(first.svg == second.svg)
        #expect(first.csv.count == 1 + 2 * 3)
    }

    @Test(
        "bad parameters: exit 2 and an error naming the parameter",
        arguments: [
            ("nope=0...30", "no policy parameter is called 'nope'"),
            ("whenInUseGrace=30...0", "--param whenInUseGrace: the range 30...0 is empty"),
            ("whenInUseGrace=0...30:0", "--param whenInUseGrace: the step must be above 0"),
            ("whenInUseGrace=0...30:-5", "--param whenInUseGrace: the step must be above 0"),
            ("whenInUseGrace=-5...30:5", "--param whenInUseGrace: -5 is outside its domain"),
            (
                "networkFailurePercent=50...150:50",
                "--param networkFailurePercent: 150 is outside its domain"
            ),
            ("fixInterval=0...2", "--param fixInterval: 'fixInterval' must be longer than 0s"),
            ("willTerminateOnForceQuit=0...1", "--param willTerminateOnForceQuit: "),
            ("whenInUseGrace=a...30", "--param whenInUseGrace: 'a' is not a number"),
        ])
    func badParameter(argument: String, message: String) {
        let result = runTool(["sweep", "--param", argument, "--probes"])
        #expect(result.code == 2)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.standard.isEmpty)
    }

    @Test("an unknown name lists the sweepable parameters, without the switches")
    func unknownListsSweepable() {
        let result = runTool(["sweep", "--param", "grace=0...30"])
        #expect(result.code == 2)
        #expect(result.error.contains("whenInUseGrace"))
        #expect(!result.error.contains("willTerminateOnForceQuit"))
    }

    @Test("SVG legend: a line drawn over an identical earlier one names it, so no series hides")
    func legendNamesHiddenLines() {
        let series = [
            SweepChart.Series(label: "probe-plain", points: [(0, 19), (5, 14)]),
            SweepChart.Series(label: "probe-background", points: [(0, 0), (5, 0)]),
            SweepChart.Series(label: "probe-live", points: [(0, 19), (5, 14)]),
            SweepChart.Series(label: "session", points: [(0, 0), (5, 1)]),
        ]
        #expect(
            series.indices.map { SweepChart.legend($0, of: series) } == [
                "probe-plain", "probe-background", "probe-live (over probe-plain)", "session",
            ])
    }
}
