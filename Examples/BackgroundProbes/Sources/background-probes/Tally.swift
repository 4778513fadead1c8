// swift-format-ignore-file
// Source A's probe classes (docs/sources.md), copied from the article as it prints them; only
// the import lines are added. Kept out of `swift format` so the text stays the article's.
#if canImport(CoreLocation)
import CoreLocation
import UIKit
#else
import LifelineKit
#endif
import Foundation

/// Counts fixes and failures, split by whether the app was in the foreground when they arrived.
@MainActor final class Tally: NSObject, @preconcurrency CLLocationManagerDelegate {
    let manager = CLLocationManager()
    private(set) var backgroundFixTimes: [Date] = []
    private(set) var backgroundFailures: [(code: Int, at: Date)] = []
    var backgroundFixes: Int { backgroundFixTimes.count }

    override init() { super.init(); manager.delegate = self }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        if UIApplication.shared.applicationState == .background { backgroundFixTimes += locations.map { _ in Date() } }
    }

    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if UIApplication.shared.applicationState == .background { backgroundFailures.append(((error as NSError).code, Date())) }
    }
}

/// Seconds from a moment to each of some later times.
func offsets(_ times: [Date], from start: Date) -> String {
    times.map { String(format: "%.1f", $0.timeIntervalSince(start)) }.joined(separator: " ")
}

/// Live updates counted in the background, for the session experiments.
@MainActor final class LiveTally {
    private(set) var backgroundFixTimes: [Date] = []
    private(set) var backgroundDenials = 0
    private var task: Task<Void, any Error>?
    var backgroundFixes: Int { backgroundFixTimes.count }
    func start() {
        task = Task { @MainActor in
            for try await update in CLLocationUpdate.liveUpdates() where UIApplication.shared.applicationState == .background {
                if update.location != nil { backgroundFixTimes.append(Date()) }
                if update.authorizationDenied { backgroundDenials += 1 }
            }
        }
    }
    func stop() { task?.cancel() }
}
