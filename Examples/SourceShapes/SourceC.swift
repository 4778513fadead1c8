// Source C (docs/sources.md: Apple's live-updates talk) as it writes its code, snippet by
// snippet, and a `CLMonitor` and a `CLServiceSession` as Apple's documentation writes them.
// Only the imports differ from the source. Swift 5 language mode, as the source was written
// (Package.swift); `.ci/run` compiles the same file in a package outside the repository.
// swift-format-ignore-file
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
#endif

// (00:27) Getting location updates now only requires one line of code:
func printLocations() async throws {
    for try await update in CLLocationUpdate.liveUpdates() {
        print("My current location: \(String(describing: update.location))")
    }
}

// (04:41) liveUpdates() accepts an optional LiveConfiguration parameter:
func printFitnessLocations() async throws {
    for try await update in CLLocationUpdate.liveUpdates(.fitness) {
        print("Location: \(String(describing: update.location))")
    }
}

// (03:17) The returned Updates is an AsyncSequence: filter it directly.
func firstFastUpdate() async throws -> CLLocationUpdate? {
    let fastUpdate = try await CLLocationUpdate.liveUpdates()
        .first { update in
            guard let speed = update.location?.speed else { return false }
            return speed > 200  // 200 meters/second, about 447 miles/hour
        }
    return fastUpdate
}

// (06:04) Without a Live Activity, use CLBackgroundActivitySession:
class LocationManager {
    var backgroundActivity: CLBackgroundActivitySession?

    func startBackgroundUpdates() {
        // Must be assigned to a property, not a local variable
        backgroundActivity = CLBackgroundActivitySession()

        Task {
            for try await update in CLLocationUpdate.liveUpdates() {
                print("Location: \(String(describing: update.location))")
                if update.isStationary {
                    break
                }
            }
        }
    }

    func stop() {
        backgroundActivity?.invalidate()
        backgroundActivity = nil
    }
}

// (10:39) After a termination, rebuild liveUpdates() and the session in didFinishLaunching:
class SourceCAppDelegate: NSObject, UIApplicationDelegate {
    var backgroundActivity: CLBackgroundActivitySession?

    func handleLocationUpdate(_ update: CLLocationUpdate) {}

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Rebuild the background session (this is a rejoin, not a new session)
        backgroundActivity = CLBackgroundActivitySession()

        Task {
            for try await update in CLLocationUpdate.liveUpdates() {
                handleLocationUpdate(update)
            }
        }
        return true
    }
}

// A geofence with CLMonitor, as Apple's documentation writes it.
func monitorWork() async throws {
    let monitor = await CLMonitor("greeting")
    let center = CLLocationCoordinate2D(latitude: 37.3349, longitude: -122.0090)
    let condition = CLMonitor.CircularGeographicCondition(center: center, radius: 200)
    await monitor.add(condition, identifier: "work", assuming: .unsatisfied)
    for try await event in await monitor.events {
        switch event.state {
        case .satisfied: print("entered \(event.identifier)")
        case .unsatisfied: print("left \(event.identifier)")
        default: break
        }
    }
}

// A service session held for as long as the app needs Always authorization (iOS 18).
class Tracking {
    var session: CLServiceSession?

    func begin() {
        session = CLServiceSession(authorization: .always)
    }

    func end() {
        session?.invalidate()
        session = nil
    }
}
