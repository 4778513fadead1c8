// Printing a scenario as a `.scenario` file (layer 5): the canonical text, which the parser
// reads back to the same scenario.
import Simulation
import World

extension Scenario: CustomStringConvertible {
    /// The scenario as a `.scenario` file, in canonical form: every directive in a fixed
    /// order, each printed even at its default (`server` only when given), then the route's segments and the events, one
    /// per indented line, and `end`. Engine settings print only where they differ from the
    /// defaults (and the engine honours them), the `events` section only when there are
    /// events. Durations print as the kernel prints them (`1h30m`), numbers in their shortest
    /// exact form (`13.9`, `90`). Reading the text back gives this scenario
    /// (`Scenario(parsing:path:)`), so the text of a parsed file is a fixed point.
    public var description: String {
        var lines = [
            (["engine", engine.name.name] + engineSettingsWords).joined(separator: " "),
            (["policy", policy.preset] + policy.overrides.map(\.description))
                .joined(separator: " "),
            "authorization \(authorization.rawValue)",
            "accuracy \(accuracy.rawValue)",
            "capabilities \(capabilitiesWords.joined(separator: " "))",
            "answers whenInUse=\(answers.whenInUse.rawValue) always=\(answers.always.rawValue) "
                + "responseDelay=\(answers.responseDelay) "
                + "temporaryFullAccuracy=\(answers.temporaryFullAccuracy)",
            "ordering \(ordering)",
            "seed \(seed)",
        ]
        // Printed only when given, so that every file written before it reads the same.
        if let serverDeduplication { lines.append("server \(serverDeduplication.rawValue)") }
        lines.append("horizon \(horizon)")
        switch route {
        case .segments(let start, let heading, let segments):
            lines.append(
                "route from \(Self.number(start.latitude)),\(Self.number(start.longitude)) "
                    + "heading \(Self.number(heading))")
            lines += segments.map { Self.indentation + Self.segmentText($0) }
        case .gpx(let path, let speed):
            lines.append("route gpx \(path) speed \(Self.number(speed))")
        }
        // Printed only when given, so that every file written before it reads the same.
        if !beacons.isEmpty {
            lines.append("beacons")
            lines += beacons.map { Self.indentation + $0.description }
        }
        if !events.isEmpty {
            lines.append("events")
            lines += events.map { Self.indentation + $0.description }
        }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// How section lines (segments, events) are indented.
    static let indentation = "  "

    /// The engine's settings that differ from their defaults, as `key=value` words.
    private var engineSettingsWords: [String] {
        // An engine that ignores them may not be given them (the parser refuses it).
        guard engine.name.honoursLaunchRules else { return [] }
        let defaults = ScenarioEngine.Settings()
        return ScenarioEngine.Settings.fields
            .filter { engine.settings[keyPath: $0.keyPath] != defaults[keyPath: $0.keyPath] }
            .map { "\($0.key)=\(engine.settings[keyPath: $0.keyPath])" }
    }

    /// The declared capabilities' words, or `none`; then the Info.plist's background modes
    /// and permitted task identifiers when the scenario declares them (R-H11:
    /// `modes=fetch,location`, `tasks=com.example.refresh`; `none` for an empty list).
    private var capabilitiesWords: [String] {
        var words = Self.capabilityFields.filter { capabilities[keyPath: $0.keyPath] }.map(\.word)
        if words.isEmpty { words = [Self.noCapabilities] }
        for (key, list) in [
            (Self.modesKey, capabilities.backgroundModes),
            (Self.tasksKey, capabilities.permittedTaskIdentifiers),
        ] {
            guard let list else { continue }
            words.append(
                "\(key)=\(list.isEmpty ? Self.noCapabilities : list.joined(separator: ","))")
        }
        return words
    }

    /// The capabilities line's key for the Info.plist's `UIBackgroundModes`.
    static let modesKey = "modes"
    /// The capabilities line's key for `BGTaskSchedulerPermittedIdentifiers`.
    static let tasksKey = "tasks"

    /// Every capability by its word in a file, in the order they print.
    static var capabilityFields: [(word: String, keyPath: WritableKeyPath<AppCapabilities, Bool>)] {
        [("location-background", \.locationBackgroundMode), ("scene-based", \.sceneBased)]
    }

    /// The word for a scenario that declares no capability.
    static let noCapabilities = "none"

    /// A segment line: `drive 5m at 13.9 m/s heading +90`, `park 20m`.
    static func segmentText(_ segment: Route.Segment) -> String {
        var text = "\(segment.kind.rawValue) \(segment.duration)"
        if segment.kind != .park { text += " at \(number(segment.speedMetersPerSecond)) m/s" }
        if segment.headingChangeDegrees != 0 {
            let sign = segment.headingChangeDegrees > 0 ? "+" : ""
            text += " heading \(sign)\(number(segment.headingChangeDegrees))"
        }
        return text
    }

    /// The largest magnitude printed as a whole number without an exponent (2^53: every whole
    /// double up to it is exact).
    static let wholeNumberMagnitudeMax = 9_007_199_254_740_992.0

    /// `value` in its shortest form that reads back exactly: `90` rather than `90.0`, `13.9`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) <= wholeNumberMagnitudeMax {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
