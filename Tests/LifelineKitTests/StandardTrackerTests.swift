// The standard engine rewritten on LifelineKit (`standard-kit`, KitEngines) against the engine
// it ports (`standard`): on the fuzzer's scenarios (in FIFO order) both leave the same rows on
// the disk and at the server, tell the same events, and make the same world calls in the same
// order, but for the two LifelineKit's `CLLocationManager` adds; and the fuzzer finds the port
// correct.
import Engines
import Exploration
import Foundation
import Fuzzing
import FuzzingTesting
import KitEngines
import Scenarios
import Simulation
import Testing
import World

/// Every delivery of a run as a line (`TraceHash.line`), kept in order.
final class TraceLines: TraceSink {
    private(set) var lines: [String] = []
    func record(instant: Instant, actor: ActorID, message: WorldMessage) {
        lines.append(TraceHash.line(instant: instant, actor: actor, message: message.description))
    }
}

/// The trace of a `standard-kit` run without what LifelineKit's `CLLocationManager` adds to
/// the standard engine's world calls, with the object handles it shifts put back:
///
/// 1. its first authorization callback, a run-loop timer of zero delay made with the manager
///    (`ProcessScope.announce`): handle #2 of every process, right after the manager's #1, so
///    every later handle of the process is one higher, and its delivery `app timer timer #2
///    due`;
/// 2. `didStartMonitoringFor` (R-G4): the `confirm monitoring region` request after each
///    `monitor region`, and its delivery `manager #1 monitoring … started`;
/// 3. `backgroundTimeRemaining` (R-F1): `UIApplication` asks the system at every launch to
///    tell it its background time (`watch background time`), and the system's `background
///    time …` messages that follow.
func withoutKitAdditions(_ lines: [String]) -> [String] {
    lines.compactMap { line in
        if line.contains("\"app timer timer #2 due (process ") { return nil }
        if line.contains("\"background time ") { return nil }
        if line.contains("\"requests [watch background time] (process ") { return nil }
        if line.contains(" monitoring \(StandardTracker.regionIdentifier) started (process ") {
            return nil
        }
        let unconfirmed = line.replacingOccurrences(
            of: "; manager #1 confirm monitoring region \(StandardTracker.regionIdentifier)",
            with: ""
        )
        .replacingOccurrences(of: "watch background time; ", with: "")
        .replacingOccurrences(of: "; watch background time", with: "")
        return renumbered(unconfirmed)
    }
}

/// `line` with every handle `#n` above 2 made `#(n-1)`.
private func renumbered(_ line: String) -> String {
    var result = ""
    var digits = ""
    var inHandle = false
    func flush() {
        if let value = Int(digits) { result += String(value > 2 ? value - 1 : value) }
        digits = ""
    }
    for character in line {
        if inHandle, character.isASCII, character.isNumber {
            digits.append(character)
            continue
        }
        if inHandle {
            flush()
            inHandle = false
        }
        result.append(character)
        if character == "#" { inHandle = true }
    }
    if inHandle { flush() }
    return result
}

/// What a run leaves that the port must leave too.
struct PortedRun: Equatable {
    var trace: [String]
    var stored: [String]
    var accepted: [String]
    var events: [[String]]

    /// The run of `scenario` by `engine`, its same-instant deliveries in FIFO order: under
    /// the fuzzer's random and PCT orderings LifelineKit's extra deliveries change which
    /// permutation is drawn, and the two runs then part (on the first 60 fuzz scenarios, 46
    /// of which are not FIFO, 14 traces and 35 stores stay the same).
    init(_ scenario: Scenario, engine: EngineChoice) throws {
        var scenario = scenario
        scenario.ordering = .fifo
        scenario.engine.name = engine
        let sink = TraceLines()
        let run = try scenario.run(trace: sink)
        trace = engine == .builtIn(.standard) ? sink.lines : withoutKitAdditions(sink.lines)
        stored = run.world.storedRows.map(\.description)
        accepted = run.world.server.acceptedRows.map(\.description)
        events = run.engines.map { $0.events.map(\.description) }
    }
}

@Suite("KitEngines: the standard engine on LifelineKit")
struct StandardTrackerTests {
    /// The fuzzer's scenarios for the standard engine (`lifeline fuzz --seed 1`'s first cases).
    static func scenarios(count: Int) -> [Scenario] {
        let generator = ScenarioGenerator(engine: .builtIn(.standard))
        return (0..<count).compactMap { index in
            let testCase = TestCase(seed: Seed(1).derive(UInt64(index)).value)
            let scenario = generator.scenarios.generate(testCase)
            return testCase.status == .valid ? scenario : nil
        }
    }

    @Test(
        "on 10 fuzz scenarios in FIFO order, standard-kit stores, uploads and tells what standard does, with the same world calls but LifelineKit's additions"
    )
    func sameRunsAsStandard() throws {
        let scenarios = Self.scenarios(count: 10)
        #expect(scenarios.count >= 8)
        var storedSomething = 0
        for (index, scenario) in scenarios.enumerated() {
            let standard = try PortedRun(scenario, engine: .builtIn(.standard))
            let kit = try PortedRun(scenario, engine: .custom(.standardKit))
            #expect(kit.stored == standard.stored, "scenario \(index): stored rows")
            #expect(kit.accepted == standard.accepted, "scenario \(index): server rows")
            #expect(kit.events == standard.events, "scenario \(index): events")
            #expect(kit.trace.count == standard.trace.count, "scenario \(index): deliveries")
            if let first = kit.trace.indices.first(where: {
                $0 >= standard.trace.count || kit.trace[$0] != standard.trace[$0]
            }) {
                let other = first < standard.trace.count ? standard.trace[first] : "nothing"
                Issue.record(
                    "scenario \(index): trace line \(first): \(kit.trace[first]) vs \(other)")
            }
            if !standard.stored.isEmpty { storedSomething += 1 }
        }
        #expect(storedSomething >= 3, "the comparison covers runs that record")
    }

    @Test(
        "unnormalised, a kit run's trace has more deliveries than standard's (LifelineKit's two additions)"
    )
    func kitAddsCalls() throws {
        let scenario = try #require(Self.scenarios(count: 1).first)
        var standard = scenario
        standard.engine.name = .builtIn(.standard)
        var kit = scenario
        kit.engine.name = .custom(.standardKit)
        let standardTrace = TraceLines()
        let kitTrace = TraceLines()
        _ = try standard.run(trace: standardTrace)
        _ = try kit.run(trace: kitTrace)
        #expect(kitTrace.lines != standardTrace.lines, "the raw traces differ")
        #expect(kitTrace.lines.count > standardTrace.lines.count)
    }

    @Test("fuzzed over generated lifecycles, standard-kit holds every built-in invariant")
    func fuzzed() {
        // 20 cases here; .ci/run sets LIFELINE_CASES=150.
        let report = fuzzLifecycle(of: .custom(.standardKit), seed: 1, cases: 20)
        #expect(report?.failure == nil)
        let budget =
            ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 20
        #expect(report?.cases == budget, "every case of the budget ran")
    }

    /// The standard engine's two mutants, planted in the port through the same seams.
    static let noRegionOnTerminate: CustomEngine = {
        var seams = StandardEngine.Seams()
        seams.handlesWillTerminate = false
        return .standardKit(
            name: "no-region-on-terminate-kit", summary: "standard-kit ignoring willTerminate",
            seams: seams)
    }()

    static let backgroundWithoutCapability: CustomEngine = {
        var seams = StandardEngine.Seams()
        seams.checksBackgroundModeBeforeAllowing = false
        var profile = BuiltInEngine.standard.profile
        profile.capabilities.locationBackgroundMode = false
        return .standardKit(
            name: "background-without-capability-kit",
            summary: "standard-kit allowing background updates without the mode", seams: seams,
            profile: profile)
    }()

    @Test(
        "the standard engine's mutants, planted in standard-kit, fail the invariant their corpus entries fail",
        arguments: [
            (noRegionOnTerminate, "bounded-gaps"),
            (backgroundWithoutCapability, "no-capability-trap"),
        ])
    func mutantsCaught(engine: CustomEngine, invariant: String) throws {
        let report = try plantedMistakeSearch(engine, cases: 400)
        #expect(report.failure?.invariant == invariant)
    }
}
