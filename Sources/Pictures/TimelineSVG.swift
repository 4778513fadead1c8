// A run as an SVG timeline (Pictures, layer 5): swimlanes along virtual time for the process's
// state, the services held, fixes by fate, launches, actions and violations; an axis; a legend.
import Invariants
import Simulation

/// One run drawn as swimlanes over virtual time, `width` pixels wide whatever the run's length:
///
/// - `process`: the app's state as colored bands (foreground, background, suspended, not
///   running), each band's process named where it is wide enough;
/// - one lane per service (`RunPicture.ServiceLane`), a bar while some process holds it;
/// - three fix lanes, stored, delivered and lost: a tick per fix while they number no more than
///   half the plot's pixels, otherwise one bar per bin of a round number of seconds (at least
///   two pixels wide) whose height grows with the count, so a day of fixes at 1 Hz stays
///   readable;
/// - `launches` (launch, relaunch, termination), `actions` (the scenario's) and `violations`,
///   as markers with labels that are left out where they would overlap (each marker keeps its
///   text as a tooltip);
/// - a time axis labelled `hh:mm` (`hh:mm:ss` for runs under a few minutes) and a legend.
///
/// Every number is printed with one decimal through `PlainText`; text is escaped.
public struct TimelineSVG: Sendable {
    /// The picture's width in pixels.
    public static let width = 1600.0
    /// The document.
    public let text: String

    /// The timeline of `picture`, headed by `title` and then `details` (the engine, the policy)
    /// and the picture's own figures and verdict.
    public init(_ picture: RunPicture, title: String, details: [String] = []) {
        let layout = Layout(picture: picture)
        var svg = SVGText()
        svg.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"),
                ("width", SVGText.number(Self.width)), ("height", SVGText.number(layout.height)),
                ("viewBox", "0 0 \(SVGText.number(Self.width)) \(SVGText.number(layout.height))"),
                ("font-family", "Helvetica, Arial, sans-serif"), ("font-size", "11"),
            ])
        svg.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        svg.text(title, [("x", "16"), ("y", "26"), ("font-size", "16"), ("font-weight", "bold")])
        let summary = details + Self.figures(picture)
        svg.text(summary.joined(separator: " · "), [("x", "16"), ("y", "46"), ("fill", "#4a5568")])
        layout.drawLanes(&svg)
        layout.drawAxis(&svg)
        layout.drawLegend(&svg)
        svg.close("svg")
        text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg.lines.joined(separator: "\n")
            + "\n"
    }

    /// Processes, fixes by fate, and the verdict: every invariant holds, or each failing one
    /// with its count, in the order they first fail.
    static func figures(_ picture: RunPicture) -> [String] {
        let counts = RunPicture.FixFate.allCases.map { fate in
            "\(picture.fixes(fate).reduce(0) { $0 + $1.count }) \(fate.rawValue)"
        }
        var failing: [(name: String, count: Int)] = []
        for violation in picture.violations {
            if let index = failing.firstIndex(where: { $0.name == violation.invariant }) {
                failing[index].count += 1
            } else {
                failing.append((violation.invariant, 1))
            }
        }
        let verdict =
            failing.isEmpty
            ? "no violation"
            : "FAIL: " + failing.map { "\($0.name) (\($0.count))" }.joined(separator: ", ")
        let processes = picture.record.processes.count
        return [
            "horizon \(TimeText.clock(picture.horizon))",
            "\(processes) process\(processes == 1 ? "" : "es")",
            "fixes " + counts.joined(separator: ", "), verdict,
        ]
    }
}
