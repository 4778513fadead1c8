// The colors and marker shapes of an SVG timeline (Pictures, layer 5), one place for both the
// lanes and the legend.

extension TimelineSVG {
    /// A marker's shape, drawn around a point.
    enum Shape: Equatable {
        case triangle, cross, diamond, bar

        /// The path of the shape centered on `(x, y)`.
        func path(x: Double, y: Double) -> String {
            func point(_ dx: Double, _ dy: Double) -> String {
                SVGText.number(x + dx) + " " + SVGText.number(y + dy)
            }
            switch self {
            case .triangle: return "M\(point(0, -6)) L\(point(5, 5)) L\(point(-5, 5)) Z"
            case .cross:
                return "M\(point(-4, -4)) L\(point(4, 4)) M\(point(-4, 4)) L\(point(4, -4))"
            case .diamond:
                return "M\(point(0, -6)) L\(point(5, 0)) L\(point(0, 6)) L\(point(-5, 0)) Z"
            case .bar:
                return "M\(point(-1, -7)) L\(point(1, -7)) L\(point(1, 7)) L\(point(-1, 7)) Z"
            }
        }
    }

    /// How one kind of marker looks, and its `data-kind`.
    struct MarkerStyle {
        var kind: String
        var shape: Shape
        var color: String
    }

    enum Style {
        static func state(_ state: RunPicture.AppState) -> String {
            switch state {
            case .foreground: "#2b6cb0"
            case .background: "#4fa3e0"
            case .suspended: "#b9b4dc"
            case .notRunning: "#e2e5ea"
            }
        }

        static func service(_ lane: RunPicture.ServiceLane) -> String {
            switch lane {
            case .liveUpdates: "#2c7a7b"
            case .standardUpdates: "#38a169"
            case .sessions: "#805ad5"
            case .significantChange: "#dd6b20"
            case .monitoring: "#b7791f"
            }
        }

        static func fix(_ fate: RunPicture.FixFate) -> String {
            switch fate {
            case .stored: "#276749"
            case .delivered: "#3182ce"
            case .lost: "#e53e3e"
            }
        }

        static func marker(_ kind: RunPicture.MarkerKind) -> MarkerStyle {
            switch kind {
            case .launch: MarkerStyle(kind: "launch", shape: .triangle, color: "#2b6cb0")
            case .relaunch: MarkerStyle(kind: "relaunch", shape: .triangle, color: "#c05621")
            case .termination: MarkerStyle(kind: "termination", shape: .cross, color: "#1a202c")
            }
        }

        static func action(_ source: RunPicture.ActionSource) -> MarkerStyle {
            switch source {
            case .user: MarkerStyle(kind: "user", shape: .bar, color: "#4a5568")
            case .system: MarkerStyle(kind: "system", shape: .bar, color: "#9c4221")
            case .network: MarkerStyle(kind: "network", shape: .bar, color: "#285e61")
            }
        }

        static let violation = MarkerStyle(kind: "violation", shape: .diamond, color: "#c53030")
    }
}
