// The swimlanes of an SVG timeline (Pictures, layer 5): where each lane sits, and how the
// process's states, the services, the fixes and the markers are drawn in it.
import Invariants
import Simulation

extension TimelineSVG {
    /// A lane of the timeline, top to bottom.
    enum Lane: Equatable {
        case process
        case service(RunPicture.ServiceLane)
        case fixes(RunPicture.FixFate)
        case launches, actions, violations

        /// Every lane, in drawing order.
        static var all: [Lane] {
            [.process] + RunPicture.ServiceLane.allCases.map(Lane.service)
                + [RunPicture.FixFate.stored, .delivered, .lost].map(Lane.fixes)
                + [.launches, .actions, .violations]
        }

        /// The lane's name, on its left and in its `data-lane` attribute.
        var name: String {
            switch self {
            case .process: "process state"
            case .service(let lane): lane.rawValue
            case .fixes(let fate): "fixes \(fate.rawValue)"
            case .launches: "launches"
            case .actions: "actions"
            case .violations: "violations"
            }
        }

        var height: Double {
            switch self {
            case .process: 30
            case .service: 16
            case .fixes: 20
            case .launches, .actions, .violations: 32
            }
        }
    }

    /// Where everything goes: the plot's horizontal span and each lane's top.
    struct Layout {
        let picture: RunPicture
        static let plotLeft = 170.0
        static let plotRight = TimelineSVG.width - 30
        static let lanesTop = 64.0
        static let laneGap = 4.0
        // invariant: tops[i] is the top of Lane.all[i]
        let tops: [Double]
        let lanesBottom: Double
        var height: Double { lanesBottom + 120 }

        init(picture: RunPicture) {
            self.picture = picture
            var tops: [Double] = []
            var y = Self.lanesTop
            for lane in Lane.all {
                tops.append(y)
                y += lane.height + Self.laneGap
            }
            self.tops = tops
            lanesBottom = y
        }

        /// The x of `instant`: the plot's width spread over the run from its start to its
        /// horizon.
        func x(_ instant: Instant) -> Double {
            let horizon = max(picture.horizon.nanosecondsSinceStart, 1)
            let fraction = Double(min(instant.nanosecondsSinceStart, horizon)) / Double(horizon)
            return Self.plotLeft + (Self.plotRight - Self.plotLeft) * fraction
        }

        func top(_ lane: Lane) -> Double { tops[Lane.all.firstIndex(of: lane)!] }

        // MARK: - Drawing the lanes

        func drawLanes(_ svg: inout SVGText) {
            for lane in Lane.all {
                let y = top(lane)
                svg.open("g", [("class", "lane"), ("data-lane", lane.name)])
                svg.element(
                    "rect",
                    [
                        ("x", SVGText.number(Self.plotLeft)), ("y", SVGText.number(y)),
                        ("width", SVGText.number(Self.plotRight - Self.plotLeft)),
                        ("height", SVGText.number(lane.height)), ("fill", "#f4f5f7"),
                    ])
                svg.text(
                    lane.name,
                    [
                        ("x", SVGText.number(Self.plotLeft - 8)),
                        ("y", SVGText.number(y + lane.height / 2 + 4)), ("text-anchor", "end"),
                        ("fill", "#2d3748"),
                    ])
                draw(lane, top: y, &svg)
                svg.close("g")
            }
        }

        private func draw(_ lane: Lane, top y: Double, _ svg: inout SVGText) {
            switch lane {
            case .process: drawStates(top: y, &svg)
            case .service(let service): drawServices(service, top: y, height: lane.height, &svg)
            case .fixes(let fate): drawFixes(fate, top: y, height: lane.height, &svg)
            case .launches:
                drawMarkers(
                    picture.markers.map { marker in
                        (marker.instant, Style.marker(marker.kind), marker.label, marker.text)
                    }, top: y, height: lane.height, &svg)
            case .actions:
                drawMarkers(
                    picture.actions.map { action in
                        (action.instant, Style.action(action.source), action.text, action.text)
                    }, top: y, height: lane.height, &svg)
            case .violations:
                drawMarkers(
                    picture.violations.map { violation in
                        (
                            violation.instant, Style.violation, violation.invariant,
                            violation.description
                        )
                    }, top: y, height: lane.height, &svg)
            }
        }

        private func drawStates(top y: Double, _ svg: inout SVGText) {
            for slice in picture.states {
                let left = x(slice.start)
                let width = x(slice.end) - left
                let process = slice.generation.map { ", process \($0)" } ?? ""
                svg.element(
                    "rect",
                    [
                        ("x", SVGText.number(left)), ("y", SVGText.number(y)),
                        ("width", SVGText.number(width)),
                        ("height", SVGText.number(Lane.process.height)),
                        ("fill", Style.state(slice.state)), ("data-state", slice.state.rawValue),
                    ],
                    title: "\(slice.state.rawValue)\(process), \(TimeText.clock(slice.start))"
                        + " to \(TimeText.clock(slice.end))")
                if let generation = slice.generation, width >= 64 {
                    svg.text(
                        "process \(generation)",
                        [
                            ("x", SVGText.number(left + 4)), ("y", SVGText.number(y + 19)),
                            ("fill", slice.state == .suspended ? "#1a202c" : "#ffffff"),
                        ])
                }
            }
        }

        private func drawServices(
            _ service: RunPicture.ServiceLane, top y: Double, height: Double,
            _ svg: inout SVGText
        ) {
            for slice in picture.services where slice.lane == service {
                let left = x(slice.start)
                svg.element(
                    "rect",
                    [
                        ("x", SVGText.number(left)), ("y", SVGText.number(y + 3)),
                        ("width", SVGText.number(max(x(slice.end) - left, 1))),
                        ("height", SVGText.number(height - 6)), ("fill", Style.service(service)),
                    ],
                    title: "\(service.rawValue), process \(slice.generation), "
                        + "\(TimeText.clock(slice.start)) to \(TimeText.clock(slice.end))")
            }
        }
    }
}
