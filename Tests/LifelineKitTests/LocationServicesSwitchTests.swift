// The user's Location Services switch for the whole phone (R-L40–R-L42), through LifelineKit:
// `locationServicesEnabled()` reads it, and the app's delegate hears `denied` when it goes off
// and its own authorization back when it comes on, as iOS sends them; updates stop meanwhile.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

@Suite("LifelineKit: the Location Services switch (R-L40–R-L42)")
struct LocationServicesSwitchTests {
    /// A scenario with the switch turned off at 20 s and on at 60 s, the app tracking in the
    /// foreground with Always; the journal notes the switch as the app reads it at each
    /// authorization callback.
    static func run(actions: [(Double, UserAction)]) -> (World, Journal) {
        runProbe(authorization: .always, until: 120, actions: actions) { app, _ in
            let manager = app.makeManager()
            manager.allowsBackgroundLocationUpdates = true
            manager.startUpdatingLocation()
            app.keptDelegates.append(
                SwitchReader(journal: app.journal, manager: manager))
        }
    }

    /// The switch as read at each authorization callback, and the authorization.
    static func switchNotes(_ journal: Journal) -> [String] {
        journal.notes.filter { $0.hasPrefix("authorization") }
    }

    @Test(
        "R-L41, R-L42: off, the app's delegate is told denied and updates stop; on again, its own Always comes back and updates go on"
    )
    func offThenOn() {
        let (_, journal) = Self.run(
            actions: [
                (0, .open), (20, .setLocationServices(false)), (60, .setLocationServices(true)),
            ])
        // CLAuthorizationStatus raw values: denied 2, authorizedAlways 3.
        #expect(
            Self.switchNotes(journal) == [
                "authorization 3 services on", "authorization 2 services off",
                "authorization 3 services on",
            ])
        let seconds = journal.locations.map {
            $0.timestamp.timeIntervalSince(VirtualClock.startDate)
        }
        #expect(seconds.contains { $0 < 20 })
        #expect(
            !seconds.contains { $0 > 21 && $0 < 60 }, "no update while Location Services are off")
        #expect(seconds.contains { $0 > 61 }, "updates go on once they are on again")
    }

    @Test("R-L41: an app already denied is told nothing when the switch goes off")
    func deniedAppToldNothing() {
        let (_, journal) = runProbe(
            authorization: .denied, until: 60,
            actions: [
                (0, .open), (20, .setLocationServices(false)), (40, .setLocationServices(true)),
            ]
        ) { app, _ in
            _ = app.makeManager()
        }
        #expect(journal.notes.filter { $0.hasPrefix("authorization") } == ["authorization 2"])
    }

    @Test("R-L40: the scenario format reads and prints the switch")
    func words() throws {
        #expect(UserAction.setLocationServices(false).description == "location-services off")
        #expect(UserAction.readable.contains(.setLocationServices(true)))
    }
}

/// Notes, at each authorization callback, the status and the switch as the app reads them.
private final class SwitchReader: NSObject, CLLocationManagerDelegate {
    let journal: Journal
    init(journal: Journal, manager: CLLocationManager) {
        self.journal = journal
        super.init()
        manager.delegate = self
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        journal.locations += locations
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        let on = CLLocationManager.locationServicesEnabled()
        journal.note(
            "authorization \(manager.authorizationStatus.rawValue) services \(on ? "on" : "off")")
    }
}
