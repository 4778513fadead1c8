// The geodesy's shortcuts give the bits of the long way: the region crossing bracketed before
// its bisection, the route cursor, the cached cosines, the nearer-than test measured from either
// end, and the reduction's rounding without libm. Each is compared with the long way written
// out here, over seeded random routes, regions and values (the seed is printed on a failure).
import Simulation
import Testing

@testable import World

@Suite("Geodesy shortcuts")
struct GeodesyShortcutTests {
    static let seed: UInt64 = 20_261_207

    /// A drive, a park and a walk from a random place, with random turns: legs of a minute.
    private func randomRoute(_ random: inout SplitMix64) -> Route {
        let start = Coordinate(
            latitude: Double.random(in: -70...70, using: &random),
            longitude: Double.random(in: -179...179, using: &random))
        var segments: [Route.Segment] = []
        for _ in 0..<Int.random(in: 2...6, using: &random) {
            let minutes = Int64.random(in: 1...12, using: &random)
            switch Int.random(in: 0...2, using: &random) {
            case 0:
                segments.append(
                    .init(
                        .drive, .minutes(minutes),
                        speedMetersPerSecond: Double.random(in: 3...35, using: &random),
                        headingChangeDegrees: Double.random(in: -120...120, using: &random)))
            case 1:
                segments.append(
                    .init(
                        .walk, .minutes(minutes),
                        speedMetersPerSecond: Double.random(in: 0.2...2, using: &random),
                        headingChangeDegrees: Double.random(in: -170...170, using: &random)))
            default: segments.append(.init(.park, .minutes(minutes)))
            }
        }
        return Route(
            start: start, headingDegrees: Double.random(in: 0..<360, using: &random),
            segments: segments)
    }

    /// `firstInstant(after:fartherThan:from:)` the long way: every leg's end measured, and
    /// every step of the bisection.
    private func bisected(
        _ route: Route, after start: Instant, fartherThan meters: Double, from point: Coordinate
    ) -> Instant? {
        if route.position(at: start).distance(to: point) > meters { return start }
        var index = route.waypointIndex(atOrBefore: start)
        while index + 1 < route.waypoints.count {
            let end = route.waypoints[index + 1]
            if end.instant > start, end.coordinate.distance(to: point) > meters {
                var low = max(start, route.waypoints[index].instant)
                var high = end.instant
                while (high - low).nanoseconds > 1_000_000 {
                    let middle = low + .nanoseconds((high - low).nanoseconds / 2)
                    if route.position(at: middle).distance(to: point) > meters {
                        high = middle
                    } else {
                        low = middle
                    }
                }
                return high
            }
            index += 1
        }
        return nil
    }

    @Test("a region crossing bracketed in the plane is the bisection's instant, to the nanosecond")
    func crossingBracket() {
        var random = SplitMix64(seed: Self.seed)
        var crossings = 0
        for _ in 0..<150 {
            let route = randomRoute(&random)
            for _ in 0..<12 {
                let start =
                    route.waypoints[0].instant
                    + .nanoseconds(
                        Int64.random(
                            in: 0...(route.endInstant - route.waypoints[0].instant).nanoseconds,
                            using: &random))
                // Around the position then (as a wake region is) or a little off it.
                let here = route.position(at: start)
                let center = here.offset(
                    northMeters: Double.random(in: -40...40, using: &random),
                    eastMeters: Double.random(in: -40...40, using: &random))
                let meters = [50.0, 100, 150, 500, 2_000][Int.random(in: 0...4, using: &random)]
                let expected = bisected(route, after: start, fartherThan: meters, from: center)
                let found = route.firstInstant(after: start, fartherThan: meters, from: center)
                #expect(
                    found == expected,
                    "seed \(Self.seed): \(meters) m around \(center) after \(start)")
                if expected != nil { crossings += 1 }
            }
        }
        #expect(crossings > 500, "the routes cross their regions often enough to test it")
    }

    @Test("the route cursor finds the state a search finds, to the bit, from any leg")
    func routeCursor() {
        var random = SplitMix64(seed: Self.seed + 1)
        for _ in 0..<40 {
            let route = randomRoute(&random)
            let first = route.waypoints[0].instant
            let span = (route.endInstant - first).nanoseconds
            var leg = 0
            var instant = first
            for _ in 0..<300 {
                // Mostly forward a fix interval, sometimes a jump either way or past the end.
                let step: Int64 =
                    Int.random(in: 0..<10, using: &random) == 0
                    ? Int64.random(in: -span...(span + 60_000_000_000), using: &random)
                    : 1_000_000_000
                instant = Instant(
                    nanosecondsSinceStart: max(0, instant.nanosecondsSinceStart + step))
                let searched = route.state(at: instant)
                let cursor = route.state(at: instant, leg: &leg)
                #expect(
                    searched.coordinate.latitude.bitPattern == cursor.coordinate.latitude.bitPattern
                )
                #expect(
                    searched.coordinate.longitude.bitPattern
                        == cursor.coordinate.longitude.bitPattern)
                #expect(searched.speedMetersPerSecond == cursor.speedMetersPerSecond)
                #expect(leg == route.waypointIndex(atOrBefore: instant))
            }
        }
    }

    @Test("nearer than a threshold, measured from either end, is distance < threshold")
    func nearerFromEitherEnd() {
        var random = SplitMix64(seed: Self.seed + 2)
        for _ in 0..<4_000 {
            let center = Coordinate(
                latitude: Double.random(in: -80...80, using: &random),
                longitude: Double.random(in: -180..<180, using: &random))
            let meters = Double.random(in: 1...200, using: &random)
            // Many points right at the threshold, where only the measurement can tell.
            let distance = meters * Double.random(in: 0.999_999_99...1.000_000_01, using: &random)
            let bearing = Double.random(in: 0..<360, using: &random)
            let point = center.destination(headingDegrees: bearing, distanceMeters: distance)
            let probe = DistanceProbe(center)
            #expect(
                probe.isNearer(than: DistanceThreshold(meters), to: point)
                    == (center.distance(to: point) < meters),
                "seed \(Self.seed + 2): \(point) and \(center) at \(meters) m")
            #expect(
                center.distance(to: point).bitPattern == point.distance(to: center).bitPattern)
        }
    }

    @Test("an offset with its latitude's cosine given is the offset, to the bit")
    func offsetWithCosine() {
        var random = SplitMix64(seed: Self.seed + 3)
        for _ in 0..<1_000 {
            let place = Coordinate(
                latitude: Double.random(in: -85...85, using: &random),
                longitude: Double.random(in: -180..<180, using: &random))
            let north = Double.random(in: -50...50, using: &random)
            let east = Double.random(in: -50...50, using: &random)
            let plain = place.offset(northMeters: north, eastMeters: east)
            let given = place.offset(
                northMeters: north, eastMeters: east,
                cosφ: PortableMath.cos(place.latitude * .pi / 180))
            #expect(plain.latitude.bitPattern == given.latitude.bitPattern)
            #expect(plain.longitude.bitPattern == given.longitude.bitPattern)
        }
    }

    @Test("the reduction's rounding is rounded(), halves away from zero included")
    func reductionRounding() {
        var random = SplitMix64(seed: Self.seed + 4)
        var values: [Double] = [0, 0.5, 1.5, 2.5, 0.499_999_999_999_999_94, 1_048_576.5]
        for whole in 0..<2_000 { values.append(Double(whole) + 0.5) }
        for _ in 0..<20_000 { values.append(Double.random(in: 0...1_100_000, using: &random)) }
        for value in values {
            #expect(
                PortableMath.roundedHalfAway(value) == value.rounded(), "seed \(Self.seed + 4)")
        }
    }
}
