// The scenario text format over random scenarios: printing a scenario and reading the text
// back gives the same scenario, and a damaged text is an error, never a trap. Every part of a
// scenario is drawn (policy overrides, engine settings, routes of segments or GPX, every kind
// of event at nanosecond times, orderings, seeds, horizons), numbers over their whole ranges.
import EngineMutants
import Engines
import Exploration
import ExplorationTesting
import Foundation
import Scenarios
import Simulation
import Testing
import World

/// A good GPX file for generated GPX routes (the parser reads it).
let scenarioGPXPath: String = {
    let folder =
        NSTemporaryDirectory() + "lifeline-scenario-properties-"
        + "\(ProcessInfo.processInfo.processIdentifier)"
    let path = folder + "/route.gpx"
    let text = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="Xcode">
        <wpt lat="51.5007" lon="-0.1246"/>
        <wpt lat="51.5007" lon="-0.1146"/>
        </gpx>
        """
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
}()

/// Durations from zero to `max`, in whole nanoseconds.
func durations(upTo max: VirtualDuration) -> Gen<VirtualDuration> {
    Gen<Int64>.int64(in: 0...max.nanoseconds).map { VirtualDuration(nanoseconds: $0) }
}

/// Any 64-bit seed.
var seeds: Gen<UInt64> {
    Gen<Int64>.int64(in: Int64.min...Int64.max).map { UInt64(bitPattern: $0) }
}

/// Overrides that a policy accepts, one per key, each written as a person might.
let overrideCandidates: [ScenarioPolicy.Override] = [
    .init("whenInUseGrace", "5s"), .init("fixInterval", "250ms"),
    .init("significantChangeDistanceMeters", "512.5"), .init("regionCountMax", "3"),
    .init("willTerminateOnForceQuit", "false"), .init("uploadLatency", "1m30s"),
]

var scenarioPolicies: Gen<ScenarioPolicy> {
    Gen("scenario-policy") { testCase in
        let preset = Gen<String>.element(of: IOSPolicy.presetNames).generate(testCase)
        let overrides = overrideCandidates.filter { _ in Gen<Bool>.bool.generate(testCase) }
        return ScenarioPolicy(preset: preset, overrides: overrides)
    }
}

var scenarioEngines: Gen<ScenarioEngine> {
    Gen.zip(
        Gen<EngineChoice>.element(of: EngineChoice.all), Gen<Bool>.bool, Gen<Bool>.bool
    ).map {
        // A file may give the settings only to an engine that honours them.
        let honours = $0.0.honoursLaunchRules
        return ScenarioEngine($0.0, stopOnTerminate: honours && $0.1, startOnBoot: honours && $0.2)
    }
}

var segments: Gen<Route.Segment> {
    Gen("segment") { testCase in
        let kind = Gen<Route.Segment.Kind>.element(of: [.drive, .walk, .park]).generate(testCase)
        return Route.Segment(
            kind, durations(upTo: .hours(2)).generate(testCase),
            speedMetersPerSecond: Gen<Double>.double(in: 0...400).generate(testCase),
            headingChangeDegrees: Gen<Double>.double(in: -360...360).generate(testCase))
    }
}

var scenarioRoutes: Gen<ScenarioRoute> {
    Gen<ScenarioRoute>.oneOf([
        Gen("segments-route") { testCase in
            ScenarioRoute.segments(
                start: Coordinate(
                    latitude: Gen<Double>.double(in: -90...90).generate(testCase),
                    longitude: Gen<Double>.double(in: -180...180).generate(testCase)),
                headingDegrees: Gen<Double>.double(in: 0...360).generate(testCase),
                Gen.array(of: segments, length: 0...6).generate(testCase))
        },
        Gen<Double>.double(in: 0.001...400).map {
            ScenarioRoute.gpx(path: scenarioGPXPath, speedMetersPerSecond: $0)
        },
    ])
}

/// Any action a scenario file can write (`UserAction.readable`), a kind that takes a duration
/// with any duration up to two hours, either way for a signed one: no case is listed here.
var scenarioEvents: Gen<UserAction> {
    Gen.zip(Gen.element(of: UserAction.readable), durations(upTo: .hours(2)), Gen<Bool>.bool)
        .map { action, duration, back in
            guard case .duration(_, let signed, _, let make) = action.spelling.value else {
                return action
            }
            return make(signed && back ? .zero - duration : duration)
        }
}

var orderings: Gen<OrderingSpecification> {
    Gen<OrderingSpecification>.oneOf([
        .constant(.fifo),
        seeds.map { .random(seed: $0) },
        Gen.zip(seeds, Gen<Int>.int(in: 1...64)).map { .pct(seed: $0.0, depth: $0.1) },
    ])
}

/// Random scenarios: every part drawn, events at or before the horizon.
var scenarios: Gen<Scenario> {
    Gen("scenario") { testCase in
        var scenario = Scenario()
        scenario.policy = scenarioPolicies.generate(testCase)
        scenario.engine = scenarioEngines.generate(testCase)
        scenario.capabilities = AppCapabilities(
            locationBackgroundMode: Gen<Bool>.bool.generate(testCase),
            sceneBased: Gen<Bool>.bool.generate(testCase))
        scenario.authorization = Gen.element(of: Authorization.allCases).generate(testCase)
        scenario.accuracy = Gen<AccuracyAuthorization>.element(of: [.full, .reduced])
            .generate(testCase)
        scenario.answers = AuthorizationAnswers(
            whenInUse: Gen.element(of: [.whenInUse, .denied]).generate(testCase),
            always: Gen.element(of: [.always, .whenInUse]).generate(testCase),
            responseDelay: durations(upTo: .minutes(1)).generate(testCase),
            temporaryFullAccuracy: Gen<Bool>.bool.generate(testCase))
        scenario.route = scenarioRoutes.generate(testCase)
        scenario.ordering = orderings.generate(testCase)
        scenario.seed = seeds.generate(testCase)
        scenario.horizon = durations(upTo: Scenario.horizonMax).generate(testCase)
        let timed = Gen.zip(durations(upTo: scenario.horizon), scenarioEvents)
            .map { TimedEvent(at: $0.0, $0.1) }
        scenario.events = Gen.array(of: timed, length: 0...12).generate(testCase)
        return scenario
    }
}

/// A scenario's text with one stretch of characters replaced by another text's.
var damagedTexts: Gen<String> {
    Gen("damaged-text") { testCase -> String in
        let text = Array(scenarios.generate(testCase).description)
        let start = Gen<Int>.int(in: 0...text.count).generate(testCase)
        let length = Gen<Int>.int(in: 0...(text.count - start)).generate(testCase)
        let junk = Gen<String>.element(of: [
            "", " ", "\n", "  ", "#", "=", "-", "+", ":", ",", "9", "x", "\t", "1e400", "nan",
            "route",
            "events", "\n  0s open", "\n  drive", "gpx", "m/s", "at", "999999999999h",
        ]).generate(testCase)
        return String(text[..<start]) + junk + String(text[(start + length)...])
    }
}

@Suite("Scenario text format")
struct ScenarioProperties {
    @Test("printing a scenario and reading the text back gives the same scenario")
    func roundTrip() {
        _ = scenarioGPXPath
        propertyCheck(in: Self.self, scenarios, cases: 300) { scenario in
            let text = scenario.description
            let parsed = try Scenario(parsing: text, path: "generated.scenario")
            try check(parsed == scenario, "read back as:\n\(parsed)")
            try check(parsed.description == text, "the text is not a fixed point")
        }
    }

    @Test(
        "no fix of any run has a non-finite coordinate or accuracy (any start, heading, turn and speed up to the route's maximum)"
    )
    func fixesAreFinite() {
        _ = scenarioGPXPath
        // Runs cut to 10 minutes: the routes' extremes (the poles, 400 m/s, whole turns) are
        // reached in the first minutes.
        let short = scenarios.map { scenario in
            var scenario = scenario
            scenario.horizon = min(scenario.horizon, .minutes(10))
            scenario.events = scenario.events.filter { $0.at <= scenario.horizon }
            return scenario
        }
        propertyCheck(in: Self.self, short, cases: 60) { scenario in
            let fixes = try scenario.run().world.log.compactMap { entry -> Fix? in
                if case .location(let update) = entry.kind { update.fix } else { nil }
            }
            for fix in fixes {
                try check(
                    fix.coordinate.latitude.isFinite && fix.coordinate.longitude.isFinite
                        && fix.horizontalAccuracyMeters.isFinite,
                    "a fix at \(fix.coordinate) ±\(fix.horizontalAccuracyMeters) m")
            }
        }
    }

    @Test("a damaged scenario text reads as a scenario or fails with a located error")
    func damagedTextNeverTraps() {
        _ = scenarioGPXPath
        propertyCheck(in: Self.self, damagedTexts, cases: 300) { text in
            do {
                let scenario = try Scenario(parsing: text, path: "damaged.scenario")
                let again = try Scenario(parsing: scenario.description, path: "again")
                try check(again == scenario, "a damaged text that reads does not round-trip")
            } catch let error as ScenarioParseError {
                try check(error.line >= 1 && error.column >= 1, "error without a place: \(error)")
            }
        }
    }
}
