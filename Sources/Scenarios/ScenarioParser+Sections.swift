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
        case .beacons: try readBeacon(first, &reader)
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

    /// `UUID MAJOR MINOR at DURATION`: a beacon at the device's position then (R-L45).
    private mutating func readBeacon(_ first: ScenarioToken, _ reader: inout ScenarioTokenReader)
        throws(ScenarioParseError)
    {
        guard ScenarioBeacon.isUUID(first.text) else {
            throw reader.fail(first, expected: "a beacon's UUID (8-4-4-4-12 hexadecimal digits)")
        }
        var values: [UInt16] = []
        for what in ["a major from 0 to 65535", "a minor from 0 to 65535"] {
            let token = try reader.next(what)
            guard let value = UInt16(token.text) else { throw reader.fail(token, expected: what) }
            values.append(value)
        }
        let at = try reader.next("'at DURATION'")
        guard at.text == "at" else { throw reader.fail(at, expected: "'at DURATION'") }
        let duration = try reader.duration(try reader.next(ScenarioTokenReader.durationForms))
        scenario.beacons.append(
            ScenarioBeacon(uuid: first.text, major: values[0], minor: values[1], at: duration))
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
        events.append(TimedEvent(at: at, event))
        eventTimeTokens.append((line, first))
    }

    /// The words of an event after its time, read against the world's words for its actions
    /// (`UserAction.readable`): word by word among the actions whose words so far match, then
    /// a duration for a kind that takes one. No case has code of its own here.
    private func readEventWords(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError)
        -> UserAction
    {
        var candidates = Self.vocabulary
        var position = 0
        while true {
            if let done = candidates.first(where: { $0.words.count == position }) {
                guard case .duration(_, let signed, let name, let action) = done.spelling.value
                else { return done.action }
                if signed {
                    let what = "\(name) such as +5m or -90s"
                    return action(try reader.signedDuration(reader.next(what), what))
                }
                let what = "\(name) (\(ScenarioTokenReader.durationForms))"
                return action(try reader.duration(reader.next(what), what))
            }
            let options = Self.distinct(candidates.map { $0.words[position] })
            let word: String
            if position == 0 {
                let what = "an event (\(options.joined(separator: ", ")))"
                let aliases = candidates.flatMap { candidate in
                    candidate.spelling.aliases.map { (name: $0, value: candidate.words[0]) }
                }
                word = try reader.choice(
                    reader.next(what), what, options.map { (name: $0, value: $0) } + aliases,
                    listed: false)
            } else {
                // A value's name (`an authorization`) says what is expected better than its words.
                let named = candidates.lazy.compactMap { candidate -> String? in
                    guard position == candidate.spelling.words.count,
                        case .word(_, let name?) = candidate.spelling.value
                    else { return nil }
                    return name
                }.first
                let what = named ?? Self.alternatives(options)
                word = try reader.choice(
                    reader.next(what), what, options.map { (name: $0, value: $0) })
            }
            candidates = candidates.filter { $0.words[position] == word }
            position += 1
        }
    }

    /// Every action a file can write with its spelling and its words, a word value included
    /// (`precise-location`, `on`), worked out once rather than for every event line.
    private static let vocabulary = UserAction.readable.map { action in
        let spelling = action.spelling
        var words = spelling.words
        if case .word(let word, _) = spelling.value { words.append(word) }
        return (action: action, spelling: spelling, words: words)
    }

    /// `words` without repeats, in their order.
    private static func distinct(_ words: [String]) -> [String] {
        var seen: [String] = []
        for word in words where !seen.contains(word) { seen.append(word) }
        return seen
    }

    /// `on or off`, `down, up or slow`.
    private static func alternatives(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
