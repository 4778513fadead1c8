// A sweep as an SVG line chart (the CLI layer): one metric against the first parameter, one
// line per subject (and per value of any other parameter), axes labelled with units, a legend.
import Fuzzing
import Pictures
import Simulation

/// The chart of a sweep's rows: x is the first parameter, y the metric; each series is a
/// subject at one combination of the other parameters' values, drawn as one `<polyline>` with
/// a mark at each point. Every coordinate is printed with one decimal (`PlainText`).
struct SweepChart {
    var report: SweepReport
    var metric: SweepMetric

    static let width = 960.0
    static let height = 440.0
    /// The plot area inside the margins (left room for the y labels, right for the legend).
    static let plot = (left: 80.0, top: 40.0, right: 560.0, bottom: 370.0)
    /// Series colours, in order (repeated past the end, with dashes).
    static let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    ]

    /// One line: its legend text and its points (x, y), in x order; a point without a value
    /// is left out.
    struct Series {
        var label: String
        var points: [(x: Double, y: Double)]
    }

    /// The series, in the order subjects and other values first appear in the rows.
    var series: [Series] {
        var series: [Series] = []
        for row in report.rows {
            let others = zip(report.ranges, row.values).dropFirst().map { range, value in
                "\(range.parameter.key)=\(range.text(value))"
            }
            let label = ([row.subject.name] + others).joined(separator: " ")
            if !series.contains(where: { $0.label == label }) {
                series.append(Series(label: label, points: []))
            }
            guard let y = metric.value(row.figures) else { continue }
            let index = series.firstIndex { $0.label == label }!
            series[index].points.append((row.values[0], y))
        }
        return series
    }

    /// The SVG document.
    var svg: String {
        let first = report.ranges[0]
        let series = self.series
        let xs = first.values
        let (xMin, xMax) = (xs.first!, xs.last!)
        let yTop = Self.niceCeiling(series.flatMap { $0.points.map(\.y) }.max() ?? 0)
        let plot = Self.plot
        func x(_ value: Double) -> Double {
            xMax == xMin
                ? (plot.left + plot.right) / 2
                : plot.left + (value - xMin) / (xMax - xMin) * (plot.right - plot.left)
        }
        func y(_ value: Double) -> Double {
            plot.bottom - value / yTop * (plot.bottom - plot.top)
        }
        let f = { (value: Double) in PlainText.fixed(value, digits: 1) }
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(Self.width))\" "
                + "height=\"\(f(Self.height))\" viewBox=\"0 0 \(f(Self.width)) \(f(Self.height))\" "
                + "font-family=\"sans-serif\" font-size=\"12\">",
            "<rect x=\"0\" y=\"0\" width=\"\(f(Self.width))\" height=\"\(f(Self.height))\" fill=\"white\"/>",
            "<text x=\"\(f(plot.left))\" y=\"24\" font-size=\"14\">"
                + Self.escaped("\(metric.title) against \(first.parameter.key)") + "</text>",
        ]
        // Axes, ticks and grid.
        lines.append(
            "<g stroke=\"black\"><line x1=\"\(f(plot.left))\" y1=\"\(f(plot.bottom))\" "
                + "x2=\"\(f(plot.right))\" y2=\"\(f(plot.bottom))\"/><line x1=\"\(f(plot.left))\" "
                + "y1=\"\(f(plot.top))\" x2=\"\(f(plot.left))\" y2=\"\(f(plot.bottom))\"/></g>")
        let xStride = max(1, (xs.count + 10) / 11)
        for (index, value) in xs.enumerated() where index % xStride == 0 || index == xs.count - 1 {
            lines.append(
                "<line x1=\"\(f(x(value)))\" y1=\"\(f(plot.bottom))\" x2=\"\(f(x(value)))\" "
                    + "y2=\"\(f(plot.bottom + 5))\" stroke=\"black\"/>"
                    + "<text x=\"\(f(x(value)))\" y=\"\(f(plot.bottom + 18))\" "
                    + "text-anchor=\"middle\">\(first.text(value))</text>")
        }
        for step in 0...5 {
            let value = yTop * Double(step) / 5
            lines.append(
                "<line x1=\"\(f(plot.left))\" y1=\"\(f(y(value)))\" x2=\"\(f(plot.right))\" "
                    + "y2=\"\(f(y(value)))\" stroke=\"#dddddd\"/>"
                    + "<text x=\"\(f(plot.left - 8))\" y=\"\(f(y(value) + 4))\" "
                    + "text-anchor=\"end\">\(PlainText.fixed(value, digits: Self.digits(yTop)))</text>"
            )
        }
        lines.append(
            "<text class=\"x-label\" x=\"\(f((plot.left + plot.right) / 2))\" "
                + "y=\"\(f(plot.bottom + 44))\" text-anchor=\"middle\">"
                + Self.escaped(SweepReport.header(first)) + "</text>")
        let yMiddle = f((plot.top + plot.bottom) / 2)
        lines.append(
            "<text class=\"y-label\" x=\"20\" y=\"\(yMiddle)\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 20 \(yMiddle))\">" + Self.escaped(metric.header)
                + "</text>")
        // One line per series, then the legend.
        for (index, line) in series.enumerated() {
            let colour = Self.colours[index % Self.colours.count]
            let dash = index >= Self.colours.count ? " stroke-dasharray=\"6 3\"" : ""
            let points = line.points.map { "\(f(x($0.x))),\(f(y($0.y)))" }.joined(separator: " ")
            lines.append(
                "<polyline class=\"series\" data-series=\"\(Self.escaped(line.label))\" "
                    + "fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dash) "
                    + "points=\"\(points)\"/>")
            for point in line.points {
                lines.append(
                    "<circle cx=\"\(f(x(point.x)))\" cy=\"\(f(y(point.y)))\" r=\"3\" "
                        + "fill=\"\(colour)\"/>")
            }
            let legendY = plot.top + 10 + Double(index) * 18
            lines.append(
                "<line x1=\"\(f(plot.right + 20))\" y1=\"\(f(legendY))\" "
                    + "x2=\"\(f(plot.right + 44))\" y2=\"\(f(legendY))\" stroke=\"\(colour)\" "
                    + "stroke-width=\"2\"\(dash)/><text class=\"legend\" x=\"\(f(plot.right + 50))\" "
                    + "y=\"\(f(legendY + 4))\">\(Self.escaped(Self.legend(index, of: series)))</text>"
            )
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The legend of series `index`: its label, and, when an earlier series has the very same
    /// points (its line lies under this one), which.
    static func legend(_ index: Int, of series: [Series]) -> String {
        let line = series[index]
        let same = series[..<index].first { earlier in
            earlier.points.count == line.points.count
                && zip(earlier.points, line.points).allSatisfy { $0.x == $1.x && $0.y == $1.y }
        }
        return line.label + (same.map { " (over \($0.label))" } ?? "")
    }

    /// The smallest of 1, 2, 2.5 or 5 times a power of ten at or above `value` (1 for 0), so
    /// the y axis ends on a round number.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        while power > value { power /= 10 }
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where factor * power >= value {
            return factor * power
        }
        return 10 * power
    }

    /// Decimals for the y ticks of an axis up to `top`: none from 5 up, else enough for fifths.
    static func digits(_ top: Double) -> Int { top >= 5 ? 0 : top >= 0.5 ? 1 : 3 }

    /// `text` with XML's special characters escaped (`XMLText.escaped`, from Pictures).
    static func escaped(_ text: String) -> String { XMLText.escaped(text) }
}
