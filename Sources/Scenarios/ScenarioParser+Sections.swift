// Reading the indented lines of a scenario file (layer 5): the route's segments under `route`
// and the timed events under `events`.
import Simulation
import World

extension ScenarioParser {
    /// Reads one indented line, in the section the last directive opened.
    mutating func readItem(_ line: ScenarioLine) throws(ScenarioParseError) {
        var reader = ScenarioTokenReader(line, path: path)
        let first = line.tokens[0]
        switch section {
        case .none:
            throw reader.fail(
                first,
                "expected a directive at the start of the line, found '\(first.text)' indented "
                    + "(segments follow 'route', events follow 'events')")
        case .gpx:
            throw reader.fail(
                first, "expected a directive, found '\(first.text)': a GPX route has no segments")
        case .segments: try readSegment(first, &reader)
        case .events: try readEvent(first, &reader, line: line.number)
        }
        try reader.expectEnd()
    }

    /// `drive|walk DURATION at SPEED m/s [heading ±DEGREES]` or `park DURATION [heading …]`.
    private mutating func readSegment(_ first: ScenarioToken, _ reader: inout ScenarioTokenReader)
        throws(ScenarioParseError)
    {
        let kinds: [Route.Segment.Kind] = [.drive, .walk, .park]
        let kind = try reader.choice(first, "a segment", kinds.map { ($0.rawValue, $0) })
        let durationToken = try reader.next(ScenarioTokenReader.durationForms)
        let duration = try reader.duration(durationToken)
        var speed = 0.0
        if kind != .park {
            let at = try reader.next("'at SPEED m/s'")
            guard at.text == "at" else { throw reader.fail(at, expected: "'at SPEED m/s'") }
            let speedToken = try reader.next("a speed in m/s")
            speed = try reader.number(speedToken, "a speed in m/s")
            guard (0...Route.maximumSpeedMetersPerSecond).contains(speed) else {
                throw reader.fail(
                    speedToken, expected: "a speed from 0 to \(Self.speedMaxText) m/s")
            }
            let unit = try reader.next("'m/s'")
            guard unit.text == "m/s" else { throw reader.fail(unit, expected: "'m/s'") }
        }
        var turn = 0.0
        if reader.skip("heading") {
            let what = "a change of heading in degrees from -360 to +360 (+90, -45)"
            let token = try reader.next(what)
            turn = try reader.number(token, what)
            guard Self.headingChangeRange.contains(turn) else {
                throw reader.fail(token, expected: what)
            }
        }
        try reader.expectEnd("'heading ±DEGREES' or the end of the line")
        routeDuration = routeDuration + duration
        guard routeDuration <= Scenario.durationMax else {
            throw reader.fail(
                durationToken,
                "expected a route of at most \(Scenario.durationMax) in all, found "
                    + "\(routeDuration) with this segment")
        }
        segments.append(
            Route.Segment(kind, duration, speedMetersPerSecond: speed, headingChangeDegrees: turn))
    }

    /// The turn a segment may make, in degrees: a whole turn either way at most.
    static let headingChangeRange = -360.0...360.0

    /// `Route.maximumSpeedMetersPerSecond` as a message writes it.
    static var speedMaxText: String { Scenario.number(Route.maximumSpeedMetersPerSecond) }

    /// `DURATION EVENT`, at or after the event before it.
    private mutating func readEvent(
        _ first: ScenarioToken, _ reader: inout ScenarioTokenReader, line: Int
    ) throws(ScenarioParseError) {
        let at = try reader.duration(
            first, "the event's time (a duration from the start such as 90s or 5m)")
        if let previous = events.last, at < previous.at {
            throw reader.fail(
                first,
                "expected an event at or after \(previous.at) (events are written in time "
                    + "order), found '\(first.text)'")
        }
        let event = try readEventWords(&reader)
        events.append(ScenarioEvent.Timed(at: at, event))
        eventTimeTokens.append((line, first))
    }

    /// The words of an event after its time.
    private func readEventWords(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError)
        -> ScenarioEvent
    {
        let what = "an event (\(ScenarioEvent.words.joined(separator: ", ")))"
        let word = try reader.next(what)
        if let plain = ScenarioEvent.plainEvents.first(where: { $0.word == word.text }) {
            return plain.event
        }
        let onOff = [("on", true), ("off", false)]
        switch word.text {
        case "authorization":
            return .authorization(
                try reader.choice(
                    reader.next("an authorization"), "an authorization",
                    Authorization.allCases.map { ($0.rawValue, $0) }))
        case "precise-location":
            return .preciseLocation(try reader.choice(reader.next("on or off"), "on or off", onOff))
        case "low-power":
            return .lowPowerMode(try reader.choice(reader.next("on or off"), "on or off", onOff))
        case "live-activity":
            return try reader.choice(
                reader.next("start or end"), "start or end",
                [("start", ScenarioEvent.liveActivityStart), ("end", .liveActivityEnd)])
        case "network":
            let state = try reader.choice(
                reader.next("down, up or slow"), "down, up or slow",
                [("down", ScenarioEvent.networkDown), ("up", .networkUp), ("slow", nil)])
            guard let state else {
                let what = "the extra latency (\(ScenarioTokenReader.durationForms))"
                return .networkSlow(try reader.duration(reader.next(what), what))
            }
            return state
        case "clock":
            let what = "a clock adjustment such as +5m or -90s"
            return .clockAdjusted(try reader.signedDuration(reader.next(what), what))
        default:
            throw reader.fail(word, expected: what)
        }
    }
}
