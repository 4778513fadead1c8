// `lifeline experiment …`: source A's experiments on the world model, printed as its tables
// (or JSON), with the protocol and the policy open to change.
import Experiments
import Simulation
import World

enum ExperimentCommand {
    static let usage = """
        usage: lifeline experiment background [--speed M/S] [--window SECONDS] [--gpx FILE]
                                              [--policy FILE] [--json]
               lifeline experiment relaunch [--speed M/S] [--duration SECONDS] [--gpx FILE]
                                            [--policy FILE] [--json]
               lifeline experiment info-plist [--policy FILE] [--json]
               lifeline experiment matrix [--engine NAME|all] [--policy FILE|PRESET] [--json]

        Runs source A's experiments (docs/sources.md) on the world model and prints their tables.
          background  When In Use, a drive with a fix each second, the app sent to the background:
                      fixes counted for --window seconds (default 20) at --speed m/s (default 20),
                      for a plain manager, a manager allowed in the background, live updates, and
                      live updates holding a background activity session.
          relaunch    Always, monitoring started, the app exits, a drive at --speed m/s (default 50)
                      for --duration seconds (default 150): the launches of the app.
          info-plist  allowsBackgroundLocationUpdates set without the location background mode.
          matrix      source B's lifecycle matrix (docs/sources.md) for the built-in
                      engines (--engine location-runtime, session or standard; default all):
                      backgrounded, suspended-parked, memory-kill, force-quit, reboot-parked,
                      each with its gap, fixes lost and relaunch time.
        --gpx FILE drives a GPX 1.1 track or waypoint file (as Xcode uses one) instead of the
        straight drive at --speed. --policy overrides the policy: a preset name (measured,
        iOS16, iOS17, iOS18, iOS26) or a file (a JSON object: "preset" and any IOSPolicy
        property).
        """

    /// The experiments, as `lifeline help` lists them and the dispatcher runs them.
    static let subcommands = [
        Subcommand(
            name: "background",
            summary: "source A's background table: four probes, fixes after leaving",
            usage: usage, run: { try background(&$0, output: $1) }),
        Subcommand(
            name: "relaunch", summary: "source A's relaunch table: launches during a drive",
            usage: usage, run: { try relaunch(&$0, output: $1) }),
        Subcommand(
            name: "info-plist", summary: "the assertion without the location background mode",
            usage: usage, run: { try infoPlist(&$0, output: $1) }),
        Subcommand(
            name: "matrix", summary: "source B's lifecycle matrix for the built-in engines",
            usage: usage, run: { try MatrixCommand.run(&$0, output: $1) }),
    ]

    /// `--gpx FILE`, if given, as a route driven at `speed` where the file has no times. A bad
    /// file is bad input (exit 2) naming its line; nothing runs.
    static func route(_ reader: inout ArgumentReader, speed: Double) throws -> Route? {
        guard let path = try reader.text("--gpx") else { return nil }
        try InputLimit.gpxFile.check(path)
        do {
            return try Route(gpxFile: path, speedMetersPerSecond: max(speed, 0.1))
        } catch {
            throw InputError("--gpx: \(error)")
        }
    }

    /// `--policy PRESET` or `--policy FILE`, or the measured preset.
    static func policy(_ reader: inout ArgumentReader) throws -> IOSPolicy {
        guard let value = try reader.text("--policy") else { return .measured }
        return try policy(named: value)
    }

    /// The policy `--policy VALUE` names: a preset, or else a policy file (a preset's name
    /// wins over a file of that name).
    /// - Throws: `InputError` for a file too large, unreadable or not a policy file, naming
    ///   the option, the file, its line and the key (exit 2, as in every command).
    static func policy(named value: String) throws -> IOSPolicy {
        if let preset = IOSPolicy.preset(named: value) { return preset }
        do {
            try InputLimit.policyFile.check(value)
            return try IOSPolicy.load(path: value)
        } catch {
            throw InputError("--policy: \(error)")
        }
    }

    static func seconds(
        _ reader: inout ArgumentReader, _ name: String, default value: Double,
        in range: ClosedRange<Double>
    ) throws -> Double {
        guard let text = try reader.text(name) else { return value }
        guard let number = Double(text), range.contains(number) else {
            throw UsageError(
                "\(name) takes a number from \(PlainText.fixed(range.lowerBound, digits: 0)) to \(PlainText.fixed(range.upperBound, digits: 0)), not '\(text)'"
            )
        }
        return number
    }

    /// The options of an experiment that drives: speed, how long to watch, a GPX route, the
    /// policy, and JSON output; every other argument is an error.
    struct DriveOptions {
        var speed: Double
        var length: VirtualDuration
        var route: Route?
        var policy: IOSPolicy
        var json: Bool

        init(
            _ reader: inout ArgumentReader, speed defaultSpeed: Double, lengthOption: String,
            length defaultLength: Double
        ) throws {
            speed = try seconds(&reader, "--speed", default: defaultSpeed, in: 0...1_000)
            length = VirtualDuration(
                seconds: try seconds(&reader, lengthOption, default: defaultLength, in: 1...86_400))
            route = try ExperimentCommand.route(&reader, speed: speed)
            json = try reader.flag("--json")
            policy = try ExperimentCommand.policy(&reader)
            try reader.finish()
        }
    }

    static func background(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let options = try DriveOptions(&reader, speed: 20, lengthOption: "--window", length: 20)
        var experiment = BackgroundExperiment()
        experiment.speedMetersPerSecond = options.speed
        experiment.window = options.length
        experiment.route = options.route
        experiment.policy = options.policy
        let json = options.json
        return emit(
            experiment.run(), json: json, output: output,
            fields: { row in
                [
                    ("probe", PlainText.jsonQuoted(row.probe.rawValue)), ("fixes", "\(row.fixes)"),
                    ("lastFixSeconds", jsonNumber(row.lastFixSeconds)),
                    ("signal", row.signal.map(PlainText.jsonQuoted) ?? "null"),
                    ("signalSeconds", jsonNumber(row.signalSeconds)),
                ]
            }, table: backgroundTable)
    }

    static func backgroundTable(_ rows: [BackgroundExperiment.Row]) -> String {
        var lines = [
            "probe         fixes  last fix   signal",
            "------------  -----  ---------  ----------------",
        ]
        for row in rows {
            let last = row.lastFixSeconds.map { PlainText.fixed($0, digits: 2) + " s" } ?? "–"
            let signal =
                row.signal.map { "\($0) at \(PlainText.fixed(row.signalSeconds!, digits: 2)) s" }
                ?? "none"
            lines.append(
                pad(row.probe.rawValue, 12) + "  " + pad(String(row.fixes), 5, right: true) + "  "
                    + pad(last, 9, right: true) + "  " + signal)
        }
        lines.append("")
        lines.append(
            "measured (source A, 20 m/s, 20 s): "
                + BackgroundExperiment.measured.map {
                    "\($0.probe.rawValue) \($0.fixes) fixes, last \($0.lastFix), \($0.signal)"
                }
                .joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    static func relaunch(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let options = try DriveOptions(&reader, speed: 50, lengthOption: "--duration", length: 150)
        var experiment = RelaunchExperiment()
        experiment.speedMetersPerSecond = options.speed
        experiment.duration = options.length
        experiment.route = options.route
        experiment.policy = options.policy
        let json = options.json
        return emit(
            experiment.run(), json: json, output: output,
            fields: { row in
                [
                    ("monitoring", PlainText.jsonQuoted(row.monitoring.rawValue)),
                    (
                        "launches",
                        "[" + row.launches.map { jsonNumber($0) }.joined(separator: ", ") + "]"
                    ),
                    (
                        "launchOptions",
                        "["
                            + row.launchOptions.map {
                                "[" + $0.map(PlainText.jsonQuoted).joined(separator: ", ") + "]"
                            }
                            .joined(separator: ", ") + "]"
                    ),
                ]
            }, table: relaunchTable)
    }

    static func relaunchTable(_ rows: [RelaunchExperiment.Row]) -> String {
        var lines = [
            "monitoring                    launches during the drive",
            "----------------------------  -------------------------",
        ]
        for row in rows {
            let launches =
                row.launches.isEmpty
                ? "0"
                : "\(row.launches.count), at "
                    + row.launches.map { PlainText.fixed($0, digits: 1) + " s" }.joined(
                        separator: " and ")
            let options =
                row.launchOptions.allSatisfy(\.isEmpty) ? "" : " options \(row.launchOptions)"
            lines.append(pad(row.monitoring.rawValue, 28) + "  " + launches + options)
        }
        lines.append("")
        lines.append(
            "no launch carried launch options: "
                + (rows.allSatisfy { $0.launchOptions.allSatisfy(\.isEmpty) } ? "yes" : "no"))
        lines.append(
            "measured (source A, 50 m/s, 150 s): "
                + RelaunchExperiment.measured.map { "\($0.monitoring.rawValue) \($0.launches)" }
                .joined(separator: "; "))
        return lines.joined(separator: "\n")
    }

    static func infoPlist(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        var experiment = InfoPlistExperiment()
        let json = try reader.flag("--json")
        experiment.policy = try policy(&reader)
        try reader.finish()
        return emit(
            experiment.run(), json: json, output: output,
            fields: { row in
                [
                    ("authorization", PlainText.jsonQuoted(row.authorization.rawValue)),
                    ("backgroundMode", "\(row.backgroundMode)"),
                    ("crash", row.crash.map(PlainText.jsonQuoted) ?? "null"),
                    ("endedAfterSeconds", jsonNumber(row.endedAfterSeconds)),
                ]
            }, table: infoPlistTable)
    }

    static func infoPlistTable(_ rows: [InfoPlistExperiment.Row]) -> String {
        var lines = [
            "authorization   background mode  outcome", "--------------  ---------------  -------",
        ]
        for row in rows {
            let outcome =
                row.crash.map {
                    "SIGABRT at \(PlainText.fixed(row.endedAfterSeconds!, digits: 1)) s: \($0)"
                }
                ?? "runs"
            lines.append(
                pad(row.authorization.rawValue, 14) + "  "
                    + pad(row.backgroundMode ? "declared" : "missing", 15) + "  " + outcome)
        }
        return lines.joined(separator: "\n")
    }

    /// Prints `rows` as JSON objects or as the table; success.
    static func emit<Row>(
        _ rows: [Row], json: Bool, output: CommandOutput,
        fields: (Row) -> [(key: String, value: String)], table: ([Row]) -> String
    ) -> Int32 {
        output.standard(json ? jsonObjects(rows.map(fields)) : table(rows))
        return 0
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
