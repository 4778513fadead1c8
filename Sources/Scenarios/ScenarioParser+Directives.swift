// Reading the directives of a scenario file that take more than one word (layer 5): the
// engine and its settings, the policy and its overrides, capabilities, answers and the route.
import EngineMutants
import Engines
import Formats
import Simulation
import World

extension ScenarioParser {
    /// `engine NAME [KEY=BOOL …]`.
    mutating func readEngine(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError) {
        let token = try reader.next("an engine")
        let custom = customEngines.map(\.name)
        let name = try reader.choice(
            token,
            "an engine (\((BuiltInEngine.names + custom).joined(separator: ", ")), "
                + "or a mutant that `lifeline engines` lists)",
            (EngineChoice.all + customEngines.map(EngineChoice.custom)).map { ($0.name, $0) },
            listed: false)
        var engine = ScenarioEngine(name)
        let fields = ScenarioEngine.Settings.fields
        let keys = fields.map(\.key).joined(separator: ", ")
        for (key, value) in try reader.keyValues("an engine setting KEY=VALUE (\(keys))") {
            let keyPath = try reader.choice(
                key, "an engine setting", fields.map { ($0.key, $0.keyPath) })
            guard name.honoursLaunchRules else {
                throw reader.fail(
                    key,
                    "expected no '\(key.text)' for the engine '\(name.name)', which ignores it "
                        + "(it restores whatever its saved record says; R-B11, R-B12)")
            }
            engine.settings[keyPath: keyPath] = try reader.flag(value)
        }
        scenario.engine = engine
    }

    /// `policy PRESET [KEY=VALUE …]`, checked by the policy file's reader.
    mutating func readPolicy(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError) {
        let presetToken = try reader.next("a policy preset")
        guard let preset = IOSPolicy.preset(named: presetToken.text) else {
            throw reader.fail(
                presetToken,
                expected: "a policy preset (\(IOSPolicy.presetNames.joined(separator: ", ")))")
        }
        let pairs = try reader.keyValues("a policy override KEY=VALUE")
        let overrides = pairs.map { ScenarioPolicy.Override($0.key.text, $0.value.text) }
        do {
            _ = try preset.applying(
                overrides: overrides.map { ($0.key, $0.value) }, path: path, line: 0)
        } catch let error as PolicyFileError {
            // An unknown key is at the key's column, a bad value at the value's.
            let pair = pairs.first { $0.key.text == error.key }
            let token =
                pair.map { IOSPolicy.overrideKeys.contains($0.key.text) ? $0.value : $0.key }
                ?? presetToken
            throw reader.fail(token, error.message)
        } catch {
            throw reader.fail(presetToken, "\(error)")
        }
        scenario.policy = ScenarioPolicy(preset: presetToken.text, overrides: overrides)
    }

    /// `capabilities none` or the capabilities' words.
    mutating func readCapabilities(_ reader: inout ScenarioTokenReader)
        throws(ScenarioParseError)
    {
        let fields = Scenario.capabilityFields
        let what = "a capability (\(fields.map(\.word).joined(separator: ", "))) or 'none'"
        var capabilities = AppCapabilities(locationBackgroundMode: false, sceneBased: false)
        let declaresNone = reader.skip(Scenario.noCapabilities)
        var words: [String] = []
        while declaresNone ? reader.peek != nil : (words.isEmpty || reader.peek != nil) {
            let token = try reader.next(what)
            if let list = try readInfoPlistList(token, reader) {
                if token.text.hasPrefix(Scenario.modesKey + "=") {
                    capabilities.backgroundModes = list
                } else {
                    capabilities.permittedTaskIdentifiers = list
                }
                words.append(token.text)
                continue
            }
            if declaresNone {
                throw reader.fail(token, expected: "'modes=…' or 'tasks=…' after 'none'")
            }
            let keyPath = try reader.choice(
                token, "a capability", fields.map { ($0.word, $0.keyPath) })
            if words.contains(token.text) {
                throw reader.fail(
                    token, "expected each capability once, found a second '\(token.text)'")
            }
            words.append(token.text)
            capabilities[keyPath: keyPath] = true
        }
        scenario.capabilities = capabilities
    }

    /// `modes=A,B` (background modes from `AppProfile.knownBackgroundModes`) or `tasks=A,B`
    /// (task identifiers) of a capabilities line, `none` for an empty list; nil for another
    /// word.
    private func readInfoPlistList(
        _ token: ScenarioToken, _ reader: ScenarioTokenReader
    ) throws(ScenarioParseError) -> [String]? {
        let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, [Scenario.modesKey, Scenario.tasksKey].contains(String(parts[0]))
        else { return nil }
        let value = String(parts[1])
        guard !value.isEmpty else {
            throw reader.fail(
                token, expected: "a comma-separated list after '\(parts[0])=', or 'none'")
        }
        if value == Scenario.noCapabilities { return [] }
        let list = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for item in list where item.isEmpty {
            throw reader.fail(token, expected: "a comma-separated list without empty items")
        }
        if parts[0] == Scenario.modesKey {
            for mode in list where !AppProfile.knownBackgroundModes.contains(mode) {
                let known = AppProfile.knownBackgroundModes.joined(separator: ", ")
                throw reader.fail(token, "expected background modes (\(known)), found '\(mode)'")
            }
        }
        return list
    }

    /// `answers [whenInUse=…] [always=…] [responseDelay=…] [temporaryFullAccuracy=…]`.
    mutating func readAnswers(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError) {
        var answers = AuthorizationAnswers()
        let keys = ["whenInUse", "always", "responseDelay", "temporaryFullAccuracy"]
        for (key, value) in try reader.keyValues(
            "an answer KEY=VALUE (\(keys.joined(separator: ", ")))")
        {
            switch key.text {
            case "whenInUse":
                answers.whenInUse = try reader.choice(
                    value, "an answer to the When In Use prompt",
                    [
                        (Authorization.whenInUse.rawValue, .whenInUse),
                        (Authorization.denied.rawValue, .denied),
                    ])
            case "always":
                answers.always = try reader.choice(
                    value, "an answer to the Always prompt",
                    [
                        (Authorization.always.rawValue, .always),
                        (Authorization.whenInUse.rawValue, .whenInUse),
                    ])
            case "responseDelay": answers.responseDelay = try reader.duration(value)
            case "temporaryFullAccuracy": answers.temporaryFullAccuracy = try reader.flag(value)
            default:
                throw reader.fail(key, expected: "an answer (\(keys.joined(separator: ", ")))")
            }
        }
        scenario.answers = answers
    }

    /// `route [from LAT,LON] [heading DEGREES]`, opening the segments; or `route gpx PATH
    /// [speed SPEED]`, read now so that a missing or bad file is an error here.
    mutating func readRoute(_ reader: inout ScenarioTokenReader) throws(ScenarioParseError) {
        if reader.skip("gpx") {
            try readGPXRoute(&reader)
            return
        }
        var start = Scenario.defaultStart
        var heading = Scenario.defaultHeadingDegrees
        if reader.skip("from") { start = try coordinate(reader.next(Self.coordinateForm), reader) }
        if reader.skip("heading") {
            let what = "a heading in degrees from 0 to 360"
            let token = try reader.next(what)
            heading = try reader.number(token, what)
            guard Self.headingRange.contains(heading) else {
                throw reader.fail(token, expected: what)
            }
        }
        try reader.expectEnd("'from LAT,LON', 'heading DEGREES', 'gpx PATH' or the end of the line")
        scenario.route = .segments(start: start, headingDegrees: heading, [])
        section = .segments
    }

    /// What a coordinate looks like, for messages.
    static let coordinateForm =
        "a coordinate LATITUDE,LONGITUDE (latitude -90 to 90, longitude -180 to 180)"
    static let latitudeRange = -90.0...90.0
    /// A route's starting heading, in degrees clockwise from north.
    static let headingRange = 0.0...360.0
    static let longitudeRange = -180.0...180.0

    private func coordinate(_ token: ScenarioToken, _ reader: ScenarioTokenReader)
        throws(ScenarioParseError) -> Coordinate
    {
        let parts = token.text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            Self.latitudeRange.contains(latitude), Self.longitudeRange.contains(longitude)
        else { throw reader.fail(token, expected: Self.coordinateForm) }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The speed of untimed GPX points when none is given (Xcode's rule, as `Route`).
    static let gpxSpeedDefaultMetersPerSecond = 20.0

    private mutating func readGPXRoute(_ reader: inout ScenarioTokenReader)
        throws(ScenarioParseError)
    {
        let pathToken = try reader.next("the path of a GPX file")
        var speed = Self.gpxSpeedDefaultMetersPerSecond
        if reader.skip("speed") {
            let token = try reader.next("a speed in m/s")
            speed = try reader.number(token, "a speed in m/s")
            guard speed > 0, speed <= Route.maximumSpeedMetersPerSecond else {
                throw reader.fail(
                    token, expected: "a speed above 0 and at most \(Self.speedMaxText) m/s")
            }
        }
        try reader.expectEnd("'speed SPEED' or the end of the line")
        do {
            _ = try Route(gpxFile: pathToken.text, speedMetersPerSecond: speed)
        } catch let error as GPXError where error.line == 0 {
            throw reader.fail(pathToken, "cannot read the GPX file '\(pathToken.text)'")
        } catch {
            throw reader.fail(pathToken, "the GPX file is not a route: \(error)")
        }
        scenario.route = .gpx(path: pathToken.text, speedMetersPerSecond: speed)
        section = .gpx
    }
}
