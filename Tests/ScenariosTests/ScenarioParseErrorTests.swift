// Every kind of error the scenario parser knows, each with its exact place (file, line,
// column) and message; none traps.
import Foundation
import Scenarios
import Testing
import World

/// A bad scenario text and the error it must give.
struct BadScenario: CustomTestStringConvertible, Sendable {
    var kind: String
    var lines: [String]
    /// `file:line:column: message`.
    var error: String
    var testDescription: String { kind }
}

/// The first words of the kinds of event, as the parser lists them: those of
/// `UserAction.readable` (`open, leave, …, tracking, test-host`), so that a new kind needs no
/// edit here (`ScenarioTextTests` checks each kind's words).
let eventWords = UserAction.readable.map { $0.spelling.words[0] }
    .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    .joined(separator: ", ")

/// A good scenario's lines, into which the cases put their mistake.
let header = ["engine session", "horizon 10m", "route", "  drive 5m at 13.9 m/s"]

let badScenarios: [BadScenario] = [
    BadScenario(
        kind: "unknown directive", lines: ["engines session"] + header.dropFirst(),
        error:
            "bad.scenario:1:1: expected a directive (engine, policy, authorization, accuracy, "
            + "capabilities, answers, ordering, seed, server, horizon, route, events, end, "
            + "beacons), "
            + "found "
            + "'engines'"),
    BadScenario(
        kind: "unknown server deduplication", lines: header + ["server dedupes"],
        error:
            "bad.scenario:5:8: expected the server's deduplication (deduplicates-by-key, "
            + "stores-every-request), found 'dedupes'"),
    BadScenario(
        kind: "missing value", lines: header + ["seed"],
        error: "bad.scenario:5:5: expected a seed, found the end of the line"),
    BadScenario(
        kind: "bad number", lines: header + ["  walk 5m at fast m/s"],
        error: "bad.scenario:5:14: expected a speed in m/s, found 'fast'"),
    BadScenario(
        kind: "bad seed", lines: header + ["seed -1"],
        error:
            "bad.scenario:5:6: expected a seed (a whole number from 0 to 18446744073709551615), "
            + "found '-1'"),
    BadScenario(
        kind: "bad duration", lines: ["engine session", "horizon 10x", "route"],
        error:
            "bad.scenario:2:9: expected a duration such as 90s, 5m or 1h30m, found '10x'"),
    BadScenario(
        kind: "duration over the bound", lines: header + ["  park 200h"],
        error: "bad.scenario:5:8: expected a duration of at most 168h, found '200h'"),
    // One limit per message: a horizon over both bounds names the horizon's.
    BadScenario(
        kind: "horizon over both bounds", lines: ["engine session", "horizon 200h", "route"],
        error:
            "bad.scenario:2:9: expected a horizon of at most 24h (Scenario.horizonMax: a longer "
            + "run is not what one file may ask for), found '200h'"),
    BadScenario(
        kind: "horizon over its bound", lines: ["engine session", "horizon 168h", "route"],
        error:
            "bad.scenario:2:9: expected a horizon of at most 24h (Scenario.horizonMax: a longer "
            + "run is not what one file may ask for), found '168h'"),
    BadScenario(
        kind: "speed over the route's maximum", lines: header + ["  drive 5m at 10000 m/s"],
        error: "bad.scenario:5:15: expected a speed from 0 to 400 m/s, found '10000'"),
    BadScenario(
        kind: "absurd speed", lines: header + ["  drive 5m at 1e308 m/s"],
        error: "bad.scenario:5:15: expected a speed from 0 to 400 m/s, found '1e308'"),
    BadScenario(
        kind: "non-finite speed", lines: header + ["  drive 5m at nan m/s"],
        error: "bad.scenario:5:15: expected a speed in m/s, found 'nan'"),
    BadScenario(
        kind: "absurd heading", lines: ["engine session", "horizon 1h", "route heading 1e300"],
        error: "bad.scenario:3:15: expected a heading in degrees from 0 to 360, found '1e300'"),
    BadScenario(
        kind: "absurd turn", lines: header + ["  park 5m heading 1e300"],
        error:
            "bad.scenario:5:19: expected a change of heading in degrees from -360 to +360 (+90, "
            + "-45), found '1e300'"),
    BadScenario(
        kind: "GPX speed over the maximum",
        lines: ["engine session", "horizon 1h", "route gpx \(gpxFixturePath) speed 401"],
        error:
            "bad.scenario:3:\(18 + gpxFixturePath.count): expected a speed above 0 and at most "
            + "400 m/s, found '401'"),
    BadScenario(
        kind: "a setting the engine ignores",
        lines: ["engine location-runtime stopOnTerminate=true"] + header.dropFirst(),
        error:
            "bad.scenario:1:25: expected no 'stopOnTerminate' for the engine 'location-runtime', "
            + "which ignores it (it restores whatever its saved record says; R-B11, R-B12)"),
    BadScenario(
        kind: "events without an event", lines: header + ["events", "seed 3"],
        error:
            "bad.scenario:6:1: expected an indented event under 'events' (line 5), found 'seed'"),
    BadScenario(
        kind: "events without an event at the end", lines: header + ["events"],
        error:
            "bad.scenario:5:7: expected an indented event under 'events' (line 5), found the end "
            + "of the file"),
    BadScenario(
        kind: "a line after end", lines: header + ["end", "# fine", "seed 3"],
        error: "bad.scenario:7:1: expected nothing after 'end' (line 5), found 'seed'"),
    BadScenario(
        kind: "a control character, escaped", lines: header + ["seed 1\u{1B}[2J"],
        error: "bad.scenario:5:7: expected printable text, found '\\u{1B}'"),
    BadScenario(
        kind: "an invisible character in a word, escaped", lines: header + ["seed 1\u{200B}"],
        error:
            "bad.scenario:5:6: expected a seed (a whole number from 0 to 18446744073709551615), "
            + "found '1\\u{200B}'"),
    BadScenario(
        kind: "unknown event", lines: header + ["events", "  5m forcequit"],
        error: "bad.scenario:6:6: expected an event (\(eventWords)), found 'forcequit'"),
    BadScenario(
        kind: "bad tracking switch", lines: header + ["events", "  5m tracking maybe"],
        error: "bad.scenario:6:15: expected on or off (on, off), found 'maybe'"),
    BadScenario(
        kind: "bad event argument", lines: header + ["events", "  5m authorization sometimes"],
        error:
            "bad.scenario:6:20: expected an authorization (not-determined, when-in-use, "
            + "always, denied), found 'sometimes'"),
    BadScenario(
        kind: "unknown engine", lines: ["engine turbo"] + header.dropFirst(),
        error:
            "bad.scenario:1:8: expected an engine (location-runtime, session, standard, or a "
            + "mutant that `lifeline engines` lists), found 'turbo'"),
    BadScenario(
        kind: "bad engine setting", lines: ["engine session startOnBoot=yes"] + header.dropFirst(),
        error: "bad.scenario:1:28: expected true or false, found 'yes'"),
    BadScenario(
        kind: "unknown policy preset", lines: header + ["policy iOS99"],
        error:
            "bad.scenario:5:8: expected a policy preset (measured, iOS16, iOS17, iOS18, iOS26), "
            + "found 'iOS99'"),
    BadScenario(
        kind: "unknown policy key", lines: header + ["policy measured graceWhenInUse=5s"],
        error:
            "bad.scenario:5:17: unknown key 'graceWhenInUse'; a policy file sets 'preset' or a "
            + "property of IOSPolicy (leavingTransition, suspensionDelay, "
            + "backgroundTaskBudget, …)"),
    BadScenario(
        kind: "bad policy value", lines: header + ["policy measured whenInUseGrace=soon"],
        error:
            "bad.scenario:5:32: 'whenInUseGrace' expects a duration such as \"5s\" or "
            + "\"1m30s\" (not negative), got \"soon\""),
    BadScenario(
        kind: "impossible policy value", lines: header + ["policy iOS18 fixInterval=0s"],
        error: "bad.scenario:5:26: 'fixInterval' must be longer than 0s"),
    BadScenario(
        kind: "events out of order", lines: header + ["events", "  5m leave", "  1m open"],
        error:
            "bad.scenario:7:3: expected an event at or after 5m (events are written in time "
            + "order), found '1m'"),
    BadScenario(
        kind: "duplicate directive", lines: header + ["seed 1", "seed 2"],
        error:
            "bad.scenario:6:1: expected each directive once, found a second 'seed' (the first "
            + "is on line 5)"),
    BadScenario(
        kind: "event after the horizon", lines: header + ["events", "  0s open", "  11m leave"],
        error: "bad.scenario:7:3: expected an event at or before the horizon (10m), found '11m'"),
    BadScenario(
        kind: "negative speed", lines: header + ["  drive 5m at -3 m/s"],
        error: "bad.scenario:5:15: expected a speed from 0 to 400 m/s, found '-3'"),
    BadScenario(
        kind: "missing unit", lines: header + ["  drive 5m at 3 km/h"],
        error: "bad.scenario:5:17: expected 'm/s', found 'km/h'"),
    BadScenario(
        kind: "missing route", lines: ["engine session", "horizon 10m", "seed 3", ""],
        error: "bad.scenario:4:1: expected the 'route' directive, found the end of the file"),
    BadScenario(
        kind: "indented line outside a section", lines: ["engine session", "  horizon 10m"],
        error:
            "bad.scenario:2:3: expected a directive at the start of the line, found 'horizon' "
            + "indented (segments follow 'route', events follow 'events')"),
    BadScenario(
        kind: "extra word", lines: header + ["accuracy full please"],
        error: "bad.scenario:5:15: expected the end of the line, found 'please'"),
    BadScenario(
        kind: "bad coordinate", lines: ["engine session", "horizon 1h", "route from 95,0"],
        error:
            "bad.scenario:3:12: expected a coordinate LATITUDE,LONGITUDE (latitude -90 to 90, "
            + "longitude -180 to 180), found '95,0'"),
    BadScenario(
        kind: "bad ordering", lines: header + ["ordering pct:7:99"],
        error:
            "bad.scenario:5:10: expected an ordering (fifo, random:SEED or pct:SEED:DEPTH, "
            + "depth 1 to 64), found 'pct:7:99'"),
    BadScenario(
        kind: "unknown capability", lines: header + ["capabilities location"],
        error:
            "bad.scenario:5:14: expected a capability (location-background, scene-based), "
            + "found 'location'"),
    BadScenario(
        kind: "a GPX route with segments",
        lines: ["engine session", "horizon 1h", "route gpx \(gpxFixturePath)", "  park 5m"],
        error:
            "bad.scenario:4:3: expected a directive, found 'park': a GPX route has no segments"),
    BadScenario(
        kind: "missing GPX file",
        lines: ["engine session", "horizon 1h", "route gpx /no/such/commute.gpx speed 13.9"],
        error: "bad.scenario:3:11: cannot read the GPX file '/no/such/commute.gpx'"),
    BadScenario(
        kind: "zero GPX speed",
        lines: ["engine session", "horizon 1h", "route gpx \(gpxFixturePath) speed 0"],
        error:
            "bad.scenario:3:\(18 + gpxFixturePath.count): expected a speed above 0 and at most "
            + "400 m/s, found '0'"),
]

@Suite("Scenario parse errors")
struct ScenarioParseErrorTests {
    @Test(
        "each kind of bad input is an error at its file, line and column", arguments: badScenarios)
    func badInput(_ bad: BadScenario) throws {
        _ = gpxFixturePath
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(parsing: bad.lines.joined(separator: "\n"), path: "bad.scenario")
        }
        #expect(error?.description == bad.error)
    }

    @Test("a GPX file that is not a route: the scenario's line and the GPX reader's error")
    func badGPX() throws {
        let path = try writeTemporary("bad.gpx", "<gpx><wpt lat=\"95\" lon=\"0\"/></gpx>")
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(
                parsing: "engine session\nhorizon 1h\nroute gpx \(path)\n", path: "bad.scenario")
        }
        #expect(error?.line == 3)
        #expect(error?.column == 11)
        #expect(error?.message.hasPrefix("the GPX file is not a route: \(path):1: ") == true)
    }

    @Test("a scenario file that cannot be read names its path")
    func unreadableFile() {
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(contentsOfFile: "/no/such/force-quit.scenario")
        }
        #expect(
            error?.description
                == "/no/such/force-quit.scenario: cannot read the scenario file: no such file")
    }

    @Test("a file must close with 'end': without it, it may have been cut short")
    func fileNeedsEnd() throws {
        let text = (header + ["events", "  0s open"]).joined(separator: "\n") + "\n"
        let path = try writeTemporary("open.scenario", text)
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(contentsOfFile: path)
        }
        #expect(
            error?.description
                == "\(path):7:1: expected 'end' as the last line, found the end of the file (was "
                + "the file cut short?)")
        let closed = try writeTemporary("closed.scenario", text + "end\n# after it, comments\n")
        #expect(try Scenario(contentsOfFile: closed) == Scenario(parsing: text, path: "x"))
    }

    @Test("bytes that are not UTF-8 are an error naming the byte, escaped, at its column")
    func notUTF8() throws {
        var bytes = Array((header.joined(separator: "\n") + "\nseed 12").utf8)
        bytes += [0xFF, 0x00, 0x1B] + Array("\nend\n".utf8)
        let path = (FileManager.default.temporaryDirectory.path as NSString)
            .appendingPathComponent("binary-\(ProcessInfo.processInfo.processIdentifier).scenario")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(contentsOfFile: path)
        }
        #expect(
            error?.description
                == "\(path):5:8: expected UTF-8 text, found the byte \\xFF (is this a scenario "
                + "file?)")
    }

    @Test(
        "a huge file is read as a stream: an early error is reported before the rest is read, and a line longer than the bound is an error at once"
    )
    func stream() throws {
        // 40 MB after an error on line 4: reading stops there (the test would take seconds
        // and hundreds of MB if the file were read whole first, as before issue 25).
        let filler = String(repeating: "  park 1m\n", count: 4_000_000)
        let path = try writeTemporary(
            "huge.scenario", "engine session\nhorizon 1h\nroute\n  drive 5m at 3 km/h\n" + filler)
        // 40 MB left in the temporary folder after every run otherwise.
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ScenarioParseError.self) {
            try Scenario(contentsOfFile: path)
        }
        #expect(error?.line == 4)
        let long = try writeTemporary(
            "long.scenario",
            "engine session\n# " + String(repeating: "x", count: Scenario.lineBytesMax) + "\n")
        defer { try? FileManager.default.removeItem(atPath: long) }
        let longError = #expect(throws: ScenarioParseError.self) {
            try Scenario(contentsOfFile: long)
        }
        #expect(
            longError?.description
                == "\(long):2:1: expected a line of at most 65536 bytes, found a longer one (is "
                + "this a scenario file?)")
    }

    @Test("a byte-order mark, CRLF and CR line endings: the same scenario and the same lines")
    func lineEndings() throws {
        let text = (header + ["events", "  0s open", "  1m leave", "end"]).joined(separator: "\n")
        let plain = try Scenario(parsing: text, path: "x", requiresEnd: true)
        for variant in [
            "\u{FEFF}" + text, text.replacingOccurrences(of: "\n", with: "\r\n"),
            text.replacingOccurrences(of: "\n", with: "\r"),
            "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r"),
        ] {
            #expect(try Scenario(parsing: variant, path: "x", requiresEnd: true) == plain)
            let bad = variant.replacingOccurrences(of: "1m leave", with: "1m leaves")
            let error = #expect(throws: ScenarioParseError.self) {
                try Scenario(parsing: bad, path: "x")
            }
            #expect(error?.line == 7)
            #expect(error?.column == 6)
        }
    }
}
