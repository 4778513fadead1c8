// Core Location's value types: Apple's raw values, initializers and behaviour, and dates from
// virtual time.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: Core Location values")
struct CoreLocationValueTests {
    @Test("the enums carry Apple's raw values")
    func rawValues() {
        #expect(CLAuthorizationStatus.notDetermined.rawValue == 0)
        #expect(CLAuthorizationStatus.restricted.rawValue == 1)
        #expect(CLAuthorizationStatus.denied.rawValue == 2)
        #expect(CLAuthorizationStatus.authorizedAlways.rawValue == 3)
        #expect(CLAuthorizationStatus.authorizedWhenInUse.rawValue == 4)
        #expect(CLAccuracyAuthorization.reducedAccuracy.rawValue == 1)
        #expect(CLActivityType.other.rawValue == 1 && CLActivityType.airborne.rawValue == 5)
        #expect(CLRegionState.inside.rawValue == 1 && CLRegionState.outside.rawValue == 2)
        #expect(CLError.Code.denied.rawValue == 1)
        #expect(CLError.Code.regionMonitoringFailure.rawValue == 5)
        #expect(kCLLocationAccuracyBest == -1 && kCLLocationAccuracyBestForNavigation == -2)
        #expect(kCLDistanceFilterNone == -1 && kCLLocationAccuracyThreeKilometers == 3_000)
    }

    @Test("CLLocation's initializers keep what they are given; distance(from:) is great-circle")
    func locations() {
        let date = VirtualClock.startDate.addingTimeInterval(90)
        let start = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 51.5, longitude: 0),
            altitude: 12, horizontalAccuracy: 5, verticalAccuracy: 3, course: 90,
            courseAccuracy: 2, speed: 13.5, speedAccuracy: 0.5, timestamp: date)
        #expect(start.altitude == 12 && start.course == 90 && start.speedAccuracy == 0.5)
        #expect(start.timestamp == date && start.floor == nil && start.lifelineFix == nil)
        let north = CLLocation(latitude: 51.501, longitude: 0)
        // 0.001° of latitude on the mean sphere: 111.2 m.
        #expect(abs(start.distance(from: north) - 111.19) < 0.05)
        #expect(north.distance(from: start) == start.distance(from: north))
        let plain = CLLocation(
            coordinate: CLLocationCoordinate2DMake(1, 2), altitude: 0, horizontalAccuracy: 10,
            verticalAccuracy: -1, timestamp: date)
        #expect(plain.speed == -1 && plain.course == -1, "unknown values are negative")
    }

    @Test("CLLocationCoordinate2DIsValid accepts ±90/±180 and rejects the invalid coordinate")
    func coordinateValidity() {
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 90, longitude: 180)))
        #expect(!CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid))
        #expect(!CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 91, longitude: 0)))
        #expect(CLLocationCoordinate2DIsValid(CLLocationCoordinate2D()))
    }

    @Test("CLError is thrown as any Error and cast back, matched by code, bridged to NSError")
    func errors() {
        let error: any Error = CLError(.denied)
        #expect((error as? CLError)?.code == .denied)
        #expect((error as NSError).domain == kCLErrorDomain)
        #expect((error as NSError).code == 1)
        var matched = false
        do { throw error } catch CLError.denied { matched = true } catch {}
        #expect(matched)
        switch error {
        case CLError.regionMonitoringFailure: Issue.record("wrong code matched")
        default: break
        }
    }

    @Test("regions are equal and hashed by identifier; a circle contains what lies within it")
    func regions() {
        let center = CLLocationCoordinate2D(latitude: 51.5, longitude: 0)
        let one = CLCircularRegion(center: center, radius: 100, identifier: "home")
        let other = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 0, longitude: 0), radius: 5,
            identifier: "home")
        #expect(one == other)
        #expect(Set<CLRegion>([one, other]).count == 1)
        #expect(one.notifyOnEntry && one.notifyOnExit)
        #expect(one.contains(CLLocationCoordinate2D(latitude: 51.5008, longitude: 0)))
        #expect(!one.contains(CLLocationCoordinate2D(latitude: 51.5010, longitude: 0)))
    }

    @Test("virtual time as Date: the start is 2026-01-01 UTC, and instants map both ways")
    func virtualClock() {
        #expect(VirtualClock.startDate.timeIntervalSince1970 == 1_767_225_600)
        let instant = Instant.start + .milliseconds(90_250)
        #expect(VirtualClock.date(instant).timeIntervalSince(VirtualClock.startDate) == 90.25)
        #expect(VirtualClock.instant(VirtualClock.date(instant)) == instant)
    }
}
