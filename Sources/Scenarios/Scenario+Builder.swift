// Writing a scenario in Swift (layer 5): the builder's mutating helpers, so a test reads like
// the scenario file it prints.
import Simulation
import World

extension Scenario {
    /// A scenario from the defaults, changed by `body`:
    ///
    ///     Scenario.build {
    ///         $0.engine = ScenarioEngine(.session)
    ///         $0.drive(.minutes(10), speed: 13.9)
    ///         $0.at(.minutes(2), .leave)
    ///     }
    public static func build(_ body: (inout Scenario) -> Void) -> Scenario {
        var scenario = Scenario()
        body(&scenario)
        return scenario
    }

    /// Adds `event` at `offset` from the start, after any event already at that time.
    public mutating func at(_ offset: VirtualDuration, _ event: UserAction) {
        events.append(TimedEvent(at: offset, event))
    }

    /// Sets the policy's preset (`IOSPolicy.presetNames`).
    public mutating func policy(_ preset: String) {
        policy.preset = preset
    }

    /// Overrides one property of the policy by key, with its value as a file writes it
    /// (`override("whenInUseGrace", "5s")`); a key set before is replaced in place.
    public mutating func override(_ key: String, _ value: String) {
        if let index = policy.overrides.firstIndex(where: { $0.key == key }) {
            policy.overrides[index].value = value
        } else {
            policy.overrides.append(ScenarioPolicy.Override(key, value))
        }
    }

    /// Drives for `duration` at `speed` metres per second, turning by `turn` degrees first.
    public mutating func drive(_ duration: VirtualDuration, speed: Double, turn: Double = 0) {
        append(
            Route.Segment(.drive, duration, speedMetersPerSecond: speed, headingChangeDegrees: turn)
        )
    }

    /// Walks for `duration` at `speed` metres per second, turning by `turn` degrees first.
    public mutating func walk(_ duration: VirtualDuration, speed: Double, turn: Double = 0) {
        append(
            Route.Segment(.walk, duration, speedMetersPerSecond: speed, headingChangeDegrees: turn))
    }

    /// Stays still for `duration`.
    public mutating func park(_ duration: VirtualDuration) {
        append(Route.Segment(.park, duration))
    }

    /// Adds a segment to a route of segments (a GPX route becomes one of segments from the
    /// default start).
    private mutating func append(_ segment: Route.Segment) {
        switch route {
        case .segments(let start, let heading, let segments):
            route = .segments(start: start, headingDegrees: heading, segments + [segment])
        case .gpx:
            route = .segments(
                start: Scenario.defaultStart, headingDegrees: Scenario.defaultHeadingDegrees,
                [segment])
        }
    }
}
