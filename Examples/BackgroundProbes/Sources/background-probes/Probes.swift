// swift-format-ignore-file
// Source A's test body (docs/sources.md): the four phases as the article writes them, its
// statements unchanged. Where the article shows a command typed at the simulator
// (`xcrun simctl …`), the simulated device's `simctl` gives it at that point. The lines marked
// `// table:` are this example's: they keep what each phase counted for the table `main`
// prints. Kept out of `swift format` so the article's lines stay as it prints them.
import Foundation
import LifelineKit

/// What the four phases counted: per phase, the background fix times, the failures and the
/// instant the phase left the app (`leftAt`), all read from `Date()`.
struct BackgroundTable: Sendable {
    struct Row: Sendable {
        var configuration: String
        var fixTimes: [Date]
        var failures: [(code: Int, at: Date)]
        var leftAt: Date
    }
    var rows: [Row] = []
}

/// The app source A's tests were hosted by: at its launch, it runs the test body.
final class HostAppDelegate: UIResponder, UIApplicationDelegate {
    let simctl: Simctl
    let host: String
    let finished: @Sendable (BackgroundTable) -> Void

    init(simctl: Simctl, host: String, finished: @escaping @Sendable (BackgroundTable) -> Void) {
        self.simctl = simctl
        self.host = host
        self.finished = finished
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        let simctl = simctl, host = host, finished = finished
        Task { @MainActor in finished(try await backgroundProbes(simctl, host: host)) }
        return true
    }
}

/// `xcrun simctl location booted start --speed=20 --interval=1 51.5007,-0.1246 51.5007,-0.0446`.
func startDrive(_ simctl: Simctl) {
    simctl.location.start(
        speed: 20, interval: 1, CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.1246),
        CLLocationCoordinate2D(latitude: 51.5007, longitude: -0.0446))
}

@MainActor func backgroundProbes(_ simctl: Simctl, host: String) async throws -> BackgroundTable {
var table = BackgroundTable()  // table:

print("defaults: allowsBackgroundLocationUpdates", CLLocationManager().allowsBackgroundLocationUpdates,
      "showsBackgroundLocationIndicator", CLLocationManager().showsBackgroundLocationIndicator)

// Phase 1: a plain manager with When In Use access.
let plain = Tally()
plain.manager.startUpdatingLocation()
try await Task.sleep(for: .seconds(1))
var leftAt = Date()

startDrive(simctl)  // xcrun simctl location booted start --speed=20 --interval=1 51.5007,-0.1246 51.5007,-0.0446
await simctl.launch("com.apple.Preferences")  // xcrun simctl launch booted com.apple.Preferences

try await Task.sleep(for: .seconds(20))
plain.manager.stopUpdatingLocation()
print("plain manager, 20 s in the background:", plain.backgroundFixes, "fixes at", offsets(plain.backgroundFixTimes, from: leftAt),
      "; failures", plain.backgroundFailures.map { "\($0.code) at \(String(format: "%.1f", $0.at.timeIntervalSince(leftAt)))" })
assert(plain.backgroundFailures.map(\.code) == [CLError.denied.rawValue])
table.rows.append(.init(configuration: "CLLocationManager, plain", fixTimes: plain.backgroundFixTimes, failures: plain.backgroundFailures, leftAt: leftAt))  // table:

await simctl.launch(host)  // xcrun simctl launch booted dev.swiftbydeya.Host

// Phase 2: the same, allowed to continue in the background.
try await Task.sleep(for: .seconds(2))
let continuing = Tally()
continuing.manager.allowsBackgroundLocationUpdates = true
continuing.manager.startUpdatingLocation()
try await Task.sleep(for: .seconds(1))
leftAt = Date()

startDrive(simctl)  // xcrun simctl location booted start --speed=20 --interval=1 51.5007,-0.1246 51.5007,-0.0446
await simctl.launch("com.apple.Preferences")  // xcrun simctl launch booted com.apple.Preferences

try await Task.sleep(for: .seconds(20))
continuing.manager.stopUpdatingLocation()
print("background-enabled manager, 20 s in the background:", continuing.backgroundFixes, "fixes, last at",
      offsets(Array(continuing.backgroundFixTimes.suffix(1)), from: leftAt), "; failures", continuing.backgroundFailures.count)
assert(continuing.backgroundFailures.isEmpty && continuing.backgroundFixes > plain.backgroundFixes)
table.rows.append(.init(configuration: "CLLocationManager, allowsBackgroundLocationUpdates", fixTimes: continuing.backgroundFixTimes, failures: continuing.backgroundFailures, leftAt: leftAt))  // table:

await simctl.launch(host)  // xcrun simctl launch booted dev.swiftbydeya.Host

// Phase 3: live updates without a background activity session.
try await Task.sleep(for: .seconds(2))
let bare = LiveTally()
bare.start()
try await Task.sleep(for: .seconds(1))
leftAt = Date()

startDrive(simctl)  // xcrun simctl location booted start --speed=20 --interval=1 51.5007,-0.1246 51.5007,-0.0446
await simctl.launch("com.apple.Preferences")  // xcrun simctl launch booted com.apple.Preferences

try await Task.sleep(for: .seconds(20))
bare.stop()
print("live updates without a session:", bare.backgroundFixes, "fixes, last at", offsets(Array(bare.backgroundFixTimes.suffix(1)), from: leftAt),
      ";", bare.backgroundDenials, "denied updates")
table.rows.append(.init(configuration: "liveUpdates(), no session", fixTimes: bare.backgroundFixTimes, failures: [], leftAt: leftAt))  // table:

await simctl.launch(host)  // xcrun simctl launch booted dev.swiftbydeya.Host

// Phase 4: live updates while a background activity session is held.
try await Task.sleep(for: .seconds(2))
let session = CLBackgroundActivitySession()
let held = LiveTally()
held.start()
try await Task.sleep(for: .seconds(1))
leftAt = Date()

startDrive(simctl)  // xcrun simctl location booted start --speed=20 --interval=1 51.5007,-0.1246 51.5007,-0.0446
await simctl.launch("com.apple.Preferences")  // xcrun simctl launch booted com.apple.Preferences

try await Task.sleep(for: .seconds(20))
held.stop()
session.invalidate()
print("live updates with a session:", held.backgroundFixes, "fixes, last at", offsets(Array(held.backgroundFixTimes.suffix(1)), from: leftAt),
      ";", held.backgroundDenials, "denied updates")
assert(held.backgroundFixes > bare.backgroundFixes)
table.rows.append(.init(configuration: "liveUpdates() with CLBackgroundActivitySession", fixTimes: held.backgroundFixTimes, failures: [], leftAt: leftAt))  // table:

await simctl.launch(host)  // xcrun simctl launch booted dev.swiftbydeya.Host
return table  // table:
}
