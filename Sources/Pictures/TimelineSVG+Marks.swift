// Fixes and markers of an SVG timeline (Pictures, layer 5): ticks or count bins for fixes, and
// shaped markers with labels that never overlap for launches, actions and violations.
import Invariants
import Simulation

extension TimelineSVG.Layout {
    /// A tick per fix mark while they number no more than `binCountMax`; otherwise one bar
    /// per non-empty bin of `binSeconds`, its height a quarter of the lane plus the rest in
    /// proportion to its count over the fullest bin's. Bins are a round number of seconds, so
    /// fixes at a steady rate fill every bin alike.
    func drawFixes(
        _ fate: RunPicture.FixFate, top y: Double, height: Double, _ svg: inout SVGText
    ) {
        let marks = picture.fixes(fate)
        let color = TimelineSVG.Style.fix(fate)
        guard marks.count > Self.binCountMax else {
            for mark in marks {
                let at = SVGText.number(x(mark.instant))
                let reason = mark.reason.isEmpty ? "" : ": \(mark.reason)"
                svg.element(
                    "line",
                    [
                        ("x1", at), ("x2", at), ("y1", SVGText.number(y + 2)),
                        ("y2", SVGText.number(y + height - 2)), ("stroke", color),
                        ("stroke-width", "1"),
                    ],
                    title: fate == .lost
                        ? "\(mark.count) lost at \(TimeText.clock(mark.instant))\(reason)" : nil)
            }
            return
        }
        let bin = binSeconds * 1_000_000_000
        let binCount = Int((picture.horizon.nanosecondsSinceStart + bin - 1) / bin)
        var counts = Array(repeating: 0, count: max(binCount, 1))
        for mark in marks {
            let index = Int(mark.instant.nanosecondsSinceStart / bin)
            counts[min(max(index, 0), counts.count - 1)] += mark.count
        }
        let fullest = Double(counts.max() ?? 1)
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = (height - 4) * (0.25 + 0.75 * Double(count) / fullest)
            let from = Instant(nanosecondsSinceStart: bin * Int64(index))
            let to = min(picture.horizon, Instant(nanosecondsSinceStart: bin * Int64(index + 1)))
            let left = x(from)
            svg.element(
                "rect",
                [
                    ("x", SVGText.number(left)),
                    ("y", SVGText.number(y + height - 2 - barHeight)),
                    ("width", SVGText.number(x(to) - left)),
                    ("height", SVGText.number(barHeight)), ("fill", color),
                ],
                title: "\(count) \(fate.rawValue), \(TimeText.clock(from)) to \(TimeText.clock(to))"
            )
        }
    }

    /// The bins of a fix lane: at most this many, so each is at least two pixels wide.
    static var binCountMax: Int { Int((plotRight - plotLeft) / 2) }

    /// The round bin lengths a fix lane may use, in seconds.
    static let binSecondsChoices: [Int64] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 21_600, 86_400,
    ]

    /// The shortest round bin length that needs no more than `binCountMax` bins for the run.
    var binSeconds: Int64 {
        let horizon = picture.horizon.nanosecondsSinceStart
        return Self.binSecondsChoices.first { seconds in
            (horizon + seconds * 1_000_000_000 - 1) / (seconds * 1_000_000_000)
                <= Int64(Self.binCountMax)
        } ?? Self.binSecondsChoices[Self.binSecondsChoices.count - 1]
    }

    /// Markers at their instants, each with its tooltip, and its label to its right in the
    /// upper or the lower half of the lane, whichever is free there; a label that would run
    /// into both rows' last labels is left out.
    func drawMarkers(
        _ markers: [(
            instant: Instant, style: TimelineSVG.MarkerStyle, label: String, tooltip: String
        )],
        top y: Double, height: Double, _ svg: inout SVGText
    ) {
        var rowEnds = [-Double.infinity, -Double.infinity]
        let rowBaselines = [y + height / 2 - 2, y + height - 2]
        let middle = y + height / 2
        for marker in markers {
            let at = x(marker.instant)
            svg.element(
                "path",
                [
                    ("d", marker.style.shape.path(x: at, y: middle)),
                    ("fill", marker.style.shape == .cross ? "none" : marker.style.color),
                    ("stroke", marker.style.color), ("stroke-width", "1.5"),
                    ("class", "marker"), ("data-kind", marker.style.kind),
                ],
                title: "\(TimeText.clock(marker.instant)) \(marker.tooltip)")
            let labelX = at + 7
            guard labelX < Self.plotRight - 20,
                let row = rowEnds.firstIndex(where: { labelX >= $0 })
            else { continue }
            svg.text(
                marker.label,
                [
                    ("x", SVGText.number(labelX)), ("y", SVGText.number(rowBaselines[row])),
                    ("font-size", "10"), ("fill", marker.style.color),
                ])
            rowEnds[row] = labelX + Self.labelWidth(marker.label) + 6
        }
    }

    /// A generous estimate of a label's width at 10 px (no font metrics here).
    static func labelWidth(_ label: String) -> Double { Double(label.count) * 6 }
}
