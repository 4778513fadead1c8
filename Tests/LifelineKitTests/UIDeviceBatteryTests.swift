// UIKit's battery through LifelineKit on the simulated device: the level a tracker puts in its
// payload (drained faster while location runs, charged while the user's charger is in), −1
// with monitoring off, and the notifications at the minute's check.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.NotificationCenter

/// A tracker's payload for one location, as trackers send it: position and battery percent.
private struct Payload: Codable, Equatable {
    var latitude: Double
    var longitude: Double
    var battery: Int
}

/// Starts updates and battery monitoring at launch, and notes one JSON payload a minute.
@MainActor private func sendPayloads(_ app: ProbeApp, _ application: UIApplication) {
    UIDevice.current.isBatteryMonitoringEnabled = true
    let manager = app.makeManager()
    manager.allowsBackgroundLocationUpdates = true
    manager.distanceFilter = 0
    app.keptDelegates.append(PayloadDelegate(journal: app.journal, manager: manager))
    manager.startUpdatingLocation()
}

/// The location delegate that writes the payloads.
private final class PayloadDelegate: NSObject, CLLocationManagerDelegate {
    let journal: Journal
    private var sent = 0
    init(journal: Journal, manager: CLLocationManager) {
        self.journal = journal
        super.init()
        manager.delegate = self
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        guard let location = locations.last else { return }
        sent += 1
        guard sent % 60 == 1 else { return }
        let level = MainActor.assumeIsolated { UIDevice.current.batteryLevel }
        let payload = Payload(
            latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
            battery: Int((level * 100).rounded()))
        let body = try! JSONEncoder().encode(payload)
        journal.note(String(decoding: body, as: UTF8.self))
    }
}

@Suite("LifelineKit: UIDevice's battery")
struct UIDeviceBatteryTests {
    let model = BatteryModel.standard

    /// The battery percents of the payloads a driving tracker sent, one a minute.
    func payloadBatteries(_ actions: [(Double, UserAction)]) -> [Int] {
        let (_, journal) = runProbe(
            route: drive(13.9), until: 3600, actions: [(0, .open)] + actions,
            setUp: sendPayloads)
        return journal.notes.compactMap {
            try? JSONDecoder().decode(Payload.self, from: Data($0.utf8)).battery
        }
    }

    /// `percent` as `batteryLevel` reports it: down to its 5 % step.
    func reported(_ percent: Double) -> Int { Int((percent / 5).rounded(.down)) * 5 }

    @Test("R-B1: a payload carries the battery level, which drains faster with location running")
    func payloadCarriesTheLevel() {
        let batteries = payloadBatteries([])
        let drainPerHour = model.idleDrainPercentPerHour + model.locationDrainPercentPerHour
        #expect(batteries.first == reported(model.startLevelPercent))
        // The payload of minute 59 (the 60th): 59 minutes of drain with location on.
        #expect(batteries.count == 60)
        #expect(batteries.last == reported(model.startLevelPercent - drainPerHour * 59 / 60))
        #expect(batteries.last! < batteries.first!)
    }

    @Test("R-B2: the charger plugged in at 10 minutes raises the level in the payloads")
    func chargerRaisesTheLevel() {
        let batteries = payloadBatteries([(600, .setCharger(true))])
        let drainPerHour = model.idleDrainPercentPerHour + model.locationDrainPercentPerHour
        let atPlug = model.startLevelPercent - drainPerHour * 10 / 60
        let atFifteenMinutes = min(100, atPlug + model.chargePercentPerHour * 5 / 60)
        #expect(batteries[15] == reported(atFifteenMinutes))
        #expect(batteries.last == 100)
    }

    @Test("R-B2: monitoring off reads −1 and unknown; on, a plug posts a state change")
    func monitoringAndNotifications() {
        let (_, journal) = runProbe(
            route: drive(13.9), until: 900, actions: [(0, .open), (330, .setCharger(true))]
        ) { app, _ in
            let device = UIDevice.current
            let journal = app.journal
            journal.note("off \(device.batteryLevel) \(device.batteryState.rawValue)")
            for name in [
                UIDevice.batteryStateDidChangeNotification,
                UIDevice.batteryLevelDidChangeNotification,
            ] {
                app.keptDelegates.append(
                    NotificationCenter.default.addObserver(
                        forName: name, object: nil, queue: nil
                    ) { notification in
                        let name = notification.name.rawValue
                        MainActor.assumeIsolated {
                            journal.note("\(name) \(UIDevice.current.batteryState.rawValue)")
                        }
                    } as AnyObject)
            }
            device.isBatteryMonitoringEnabled = true
            journal.note("on \(device.batteryLevel) \(device.batteryState.rawValue)")
        }
        let notes = journal.notes.filter { $0.hasPrefix("o") || $0.hasPrefix("UIDevice") }
        #expect(notes.first == "off -1.0 0")
        #expect(notes.dropFirst().first == "on 0.8 1")
        // The check after the plug at 330 s (the checks fall every minute from the launch).
        #expect(notes.contains("UIDeviceBatteryStateDidChangeNotification 2"))
        #expect(notes.last == "UIDeviceBatteryLevelDidChangeNotification 2")
    }

    @Test("R-B1, R-B2: the world's battery drains, charges, is full and stays within 0–100 %")
    func batteryModel() {
        let battery = Battery()
        let start = model.startLevelPercent
        let hour = Instant.start + .hours(1)
        #expect(battery.levelPercent(at: hour) == start - model.idleDrainPercentPerHour)
        battery.setLocationInUse(true, at: hour)
        let twoHours = hour + .hours(1)
        let drained = start - 2 * model.idleDrainPercentPerHour - model.locationDrainPercentPerHour
        #expect(battery.levelPercent(at: twoHours) == drained)
        #expect(battery.charge(at: twoHours) == .unplugged)
        battery.setCharger(true, at: twoHours)
        #expect(battery.charge(at: twoHours) == .charging)
        #expect(battery.levelPercent(at: twoHours + .hours(5)) == 100)
        #expect(battery.charge(at: twoHours + .hours(5)) == .full)
        battery.setCharger(false, at: twoHours + .hours(5))
        #expect(battery.levelPercent(at: twoHours + .hours(200)) == 0)
    }
}
