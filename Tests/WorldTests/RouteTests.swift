// Routes and geodesy: positions and speeds along segments, and the look-ahead queries the
// location daemon schedules its timers with.
import Simulation
import Testing

@testable import World

@Suite("Routes")
struct RouteTests {
    @Test("great-circle distance matches a known value, and destination inverts it")
    func geodesy() {
        let london = Coordinate(latitude: 51.5007, longitude: -0.1246)
        let paris = Coordinate(latitude: 48.8584, longitude: 2.2945)
        #expect(abs(london.distance(to: paris) - 340_900) < 1_500)
        let there = london.destination(headingDegrees: 37, distanceMeters: 12_345)
        #expect(abs(london.distance(to: there) - 12_345) < 0.01)
        let nudged = london.offset(northMeters: 3, eastMeters: 4)
        #expect(abs(london.distance(to: nudged) - 5) < 0.001)
    }

    @Test("segments move at their speed and park still")
    func segments() {
        let route = Route(
            start: home, headingDegrees: 90,
            segments: [
                .init(.drive, .minutes(10), speedMetersPerSecond: 15), .init(.park, .minutes(5)),
                .init(.walk, .minutes(2), speedMetersPerSecond: 1.4, headingChangeDegrees: 90),
            ])
        #expect(abs(route.speed(at: .start + .minutes(3)) - 15) < 0.01)
        #expect(route.speed(at: .start + .minutes(12)) == 0)
        #expect(abs(route.speed(at: .start + .minutes(16)) - 1.4) < 0.01)
        #expect(abs(home.distance(to: route.position(at: .start + .minutes(10))) - 9_000) < 1)
        #expect(route.position(at: .start + .hours(5)) == route.waypoints.last!.coordinate)
        #expect(route.endInstant == .start + .minutes(17))
    }

    @Test("look-ahead: when the device passes a distance, moves again, and stays still")
    func lookahead() {
        let route = drive(10, parkedFor: .seconds(100))
        let crossing = route.firstInstant(after: .start, fartherThan: 500, from: home)!
        #expect(abs(crossing.secondsSinceStart - 150) < 0.01)
        #expect(route.firstInstant(after: .start, movingFasterThan: 0.5) == .start + .seconds(100))
        #expect(
            route.firstStillPeriod(after: .start, slowerThan: 0.5, lasting: .seconds(60)) == .start)
        #expect(
            route.firstStillPeriod(after: .start, slowerThan: 0.5, lasting: .seconds(200))
                == route.endInstant)
        #expect(route.firstInstant(after: .start, fartherThan: 1e9, from: home) == nil)
    }

    @Test("a position found within its leg is the position found by search, to the bit")
    func positionInLeg() {
        let route = Route(
            start: home, headingDegrees: 30,
            segments: [
                .init(.drive, .minutes(7), speedMetersPerSecond: 13.7),
                .init(.park, .minutes(3)),
                .init(.walk, .minutes(4), speedMetersPerSecond: 1.3, headingChangeDegrees: 75),
            ])
        for index in 0..<(route.waypoints.count - 1) {
            let from = route.waypoints[index].instant
            let to = route.waypoints[index + 1].instant
            for step in stride(from: Int64(0), to: (to - from).nanoseconds, by: 7_777_777_777) {
                let instant = from + .nanoseconds(step)
                let found = route.position(at: instant)
                let inLeg = route.position(at: instant, inLeg: index)
                #expect(found.latitude.bitPattern == inLeg.latitude.bitPattern)
                #expect(found.longitude.bitPattern == inLeg.longitude.bitPattern)
            }
        }
    }
}
