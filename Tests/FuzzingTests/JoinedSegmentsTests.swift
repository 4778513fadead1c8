// The generator tells a route as its shortest story: a segment that goes straight on from the
// one before is joined to it, and the route it describes is the same, waypoint for waypoint.
import Exploration
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Joined route segments")
struct JoinedSegmentsTests {
    @Test(
        "a drive going straight on at the same speed, and a park after a park, join the one before")
    func joins() {
        let segments: [Route.Segment] = [
            .init(.drive, .minutes(1), speedMetersPerSecond: 13.9),
            .init(.drive, .minutes(5), speedMetersPerSecond: 13.9),
            .init(.drive, .minutes(2), speedMetersPerSecond: 13.9, headingChangeDegrees: 90),
            .init(.drive, .minutes(2), speedMetersPerSecond: 25),
            .init(.park, .minutes(3)),
            .init(.park, .minutes(4)),
        ]
        #expect(
            ScenarioGenerator.joined(segments) == [
                .init(.drive, .minutes(6), speedMetersPerSecond: 13.9),
                .init(.drive, .minutes(2), speedMetersPerSecond: 13.9, headingChangeDegrees: 90),
                .init(.drive, .minutes(2), speedMetersPerSecond: 25),
                .init(.park, .minutes(7)),
            ])
    }

    @Test("every generated route is joined, and describes the same waypoints as its parts")
    func generatedRoutesAreJoined() {
        let generator = ScenarioGenerator(engine: .builtIn(.session))
        let segment = ScenarioGenerator.segment(minutesMax: generator.segmentMinutesMax)
        let scenarios = generator.scenarios
        var joinedSome = false
        for index in 0..<300 {
            let seed = Seed(3).derive(UInt64(index)).value
            let scenario = scenarios.generate(TestCase(seed: seed))
            if case .segments(_, _, let segments) = scenario.route {
                for (before, after) in zip(segments, segments.dropFirst()) {
                    #expect(
                        after.kind != before.kind
                            || after.speedMetersPerSecond != before.speedMetersPerSecond
                            || after.headingChangeDegrees != 0, "case \(index)")
                }
            }
            // Parts drawn as the generator draws them give the same route once joined.
            let draws = TestCase(seed: seed)
            let parts = (0..<4).map { _ in segment.generate(draws) }
            let start = Coordinate(latitude: 51.5007, longitude: -0.1246)
            let whole = Route(start: start, headingDegrees: 90, segments: parts)
            let joined = ScenarioGenerator.joined(parts)
            joinedSome = joinedSome || joined.count < parts.count
            #expect(
                Route(start: start, headingDegrees: 90, segments: joined).waypoints
                    == whole.waypoints, "case \(index)")
        }
        #expect(joinedSome)
    }
}
