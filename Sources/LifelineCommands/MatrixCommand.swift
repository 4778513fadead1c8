// `lifeline experiment matrix`: source B's lifecycle matrix for the built-in engines, as a
// table or JSON rows.
import Engines
import Simulation
import World

enum MatrixCommand {
    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let engines = try engineChoice(&reader)
        let json = try reader.flag("--json")
        let policy = try ExperimentCommand.policy(&reader)
        try reader.finish()
        let rows = LifecycleMatrix(policy: policy).run(choices: engines)
        return ExperimentCommand.emit(
            rows, json: json, output: output,
            fields: { row in
                [
                    ("engine", PlainText.jsonQuoted(row.engine.name)),
                    ("scenario", PlainText.jsonQuoted(row.scenario.rawValue)),
                    ("gapSeconds", jsonNumber(row.gapSeconds)),
                    ("fixesLost", "\(row.fixesLost)"),
                    ("relaunchSeconds", jsonNumber(row.relaunchSeconds)),
                ]
            }, table: { table($0, policy: policy) })
    }

    /// `--engine NAME|all` (default all): all is every correct built-in engine and every
    /// custom one.
    static func engineChoice(_ reader: inout ArgumentReader) throws -> [EngineChoice] {
        guard let name = try reader.text("--engine"), name != "all" else {
            return BuiltInEngine.allCases.map(EngineChoice.builtIn)
                + reader.engines.map(EngineChoice.custom)
        }
        return [try FuzzCommand.engine(named: name, reader.engines)]
    }

    static func table(_ rows: [LifecycleMatrix.Row], policy: IOSPolicy) -> String {
        let pad = ExperimentCommand.pad
        var lines = [
            "policy \(policy.name)", "",
            "engine            scenario          gap        fixes lost  relaunch",
            "----------------  ----------------  ---------  ----------  --------",
        ]
        for row in rows {
            let relaunch = row.relaunchSeconds.map { PlainText.fixed($0, digits: 1) + " s" } ?? "–"
            lines.append(
                pad(row.engine.name, 16, false) + "  " + pad(row.scenario.rawValue, 16, false)
                    + "  " + pad(PlainText.fixed(row.gapSeconds, digits: 1) + " s", 9, true)
                    + "  " + pad("\(row.fixesLost)", 10, true) + "  " + pad(relaunch, 8, true))
        }
        lines.append("")
        lines.append(
            "measured (source B, session engine, on a device): "
                + LifecycleMatrix.Scenario.allCases.map { "\($0.rawValue) \($0.measuredGap)" }
                .joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}
