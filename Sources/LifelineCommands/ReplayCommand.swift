// `lifeline replay PATH`: reruns one corpus entry and says whether it still breaks the
// invariant it was saved for, passes now, or breaks another.
import Invariants
import Simulation

enum ReplayCommand {
    static let usage = """
        usage: lifeline replay PATH

        Reruns one corpus entry (a file `lifeline fuzz` saved, DIR/ENGINE/INVARIANT-HASH.scenario)
        and checks every built-in invariant. It says "still fails" with the violations of the
        invariant its header records and the compact timeline (exit 1), "passes now" when
        every invariant holds (exit 0), or that it fails a different invariant (exit 1). A file
        that is not a corpus entry, or was written in a newer corpus format, exits 2.
        """

    static let command = Subcommand(
        name: "replay", summary: "rerun one corpus entry: does it still fail as recorded?",
        usage: usage, run: { try run(&$0, output: $1) })

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let path = try reader.argument(missing: "replay needs a corpus entry")
        try reader.finish()
        let entry = try ScenarioFiles.entry(atPath: path)
        guard Invariant.builtIn(named: entry.invariant) != nil else {
            let names = Invariant.builtIn.map(\.name).joined(separator: ", ")
            throw InputError(
                "\(path): the entry records the invariant '\(entry.invariant)', which this "
                    + "Lifeline does not check (it checks \(names))")
        }
        let record = try ScenarioFiles.record(entry.scenario, path: path)
        let verdicts = RunReport.verdicts(of: record)
        let failing = verdicts.filter { !$0.passed }
        let engine = entry.scenario.engine.name.name
        if let recorded = failing.first(where: { $0.invariant == entry.invariant }) {
            let others = failing.filter { $0.invariant != entry.invariant }.map(\.invariant)
            var lines = ["still fails: \(entry.invariant) (engine \(engine))", ""]
            lines += recorded.violations.map { "  \($0)" }
            if !others.isEmpty { lines += ["", "also fails: \(others.joined(separator: ", "))"] }
            lines.append("")
            lines.append(Timeline(record, violations: recorded.violations, mode: .compact).text)
            output.standard(lines.joined(separator: "\n"))
            return 1
        }
        guard !failing.isEmpty else {
            output.standard(
                "passes now: \(entry.invariant) holds (engine \(engine); every built-in "
                    + "invariant holds)")
            return 0
        }
        let violations = failing.flatMap(\.violations)
        var lines = [
            "fails a different invariant: \(failing.map(\.invariant).joined(separator: ", ")) "
                + "(engine \(engine); \(entry.invariant), as recorded, holds now)",
            "",
        ]
        lines += violations.map { "  \($0)" }
        lines.append("")
        lines.append(Timeline(record, violations: violations, mode: .compact).text)
        output.standard(lines.joined(separator: "\n"))
        return 1
    }
}
