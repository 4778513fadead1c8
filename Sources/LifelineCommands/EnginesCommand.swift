// `lifeline engines`: every engine the tool can run, correct or mutant, with what it is.
import EngineMutants
import Engines
import Simulation

enum EnginesCommand {
    static let usage = """
        usage: lifeline engines [--json]

        Lists every engine that --engine and a scenario's `engine` line accept: the correct
        built-in engines, and the mutants (a built-in engine with one real mistake planted,
        which the fuzzer must catch), with the engine each is built on and what it does; then
        a team's own engines (kind custom) when the tool was built with
        `LifelineCLI.main(engines:)`.
        """

    static let command = Subcommand(
        name: "engines", summary: "the engines to run: correct ones and mutants", usage: usage,
        run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let json = try reader.flag("--json")
        try reader.finish()
        let engines = EngineChoice.all + reader.engines.map(EngineChoice.custom)
        if json {
            output.standard(
                jsonObjects(
                    engines.map { engine in
                        [
                            ("name", PlainText.jsonQuoted(engine.name)),
                            ("kind", PlainText.jsonQuoted(engine.kind)),
                            (
                                "base",
                                engine.base.map { PlainText.jsonQuoted($0.rawValue) } ?? "null"
                            ),
                            ("summary", PlainText.jsonQuoted(engine.summary)),
                        ]
                    }))
            return 0
        }
        let width = engines.map(\.name.count).max() ?? 0
        let pad = ExperimentCommand.pad
        var lines = [pad("engine", width, false) + "  kind     summary"]
        for engine in engines {
            lines.append(
                pad(engine.name, width, false) + "  " + pad(engine.kind, 7, false) + "  "
                    + engine.summary)
        }
        output.standard(lines.joined(separator: "\n"))
        return 0
    }
}
