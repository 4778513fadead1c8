// `CLLocationManager` through the simulation: background delivery, relaunch with the
// `.location` launch option, regions after a relaunch, authorization callbacks, the R-A9
// assertion, and a subclass made in a unit test.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: CLLocationManager")
struct CLLocationManagerTests {
    @Test(
        "R-A8: with allowsBackgroundLocationUpdates, didUpdateLocations goes on in the background, stamped in virtual time"
    )
    func backgroundDelivery() {
        let (world, journal) = runProbe(
            until: 120, actions: [(0, .open), (5, .leave)]
        ) { app, _ in
            let manager = app.makeManager()
            manager.allowsBackgroundLocationUpdates = true
            manager.pausesLocationUpdatesAutomatically = false
            manager.startUpdatingLocation()
        }
        let fixes = world.log.compactMap { entry -> Fix? in
            if case .location(let update) = entry.kind { update.fix } else { nil }
        }
        let background = journal.locations.filter {
            $0.timestamp > VirtualClock.startDate.addingTimeInterval(6)
        }
        #expect(background.count > 100, "a fix a second for nearly two minutes")
        #expect(journal.locations.count == fixes.count, "every fix handed reached the delegate")
        #expect(journal.locations.map(\.timestamp) == fixes.map { VirtualClock.date($0.instant) })
        #expect(journal.locations.map(\.lifelineFix) == fixes)
        #expect(journal.locations.allSatisfy { abs($0.speed - 20) < 1e-9 })
    }

    @Test(
        "R-A8: without allowsBackgroundLocationUpdates, an Always app gets nothing in the background"
    )
    func foregroundOnlyByDefault() {
        let (_, journal) = runProbe(until: 120, actions: [(0, .open), (5, .leave)]) { app, _ in
            app.makeManager().startUpdatingLocation()
        }
        let late = journal.locations.filter {
            $0.timestamp > VirtualClock.startDate.addingTimeInterval(30)
        }
        #expect(!journal.locations.isEmpty)
        #expect(late.isEmpty)
    }

    @Test(
        "R-B5, R-A11: significant change relaunches a force-quit app into the background with the .location launch option"
    )
    func relaunchWithLocationOption() {
        let (world, journal) = runProbe(
            route: drive(50, parkedFor: .seconds(60)), until: 400,
            actions: [(0, .open), (10, .leave), (20, .forceQuit)]
        ) { app, application in
            app.makeManager().startMonitoringSignificantLocationChanges()
        }
        let launches = journal.notes.filter { $0.hasPrefix("didFinishLaunching") }
        #expect(launches.first == "didFinishLaunching inactive")
        #expect(launches.dropFirst().first == "didFinishLaunching location background")
        #expect(
            world.log.contains {
                if case .launch(let c) = $0.kind { c.state == .background } else { false }
            })
        #expect(journal.notes.contains("locations 1"), "the relaunched manager gets the change")
    }

    @Test(
        "R-B6, R-G5: a region registered in one process is in the next process's monitoredRegions and reaches its new manager as a CLCircularRegion"
    )
    func regionAfterRelaunch() {
        let (_, journal) = runProbe(
            route: drive(20, parkedFor: .seconds(60)), until: 300,
            actions: [(0, .open), (10, .leave), (20, .forceQuit)]
        ) { app, _ in
            let manager = app.makeManager()
            if app.journal.launches == 1 {
                manager.startMonitoring(
                    for: CLCircularRegion(
                        center: CLLocationCoordinate2D(
                            latitude: home.latitude, longitude: home.longitude),
                        radius: 100, identifier: "home"))
                #expect(manager.monitoredRegions.map(\.identifier) == ["home"])
            } else {
                let regions = manager.monitoredRegions.compactMap { $0 as? CLCircularRegion }
                #expect(regions.map(\.identifier) == ["home"], "the system keeps it (R-G5)")
                #expect(regions.map(\.radius) == [100])
            }
        }
        #expect(journal.launches == 2)
        #expect(journal.notes.contains("exit home circular"))
    }

    @Test(
        "a region exit in the process that registered it arrives as the app's CLCircularRegion; notifyOnExit false silences it"
    )
    func regionInSameProcess() {
        for notify in [true, false] {
            let (_, journal) = runProbe(
                route: drive(20, parkedFor: .seconds(30)), until: 300, actions: [(0, .open)]
            ) { app, _ in
                let region = CLCircularRegion(
                    center: CLLocationCoordinate2D(
                        latitude: home.latitude, longitude: home.longitude),
                    radius: 100, identifier: "home")
                region.notifyOnExit = notify
                app.makeManager().startMonitoring(for: region)
            }
            #expect(journal.notes.contains("exit home circular") == notify)
        }
    }

    @Test(
        "R-A4: a When In Use app without background configuration, kept running by a test host, gets CLError.denied through didFailWithError once the grace is over"
    )
    func accessLost() {
        let (_, journal) = runProbe(
            authorization: .whenInUse, until: 60,
            actions: [(0, .attachTestHost(true)), (0, .open), (5, .leave)]
        ) { app, _ in
            app.makeManager().startUpdatingLocation()
        }
        #expect(journal.notes.contains("failed 1"))
    }

    @Test(
        "a change of authorization reaches locationManagerDidChangeAuthorization with the new status"
    )
    func authorizationChange() {
        let (_, journal) = runProbe(
            until: 60, actions: [(0, .open), (20, .setAuthorization(.denied))]
        ) { app, _ in
            app.makeManager().startUpdatingLocation()
        }
        #expect(journal.notes.contains("authorization 2"))
    }

    @Test(
        "a delegate with only the legacy didChangeAuthorization gets it; one with both gets only the new one"
    )
    func legacyAuthorizationCallback() {
        final class Legacy: NSObject, CLLocationManagerDelegate {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
            func locationManager(
                _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
            ) { journal.note("legacy \(status.rawValue)") }
        }
        final class Both: NSObject, CLLocationManagerDelegate {
            let journal: Journal
            init(journal: Journal) { self.journal = journal }
            func locationManager(
                _ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus
            ) { journal.note("legacy \(status.rawValue)") }
            func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
                journal.note("new \(manager.authorizationStatus.rawValue)")
            }
        }
        let legacyJournal = Journal()
        let bothJournal = Journal()
        _ = runProbe(until: 30, actions: [(0, .open), (10, .setAuthorization(.whenInUse))]) {
            app, _ in
            let legacy = Legacy(journal: legacyJournal)
            let both = Both(journal: bothJournal)
            app.keptDelegates = [legacy, both]
            let first = CLLocationManager()
            first.delegate = legacy
            let second = CLLocationManager()
            second.delegate = both
            app.extraManagers = [first, second]
        }
        // At creation (Always, 3), then the change (When In Use, 4).
        #expect(legacyJournal.notes == ["legacy 3", "legacy 4"])
        #expect(bothJournal.notes == ["new 3", "new 4"])
    }

    @Test(
        "a new manager's delegate is told the initial authorization once, after the launch callback returns"
    )
    func authorizationAtCreation() {
        let (_, journal) = runProbe(
            authorization: .whenInUse, until: 30, actions: [(0, .open), (10, .leave), (20, .open)]
        ) { app, _ in
            _ = app.makeManager()
        }
        #expect(
            Array(journal.notes.prefix(4)) == [
                "willFinishLaunching inactive", "didFinishLaunching inactive",
                "didBecomeActive active", "authorization 4",
            ])
        #expect(journal.notes.filter { $0.hasPrefix("authorization") }.count == 1)
    }

    /// A minute's drive, twenty minutes parked, five minutes' drive.
    static let stopAndGo = Route(
        start: home, headingDegrees: 90,
        segments: [
            .init(.drive, .minutes(1), speedMetersPerSecond: 10), .init(.park, .minutes(20)),
            .init(.drive, .minutes(5), speedMetersPerSecond: 10),
        ])

    @Test(
        "R-F4: the automatic pause, twenty minutes parked, reaches locationManagerDidPauseLocationUpdates once"
    )
    func automaticPause() {
        let (_, journal) = runProbe(
            route: Self.stopAndGo, until: 1_400, actions: [(0, .open), (5, .leave), (1_200, .open)]
        ) { app, _ in
            let manager = app.makeManager()
            manager.allowsBackgroundLocationUpdates = true
            manager.startUpdatingLocation()
        }
        #expect(journal.notes.filter { $0 == "paused" || $0 == "resumed" } == ["paused"])
    }

    @Test(
        "R-F9: visits reach didVisit as CLVisit, an arrival with no departure yet and a departure with no arrival"
    )
    func visits() {
        let (_, journal) = runProbe(
            route: Self.stopAndGo, until: 1_500, actions: [(0, .open), (5, .leave)]
        ) { app, _ in
            app.makeManager().startMonitoringVisits()
        }
        let visits = journal.notes.filter { $0.hasPrefix("arrival") || $0.hasPrefix("departure") }
        #expect(visits.count == 2, "\(visits)")
        #expect(visits.first?.hasPrefix("arrival") == true)
        #expect(visits.last?.hasPrefix("departure") == true)
    }

    @Test(
        "R-A9: allowsBackgroundLocationUpdates without the location background mode ends the process"
    )
    func assertionWithoutMode() {
        let (world, journal) = runProbe(
            capabilities: AppCapabilities(locationBackgroundMode: false, sceneBased: false),
            until: 30, actions: [(0, .open)]
        ) { app, _ in
            app.makeManager().allowsBackgroundLocationUpdates = true
        }
        #expect(world.log.contains { if case .crashed = $0.kind { true } else { false } })
        #expect(journal.locations.isEmpty)
    }

    @Test(
        "a team's test subclasses CLLocationManager and overrides monitoredRegions and startMonitoring(for:), outside any process"
    )
    func subclassInUnitTest() {
        final class FakeManager: CLLocationManager {
            var started: [CLRegion] = []
            override var monitoredRegions: Set<CLRegion> { Set(started) }
            override func startMonitoring(for region: CLRegion) { started.append(region) }
        }
        let fake = FakeManager()
        let region = CLCircularRegion(
            center: CLLocationCoordinate2D(latitude: 1, longitude: 2), radius: 50,
            identifier: "office")
        fake.startMonitoring(for: region)
        #expect(fake.monitoredRegions == [region])
        #expect(fake.authorizationStatus == .notDetermined, "a detached manager")
        #expect(fake.desiredAccuracy == kCLLocationAccuracyBest)
        #expect(fake.distanceFilter == kCLDistanceFilterNone)
        #expect(fake.pausesLocationUpdatesAutomatically && !fake.allowsBackgroundLocationUpdates)
        #expect(CLLocationManager.locationServicesEnabled())
    }
}
