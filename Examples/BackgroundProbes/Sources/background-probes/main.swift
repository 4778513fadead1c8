// Source A's background experiment on a simulated device: the terminal's commands before the
// test (grant When In Use, set the location, launch the host app), the test body run by the
// app (Probes.swift), then source A's background table from what the probes counted.
import Foundation
import LifelineKit

let host = "dev.swiftbydeya.Host"
final class Outcome: @unchecked Sendable { var table: BackgroundTable? }
let outcome = Outcome()
// The article's fixes fell on x.4–x.5 s after each phase left the app: the location
// scenario's fixes come 0.45 s past each whole second.
let device = SimulatedDevice(app: host, fixPhase: 0.45) { simctl in
    HostAppDelegate(simctl: simctl, host: host) { outcome.table = $0 }
}
device.simctl.privacy(.grant, .location, host)  // xcrun simctl privacy booted grant location …
device.simctl.location.set(CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.1246))
startDrive(device.simctl)  // the drive each phase starts (one route per run, SimulatedDevice)
await device.simctl.launch(host)
device.run(for: 100)

guard let table = outcome.table else {
    print("FAIL: the probes did not finish within 100 s")
    exit(1)
}
print("")
print("Configuration\tFixes in 20 s of background\tLast fix\tSignal")
for row in table.rows {
    let last = row.fixTimes.last.map { String(format: "%.1f s", $0.timeIntervalSince(row.leftAt)) }
    let signal = row.failures.first.map {
        "didFailWithError, code \($0.code), at "
            + String(format: "%.1f s", $0.at.timeIntervalSince(row.leftAt))
    }
    print("\(row.configuration)\t\(row.fixTimes.count)\t\(last ?? "none")\t\(signal ?? "none")")
}
