// Reading a `.scenario` file (layer 5): the directives, each once, then the route's segments
// and the events in their sections; every problem an error at its line and column.
import Engines
import Simulation
import World

extension Scenario {
    /// Reads scenario text; `path` names it in errors. The grammar, one item per line, `#`
    /// starting a comment:
    ///
    ///     engine NAME [stopOnTerminate=BOOL] [startOnBoot=BOOL]     required
    ///     policy PRESET [KEY=VALUE …]                  IOSPolicy keys, values as policy files
    ///     authorization not-determined|when-in-use|always|denied
    ///     accuracy full|reduced
    ///     capabilities none | location-background [scene-based]
    ///             [modes=MODE,…|none] [tasks=ID,…|none]  the Info.plist's lists (R-H11)
    ///     answers [whenInUse=when-in-use|denied] [always=always|when-in-use]
    ///             [responseDelay=DURATION] [temporaryFullAccuracy=BOOL]
    ///     ordering fifo | random:SEED | pct:SEED:DEPTH
    ///     seed UINT64
    ///     server deduplicates-by-key|stores-every-request    default: the engine's profile
    ///     horizon DURATION                                           required
    ///     route [from LAT,LON] [heading DEGREES]                     required (or gpx)
    ///       drive|walk DURATION at SPEED m/s [heading ±DEGREES]      indented segments
    ///       park DURATION [heading ±DEGREES]
    ///     route gpx PATH [speed SPEED]
    ///     beacons                              beacons on the route (R-L45), in any order
    ///       UUID MAJOR MINOR at DURATION     indented: where the device is DURATION in
    ///     events                                          followed by at least one event
    ///       DURATION EVENT                                           indented, in time order
    ///     end                                      last; required in files (see below)
    ///
    /// Directives come in any order, each at most once; a directive left out takes the
    /// default of `Scenario()`. Events are written in time order (an earlier time after a
    /// later one is an error, so the file reads as the story it tells) and at or before the
    /// horizon. A GPX file is read now, relative to the current directory.
    ///
    /// `end` closes the scenario: after it come only blank lines and comments. A file on disk
    /// must have it (`requiresEnd`, as `init(contentsOfFile:)` reads), so that a file cut short
    /// at any byte is an error rather than a shorter scenario; the printer always writes it.
    /// A leading byte-order mark is dropped and LF, CRLF and CR all end a line.
    /// - Parameter engines: engines besides the built-in ones that `engine NAME` may name.
    /// - Throws: `ScenarioParseError` naming the line, the column, what was expected and found.
    public init(
        parsing text: String, path: String, engines: [CustomEngine] = [],
        requiresEnd: Bool = false
    ) throws(ScenarioParseError) {
        var parser = ScenarioParser(path: path, customEngines: engines)
        var splitter = ScenarioLineSplitter(path: path)
        try splitter.add(text.utf8) { line throws(ScenarioParseError) in try parser.read(line) }
        let end = try splitter.finish { line throws(ScenarioParseError) in try parser.read(line) }
        self = try parser.finish(end: end, requiresEnd: requiresEnd)
    }
}

/// The state of one reading: the scenario so far, the directives seen and the open section.
struct ScenarioParser {
    /// The directives, by their first word.
    enum Directive: String, CaseIterable {
        case engine, policy, authorization, accuracy, capabilities, answers, ordering, seed
        case server, horizon, route, events, end
        case beacons
        /// The directives a file must give.
        static let required: [Directive] = [.engine, .horizon, .route]
    }

    /// Which indented lines the last directive opened.
    enum Section { case none, segments, gpx, events, beacons }

    let path: String
    /// The engines besides the built-in ones that the file may name.
    let customEngines: [CustomEngine]
    var scenario = Scenario()
    /// The line of each directive seen so far.
    var directiveLines: [Directive: Int] = [:]
    var section = Section.none
    var segments: [Route.Segment] = []
    var routeDuration = VirtualDuration.zero
    var events: [TimedEvent] = []
    /// Where each event's time is written, for the horizon check at the end.
    var eventTimeTokens: [(line: Int, token: ScenarioToken)] = []
    /// The line of `end`, once read: nothing but comments may follow it.
    var endLine: Int?

    init(path: String, customEngines: [CustomEngine]) {
        self.path = path
        self.customEngines = customEngines
    }

    /// Reads one line that holds words: a directive, or an item of the open section.
    mutating func read(_ line: ScenarioLine) throws(ScenarioParseError) {
        if let endLine {
            throw ScenarioParseError(
                path: path, line: line.number, column: line.tokens[0].column,
                message: "expected nothing after 'end' (line \(endLine)), found "
                    + "'\(ScenarioLexer.escaped(line.tokens[0].text))'")
        }
        if line.isIndented { try readItem(line) } else { try readDirective(line) }
    }

    /// Reads one directive line.
    mutating func readDirective(_ line: ScenarioLine) throws(ScenarioParseError) {
        var reader = ScenarioTokenReader(line, path: path)
        let word = line.tokens[0]
        let names = Directive.allCases.map(\.rawValue).joined(separator: ", ")
        guard let directive = Directive(rawValue: word.text) else {
            throw reader.fail(word, expected: "a directive (\(names))")
        }
        if let first = directiveLines[directive] {
            throw reader.fail(
                word,
                "expected each directive once, found a second '\(word.text)' "
                    + "(the first is on line \(first))")
        }
        if section == .events, events.isEmpty, let eventsLine = directiveLines[.events] {
            throw reader.fail(
                word,
                "expected an indented event under 'events' (line \(eventsLine)), found "
                    + "'\(word.text)'")
        }
        directiveLines[directive] = line.number
        section = .none
        switch directive {
        case .engine: try readEngine(&reader)
        case .policy: try readPolicy(&reader)
        case .authorization:
            scenario.authorization = try reader.choice(
                reader.next("an authorization"), "an authorization",
                Authorization.allCases.map { ($0.rawValue, $0) })
        case .accuracy:
            scenario.accuracy = try reader.choice(
                reader.next("an accuracy"), "an accuracy",
                [("full", AccuracyAuthorization.full), ("reduced", .reduced)])
        case .capabilities: try readCapabilities(&reader)
        case .answers: try readAnswers(&reader)
        case .ordering:
            let token = try reader.next("an ordering")
            guard let ordering = try? OrderingSpecification(parsing: token.text) else {
                throw reader.fail(
                    token,
                    expected: "an ordering (fifo, random:SEED or pct:SEED:DEPTH, depth 1 to 64)")
            }
            scenario.ordering = ordering
        case .seed:
            let token = try reader.next("a seed")
            guard let seed = UInt64(token.text) else {
                throw reader.fail(
                    token, expected: "a seed (a whole number from 0 to \(UInt64.max))")
            }
            scenario.seed = seed
        case .server:
            scenario.serverDeduplication = try reader.choice(
                reader.next("the server's deduplication"), "the server's deduplication",
                ServerDeduplication.allCases.map { ($0.rawValue, $0) })
        case .horizon:
            let token = try reader.next("the horizon")
            scenario.horizon = try reader.duration(
                token, atMost: Scenario.horizonMax,
                tooLong: "a horizon of at most \(Scenario.horizonMax) (Scenario.horizonMax: "
                    + "a longer run is not what one file may ask for)")
        case .route: try readRoute(&reader)
        case .events: section = .events
        case .end: endLine = line.number
        case .beacons: section = .beacons
        }
        try reader.expectEnd()
    }

    /// The scenario, once every line is read: the required directives given and every event
    /// at or before the horizon.
    mutating func finish(end: (line: Int, column: Int), requiresEnd: Bool)
        throws(ScenarioParseError) -> Scenario
    {
        if requiresEnd, endLine == nil {
            throw ScenarioParseError(
                path: path, line: end.line, column: end.column,
                message: "expected 'end' as the last line, found the end of the file (was the "
                    + "file cut short?)")
        }
        if section == .events, events.isEmpty, let eventsLine = directiveLines[.events] {
            throw ScenarioParseError(
                path: path, line: end.line, column: end.column,
                message: "expected an indented event under 'events' (line \(eventsLine)), found "
                    + "the end of the file")
        }
        for directive in Directive.required where directiveLines[directive] == nil {
            throw ScenarioParseError(
                path: path, line: end.line, column: end.column,
                message: "expected the '\(directive.rawValue)' directive, found the end of the file"
            )
        }
        if let late = zip(events, eventTimeTokens).first(where: { $0.0.at > scenario.horizon }) {
            throw ScenarioParseError(
                path: path, line: late.1.line, column: late.1.token.column,
                message:
                    "expected an event at or before the horizon (\(scenario.horizon)), "
                    + "found '\(late.1.token.text)'")
        }
        if case .segments(let start, let heading, _) = scenario.route {
            scenario.route = .segments(start: start, headingDegrees: heading, segments)
        }
        scenario.events = events
        return scenario
    }
}
