// swift-format-ignore-file: IdentifiersMustBeASCII

// (φ, λ, θ, δ: the names the great-circle formulas use.)
// Geodesy on portable trigonometry: known distances, destination and distance inverting each
// other, and positions pinned to the bit so that a change to them is a deliberate one.
import Foundation
import Simulation
import Testing

@testable import World

/// The haversine distance computed with the platform's libm, as a reference.
private func libmDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
    let φ1 = a.latitude * .pi / 180
    let φ2 = b.latitude * .pi / 180
    let Δφ = φ2 - φ1
    let Δλ = (b.longitude - a.longitude) * .pi / 180
    let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
    return 2 * Coordinate.earthRadiusMeters * atan2(h.squareRoot(), (1 - h).squareRoot())
}

@Suite("Geodesy")
struct GeodesyTests {
    /// A degree of a great circle on the mean sphere: 6,371,008.8 m × π/180 ≈ 111,195.08 m.
    let metersPerDegree = Coordinate.earthRadiusMeters * .pi / 180

    @Test("a degree of latitude, and of longitude on the equator, is 111,195 m")
    func oneDegree() {
        #expect(abs(metersPerDegree - 111_195.08) < 0.005)
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(
            abs(origin.distance(to: Coordinate(latitude: 1, longitude: 0)) - metersPerDegree)
                < 0.001)
        #expect(
            abs(origin.distance(to: Coordinate(latitude: 0, longitude: 1)) - metersPerDegree)
                < 0.001)
        let london = Coordinate(latitude: 51, longitude: -0.1246)
        #expect(
            abs(london.distance(to: Coordinate(latitude: 52, longitude: -0.1246)) - metersPerDegree)
                < 0.001)
        let north = london.destination(headingDegrees: 0, distanceMeters: metersPerDegree)
        #expect(abs(north.latitude - 52) < 1e-9 && abs(north.longitude - london.longitude) < 1e-9)
        let nudged = london.offset(northMeters: metersPerDegree, eastMeters: 0)
        #expect(abs(nudged.latitude - 52) < 1e-9)
    }

    @Test("destination then distance comes back within a millimetre, at any latitude and heading")
    func roundTrip() {
        for latitude in stride(from: -80.0, through: 80, by: 20) {
            for longitude in [-179.5, -0.1246, 97.3] {
                let start = Coordinate(latitude: latitude, longitude: longitude)
                for heading in stride(from: 0.0, to: 360, by: 15) {
                    for meters in [0.5, 100, 12_345, 500_000] {
                        let end = start.destination(headingDegrees: heading, distanceMeters: meters)
                        #expect(abs(start.distance(to: end) - meters) < 0.001)
                    }
                }
            }
        }
    }

    @Test("distances agree with libm's to well under a micrometre")
    func agreesWithLibm() {
        let london = Coordinate(latitude: 51.5007, longitude: -0.1246)
        for latitude in stride(from: -89.0, through: 89, by: 7.3) {
            for longitude in stride(from: -179.0, through: 179, by: 11.9) {
                let other = Coordinate(latitude: latitude, longitude: longitude)
                #expect(abs(london.distance(to: other) - libmDistance(london, other)) < 1e-6)
            }
        }
    }

    /// Changing these bits changes every replayed position: do it on purpose or not at all.
    @Test("London to Paris, and 12,345 m from London at 37°, are pinned to the bit")
    func pinned() {
        let london = Coordinate(latitude: 51.5007, longitude: -0.1246)
        let paris = Coordinate(latitude: 48.8584, longitude: 2.2945)
        let distance = london.distance(to: paris)
        #expect(distance.bitPattern == 0x4114_C8ED_8FD0_9F57)
        #expect(abs(distance - libmDistance(london, paris)) < 1e-6)
        let there = london.destination(headingDegrees: 37, distanceMeters: 12_345)
        #expect(there.latitude.bitPattern == 0x4049_CB6E_B76C_CF55)
        #expect(there.longitude.bitPattern == 0xBF91_7815_D6BB_BC8B)
        #expect(abs(libmDistance(london, there) - 12_345) < 1e-6)
        let nudged = london.offset(northMeters: 3, eastMeters: 4)
        let libmNudge = 4 / (metersPerDegree * cos(london.latitude * .pi / 180))
        #expect(abs(nudged.longitude - (london.longitude + libmNudge)) < 1e-12)
        #expect(nudged.longitude.bitPattern == 0xBFBF_E1FF_9B05_833B)
    }

    @Test("a distance probe measures and compares as Coordinate.distance does, to the bit")
    func probeAgreesWithDistance() {
        // The route lookahead's shortcuts (DistanceProbe, DistanceThreshold) must give the
        // answers of the plain distance, including at thresholds equal to a measured distance
        // and one unit in the last place either side of it.
        var random = Xoshiro256StarStar(seed: 3)
        for _ in 0..<400 {
            let center = Coordinate(
                latitude: random.nextUnitDouble() * 160 - 80,
                longitude: random.nextUnitDouble() * 360 - 180)
            let probe = DistanceProbe(center)
            let radius = [1.0, 50, 150, 1_000, 40_000][Int(random.next() % 5)]
            for _ in 0..<20 {
                let along = radius * (0.999 + random.nextUnitDouble() * 0.002)
                let point = center.destination(
                    headingDegrees: random.nextUnitDouble() * 360, distanceMeters: along)
                let measured = point.distance(to: center)
                #expect(probe.distance(from: point).bitPattern == measured.bitPattern)
                for meters in [radius, measured, measured.nextUp, measured.nextDown, along] {
                    #expect(
                        probe.isFarther(than: DistanceThreshold(meters), from: point)
                            == (measured > meters))
                }
            }
        }
    }
}
