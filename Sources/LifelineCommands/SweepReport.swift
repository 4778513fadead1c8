// A sweep's rows as text (the CLI layer): the terminal table and the CSV, one row per point
// of the parameters and subject, every number with fixed decimals.
import Fuzzing
import Research
import Simulation

/// The rows of a finished `PolicySweep`, printed.
struct SweepReport {
    var ranges: [SweepRange]
    var rows: [PolicySweep.Row]

    /// A parameter's column header: its key and its unit (`whenInUseGrace (s)`).
    static func header(_ range: SweepRange) -> String {
        range.parameter.unit.isEmpty
            ? range.parameter.key : "\(range.parameter.key) (\(range.parameter.unit))"
    }

    /// The cells of every row, the header first: the parameters, the subject, its runs and
    /// every metric.
    var cells: [[String]] {
        let header =
            ranges.map(Self.header) + ["engine", "runs"] + SweepMetric.all.map(\.header)
        return [header]
            + rows.map { row in
                zip(ranges, row.values).map { $0.text($1) } + [
                    row.subject.name, String(row.figures.runCount),
                ] + SweepMetric.all.map { $0.text(row.figures) }
            }
    }

    /// Comma-separated, the header with units first, one line per value and subject. No
    /// cell holds a comma or a quote (names are single words; numbers are plain decimals).
    var csv: String {
        cells.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// The table: aligned columns (names left, numbers right), a rule under the header, a
    /// dash where a figure does not exist, and a line on what fixes lost means.
    var table: String {
        let cells = self.cells
        let widths = cells[0].indices.map { column in cells.map { $0[column].count }.max()! }
        let subjectColumn = ranges.count
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                let text = cell.isEmpty ? "–" : cell
                return ExperimentCommand.pad(text, widths[column], right: column != subjectColumn)
            }.joined(separator: "  ")
        }
        var lines = [
            line(cells[0]),
            widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "),
        ]
        lines += cells.dropFirst().map(line)
        lines.append("")
        lines.append(
            "fixes lost: fixes iOS produced for the app that never reached its code (withheld or "
                + "dropped under an iOS rule, or held at the end), summed over the runs.")
        return lines.joined(separator: "\n")
    }
}
