// Apple's value classes as teams' tests use them: subclassed with properties overridden, made
// with `init()`, and errors caught by their codes.
import Foundation
import LifelineKit
import Testing

/// A visit a team's test makes by overriding Apple's open properties.
final class FakeVisit: CLVisit, @unchecked Sendable {
    let arrival: Date
    init(arrival: Date) {
        self.arrival = arrival
        super.init()
    }
    override var arrivalDate: Date { arrival }
}

/// A region double whose identifier and centre are overridden.
final class MockCircularRegion: CLCircularRegion, @unchecked Sendable {
    override var identifier: String { "mock" }
    override var center: CLLocationCoordinate2D {
        CLLocationCoordinate2D(latitude: 10, longitude: 20)
    }
}

/// A location double that reports a spoofed source.
final class SpoofedLocation: CLLocation, @unchecked Sendable {
    override var sourceInformation: CLLocationSourceInformation? {
        CLLocationSourceInformation(softwareSimulationState: true, andExternalAccessoryState: false)
    }
}

@Suite("LifelineKit: test doubles and error shapes")
struct TestDoubleShapesTests {
    @Test("CLVisit, CLCircularRegion and CLLocation subclasses override Apple's open properties")
    func overriddenProperties() {
        let visit: CLVisit = FakeVisit(arrival: Date(timeIntervalSince1970: 1_000))
        #expect(visit.arrivalDate == Date(timeIntervalSince1970: 1_000))
        #expect(visit.departureDate == .distantFuture)
        #expect(!CLLocationCoordinate2DIsValid(CLVisit().coordinate))

        let region: CLRegion = MockCircularRegion(
            center: CLLocationCoordinate2D(latitude: 0, longitude: 0), radius: 100,
            identifier: "real")
        #expect(region.identifier == "mock")
        #expect((region as? CLCircularRegion)?.center.latitude == 10)
        #expect((region as? CLCircularRegion)?.radius == 100)

        let location: CLLocation = SpoofedLocation()
        #expect(location.sourceInformation?.isSimulatedBySoftware == true)
        #expect(location.coordinate.latitude == 0 && location.coordinate.longitude == 0)
        #expect(CLLocation(latitude: 1, longitude: 2).sourceInformation == nil)
    }

    @Test("CLLocation's iOS 15 initializer keeps its source information")
    func sourceInfoInitializer() {
        let location = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 51.5, longitude: -0.12), altitude: 12,
            horizontalAccuracy: 5, verticalAccuracy: 3, course: 90, courseAccuracy: 2,
            speed: 13.9, speedAccuracy: 0.5, timestamp: Date(timeIntervalSince1970: 60),
            sourceInfo: CLLocationSourceInformation(
                softwareSimulationState: false, andExternalAccessoryState: true))
        #expect(location.sourceInformation?.isProducedByAccessory == true)
        #expect(location.sourceInformation?.isSimulatedBySoftware == false)
        #expect(location.speedAccuracy == 0.5 && location.courseAccuracy == 2)
        #expect(location.altitude == 12 && location.verticalAccuracy == 3)
    }

    @Test("every CLError code is a static member, and an error carries its user info")
    func clErrorShape() {
        let error: any Error = CLError(.regionMonitoringSetupDelayed, userInfo: ["why": "slow"])
        var caught = ""
        switch error {
        case CLError.regionMonitoringSetupDelayed: caught = "setup delayed"
        case CLError.headingFailure: caught = "heading"
        default: caught = "other"
        }
        #expect(caught == "setup delayed")
        #expect((error as? CLError)?.userInfo["why"] as? String == "slow")
        #expect(CLError.historicalLocationError.rawValue == 19)
        #expect(CLError(.denied) == CLError(.denied, userInfo: ["a": 1]))
        #expect((error as NSError).domain == kCLErrorDomain)
    }

    @Test("BGTaskScheduler.Error is caught by its code and bridges to its domain")
    func taskSchedulerErrorShape() {
        func submit() throws { throw BGTaskScheduler.Error(.notPermitted) }
        var caught = ""
        do { try submit() } catch BGTaskScheduler.Error.notPermitted {
            caught = "not permitted"
        } catch { caught = "other" }
        #expect(caught == "not permitted")
        let bridged = BGTaskScheduler.Error(.unavailable) as NSError
        #expect(bridged.domain == "BGTaskSchedulerErrorDomain" && bridged.code == 1)
        #expect(BGTaskScheduler.Error.immediateRunIneligible.rawValue == 4)
    }
}

@Suite("LifelineKit: CLCondition is Codable")
struct ConditionCodingTests {
    @Test("a circular condition round-trips through JSON, as a team persists it")
    func circularConditionRoundTrips() throws {
        let condition = CLMonitor.CircularGeographicCondition(
            center: CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.1246), radius: 150)
        let data = try JSONEncoder().encode(condition)
        let decoded = try JSONDecoder().decode(
            CLMonitor.CircularGeographicCondition.self, from: data)
        #expect(decoded == condition)
        #expect(String(decoding: data, as: UTF8.self).contains("\"radius\":150"))
    }
}

@Suite("LifelineKit: CLLocation archives")
struct LocationArchiveTests {
    @Test("a delivered location kept with NSKeyedArchiver reads back the same, the world's fix too")
    func deliveredLocationRoundTrips() throws {
        let (_, journal) = runProbe(until: 30, actions: [(0, .open)]) { app, _ in
            app.makeManager().startUpdatingLocation()
        }
        let delivered = try #require(journal.locations.last)
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: delivered, requiringSecureCoding: true)
        let restored = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: data))
        #expect(restored.lifelineFix != nil)
        #expect(restored.lifelineFix == delivered.lifelineFix)
        #expect(restored.timestamp == delivered.timestamp)
        #expect(restored.coordinate.latitude == delivered.coordinate.latitude)
        #expect(restored.horizontalAccuracy == delivered.horizontalAccuracy)
        #expect(restored.speed == delivered.speed && restored.sourceInformation == nil)
    }

    @Test("a location the app made keeps its values and source, and no world fix")
    func madeLocationRoundTrips() throws {
        let made = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 1.5, longitude: 2.5), altitude: 7,
            horizontalAccuracy: 4, verticalAccuracy: 2, course: 180, courseAccuracy: 3,
            speed: 9, speedAccuracy: 1, timestamp: Date(timeIntervalSinceReferenceDate: 100),
            sourceInfo: CLLocationSourceInformation(
                softwareSimulationState: true, andExternalAccessoryState: false))
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: made, requiringSecureCoding: true)
        let restored = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: data))
        #expect(restored.lifelineFix == nil)
        #expect(restored.altitude == 7 && restored.course == 180 && restored.courseAccuracy == 3)
        #expect(restored.speedAccuracy == 1 && restored.verticalAccuracy == 2)
        #expect(restored.timestamp == Date(timeIntervalSinceReferenceDate: 100))
        #expect(restored.sourceInformation?.isSimulatedBySoftware == true)
        #expect((made.copy() as? CLLocation) === made)
    }
}
