// swift-format-ignore-file: IdentifiersMustBeASCII

// (φ, λ, θ, δ: the names the great-circle formulas use.)
// Positions on the Earth (layer 3): coordinates, great-circle distance and destination.
//
// No libm here: sin, cos, asin and atan2 come from `PortableMath`, built on IEEE-754 basic
// arithmetic alone. libm's last bits differ between platforms (glibc, Apple), and a position a
// bit off changes a distance filter, a region crossing or a timer, so a scenario recorded on a
// Mac would not replay the same trace on Linux. Every position is the same bits everywhere.
import Simulation

/// A WGS84 position in decimal degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The Earth's mean radius in metres (IUGG), for the spherical model.
    package static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres (haversine on the mean sphere; within 0.5 % of the
    /// ellipsoid, far finer than any location source's accuracy).
    public func distance(to other: Coordinate) -> Double {
        let φ2 = other.latitude * .pi / 180
        return distance(to: other, φ2: φ2, cosφ2: PortableMath.cos(φ2))
    }

    /// `distance(to: other)` given `other`'s latitude in radians, `φ2`, and its cosine, so that
    /// a caller measuring many distances to one point (`DistanceProbe`) computes that cosine
    /// once. The same operations in the same order: the same bits.
    @inline(__always)
    func distance(to other: Coordinate, φ2: Double, cosφ2: Double) -> Double {
        Self.distance(haversine: haversine(to: other, φ2: φ2, cosφ2: cosφ2))
    }

    /// The haversine of the central angle to `other` (`hav θ`, in 0...1 up to rounding), the
    /// first step of `distance(to:φ2:cosφ2:)`.
    @inline(__always)
    func haversine(to other: Coordinate, φ2: Double, cosφ2: Double) -> Double {
        let φ1 = latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * .pi / 180
        let sinHalfΔφ = PortableMath.sin(Δφ / 2)
        let sinHalfΔλ = PortableMath.sin(Δλ / 2)
        let cosφ1 = PortableMath.cos(φ1)
        return sinHalfΔφ * sinHalfΔφ + cosφ1 * cosφ2 * sinHalfΔλ * sinHalfΔλ
    }

    /// The distance in metres of a central angle whose haversine is `a`, the last step of
    /// `distance(to:φ2:cosφ2:)`.
    @inline(__always)
    static func distance(haversine a: Double) -> Double {
        2 * earthRadiusMeters * PortableMath.atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The position `distanceMeters` away along the initial bearing `headingDegrees`
    /// (0 = north, 90 = east).
    package func destination(headingDegrees: Double, distanceMeters: Double) -> Coordinate {
        let δ = distanceMeters / Self.earthRadiusMeters
        let θ = headingDegrees * .pi / 180
        let φ1 = latitude * .pi / 180
        let λ1 = longitude * .pi / 180
        let sinφ1 = PortableMath.sin(φ1)
        let cosφ1 = PortableMath.cos(φ1)
        let sinδ = PortableMath.sin(δ)
        let cosδ = PortableMath.cos(δ)
        let sinθ = PortableMath.sin(θ)
        let cosθ = PortableMath.cos(θ)
        let φ2 = PortableMath.asin(sinφ1 * cosδ + cosφ1 * sinδ * cosθ)
        let λ2 = λ1 + PortableMath.atan2(sinθ * sinδ * cosφ1, cosδ - sinφ1 * PortableMath.sin(φ2))
        var longitude = λ2 * 180 / .pi
        if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return Coordinate(latitude: φ2 * 180 / .pi, longitude: longitude)
    }

    /// The position `northMeters` north and `eastMeters` east, in the local flat frame (exact
    /// to well under a millimetre for the metres-to-kilometres offsets of fix noise).
    public func offset(northMeters: Double, eastMeters: Double) -> Coordinate {
        offset(
            northMeters: northMeters, eastMeters: eastMeters,
            cosφ: PortableMath.cos(latitude * .pi / 180))
    }

    /// `offset(northMeters:eastMeters:)` given the cosine of this latitude, `cosφ`
    /// (`PortableMath.cos(latitude * .pi / 180)`), for a caller that has it already.
    func offset(northMeters: Double, eastMeters: Double, cosφ: Double) -> Coordinate {
        let metersPerDegree = Self.earthRadiusMeters * .pi / 180
        return Coordinate(
            latitude: latitude + northMeters / metersPerDegree,
            longitude: longitude + eastMeters / (metersPerDegree * cosφ))
    }

    /// The position a fraction `t` (0...1) of the way to `other`, interpolated linearly in
    /// degrees (waypoints are close together; fine at that scale).
    package func interpolated(to other: Coordinate, fraction t: Double) -> Coordinate {
        Coordinate(
            latitude: latitude + (other.latitude - latitude) * t,
            longitude: longitude + (other.longitude - longitude) * t)
    }

    public var description: String {
        // Six decimals: about 0.1 m.
        "\(PlainText.fixed(latitude, digits: 6)),\(PlainText.fixed(longitude, digits: 6))"
    }
}

/// Distances to one fixed point, for the route lookahead that measures hundreds to a region's
/// center: the center's latitude cosine (a `PortableMath.cos` with argument reduction, the
/// dearest part of a distance) is computed once instead of at every distance.
package struct DistanceProbe {
    package let point: Coordinate
    private let φ: Double
    /// The cosine of the point's latitude.
    let cosφ: Double

    package init(_ point: Coordinate) {
        self.point = point
        φ = point.latitude * .pi / 180
        cosφ = PortableMath.cos(φ)
    }

    /// `coordinate.distance(to: point)`, bit for bit.
    @inline(__always)
    func distance(from coordinate: Coordinate) -> Double {
        coordinate.distance(to: point, φ2: φ, cosφ2: cosφ)
    }

    /// `distance(from: coordinate) > threshold.meters`, the same answer, mostly without the
    /// arctangent and square roots: the distance grows with the haversine, so a haversine
    /// clearly below or above the threshold's settles it; only one within a billionth of it
    /// (or a distance the threshold cannot settle) is measured in full.
    @inline(__always)
    func isFarther(than threshold: DistanceThreshold, from coordinate: Coordinate) -> Bool {
        let a = coordinate.haversine(to: point, φ2: φ, cosφ2: cosφ)
        if a < threshold.haversineBelow { return false }
        if a > threshold.haversineAbove && a <= 1 { return true }
        return Coordinate.distance(haversine: a) > threshold.meters
    }

    /// `point.distance(to: coordinate) < threshold.meters`, the same answer, as
    /// `isFarther(than:from:)` settles it: the haversine is the same bits either way round
    /// (each difference, and so each half-angle sine, only changes sign, and the two cosines
    /// are multiplied first), so a caller may measure from either end.
    @inline(__always)
    package func isNearer(than threshold: DistanceThreshold, to coordinate: Coordinate) -> Bool {
        let a = coordinate.haversine(to: point, φ2: φ, cosφ2: cosφ)
        if a < threshold.haversineBelow { return true }
        if a > threshold.haversineAbove && a <= 1 { return false }
        return Coordinate.distance(haversine: a) < threshold.meters
    }
}

/// A distance compared with many times (`DistanceProbe.isFarther(than:from:)`), with the
/// haversines that settle the comparison without measuring.
///
/// The distance of haversine `a` is 2R·asin(√a), increasing in `a`, and equals `meters` at
/// `a* = sin²(meters / 2R)`. The measured distance is within a few units in the last place of
/// the true one, and `a*` as computed here within a few of its own: any `a` below
/// `a*·(1 − 10⁻⁹)` measures at most `meters`, any `a` above `a*·(1 + 10⁻⁹)` (and at most 1,
/// where the square root of `1 − a` is defined) measures more, by margins a million times the
/// rounding. A threshold that is not positive or not below an Earth radius settles nothing.
package struct DistanceThreshold {
    package let meters: Double
    let haversineBelow: Double
    let haversineAbove: Double

    package init(_ meters: Double) {
        self.meters = meters
        let angle = meters / (2 * Coordinate.earthRadiusMeters)
        guard meters > 0, angle < 0.5 else {
            haversineBelow = -1
            haversineAbove = .infinity
            return
        }
        let sine = PortableMath.sin(angle)
        haversineBelow = sine * sine * (1 - 1e-9)
        haversineAbove = sine * sine * (1 + 1e-9)
    }
}
