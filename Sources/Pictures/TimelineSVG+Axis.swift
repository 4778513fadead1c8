// The time axis and the legend of an SVG timeline (Pictures, layer 5): ticks at a round step
// chosen for the run's length, labelled in virtual time, and what each color and shape means.
import Simulation

extension TimelineSVG.Layout {
    /// The steps the axis may take, in seconds: the first that gives at most `tickCountMax`
    /// intervals over the run is used.
    static let stepsSeconds: [Int64] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200,
        86_400, 172_800, 604_800,
    ]
    static let tickCountMax: Int64 = 12

    /// The axis's step for the run.
    var stepSeconds: Int64 {
        let horizonSeconds = picture.horizon.nanosecondsSinceStart / 1_000_000_000
        return Self.stepsSeconds.first { horizonSeconds / $0 <= Self.tickCountMax }
            ?? Self.stepsSeconds[Self.stepsSeconds.count - 1]
    }

    /// `seconds` since the start as `hh:mm`, or `hh:mm:ss` when the step is under a minute.
    static func axisLabel(_ seconds: Int64, step: Int64) -> String {
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = two(seconds / 3_600) + ":" + two(seconds / 60 % 60)
        return step < 60 ? clock + ":" + two(seconds % 60) : clock
    }

    /// Grid lines across the lanes, the axis line, a tick and a label at every step.
    func drawAxis(_ svg: inout SVGText) {
        let step = stepSeconds
        let axisY = lanesBottom + 4
        svg.open("g", [("class", "axis")])
        svg.element(
            "line",
            [
                ("x1", SVGText.number(Self.plotLeft)), ("x2", SVGText.number(Self.plotRight)),
                ("y1", SVGText.number(axisY)), ("y2", SVGText.number(axisY)),
                ("stroke", "#4a5568"),
            ])
        var seconds: Int64 = 0
        while seconds * 1_000_000_000 <= picture.horizon.nanosecondsSinceStart {
            let at = SVGText.number(x(Instant(nanosecondsSinceStart: seconds * 1_000_000_000)))
            svg.element(
                "line",
                [
                    ("x1", at), ("x2", at), ("y1", SVGText.number(Self.lanesTop)),
                    ("y2", SVGText.number(axisY + 5)), ("stroke", "#a0aec0"),
                    ("stroke-width", "0.5"), ("stroke-dasharray", "2 3"),
                ])
            svg.text(
                Self.axisLabel(seconds, step: step),
                [
                    ("class", "tick"), ("x", at), ("y", SVGText.number(axisY + 18)),
                    ("text-anchor", "middle"), ("fill", "#2d3748"),
                ])
            seconds += step
        }
        svg.text(
            "virtual time (hh:mm\(step < 60 ? ":ss" : ""))",
            [
                ("x", SVGText.number(Self.plotLeft - 28)), ("y", SVGText.number(axisY + 18)),
                ("text-anchor", "end"), ("fill", "#4a5568"),
            ])
        svg.close("g")
    }

    /// Swatches for the states and the fixes, shapes for the markers, in one row (two when it
    /// does not fit).
    func drawLegend(_ svg: inout SVGText) {
        typealias Style = TimelineSVG.Style
        var items: [(label: String, swatch: String?, style: TimelineSVG.MarkerStyle?)] = []
        items += RunPicture.AppState.allCases.map { ($0.rawValue, Style.state($0), nil) }
        items += [RunPicture.FixFate.stored, .delivered, .lost].map {
            ("fix \($0.rawValue)", Style.fix($0), nil)
        }
        items += RunPicture.MarkerKind.allCases.map { ($0.rawValue, nil, Style.marker($0)) }
        items.append(("violation", nil, Style.violation))
        let top = lanesBottom + 40
        var left = Self.plotLeft
        var row = 0.0
        svg.open("g", [("class", "legend")])
        svg.text(
            "legend",
            [
                ("x", SVGText.number(Self.plotLeft - 8)), ("y", SVGText.number(top + 10)),
                ("text-anchor", "end"), ("fill", "#4a5568"),
            ])
        for item in items {
            let width = 22 + Self.labelWidth(item.label) + 18
            if left + width > Self.plotRight {
                left = Self.plotLeft
                row += 22
            }
            let y = top + row
            if let swatch = item.swatch {
                svg.element(
                    "rect",
                    [
                        ("x", SVGText.number(left)), ("y", SVGText.number(y)), ("width", "16"),
                        ("height", "12"), ("fill", swatch),
                    ])
            } else if let style = item.style {
                svg.element(
                    "path",
                    [
                        ("d", style.shape.path(x: left + 8, y: y + 6)),
                        ("fill", style.shape == .cross ? "none" : style.color),
                        ("stroke", style.color), ("stroke-width", "1.5"),
                    ])
            }
            svg.text(
                item.label,
                [
                    ("x", SVGText.number(left + 22)), ("y", SVGText.number(y + 10)),
                    ("fill", "#2d3748"),
                ])
            left += width
        }
        svg.text(
            "fix lanes: one tick per fix, or, when more than \(Self.binCountMax), one bar per "
                + "\(binSeconds) s whose height grows with the fixes in it",
            [
                ("x", SVGText.number(Self.plotLeft)), ("y", SVGText.number(top + row + 34)),
                ("fill", "#4a5568"), ("font-size", "10"),
            ])
        svg.close("g")
    }
}
