// A small engine written only against Lifeline's public API, driven through a drive with a
// force-quit: it tracks with a manager allowed in the background and keeps significant change
// on as a safety net, and restarts both at every launch.
import Simulation
import World

final class MyTracker: AppEngine {
    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = services.makeManager()
        services.setAllowsBackgroundLocationUpdates(manager, true)
        services.setPausesLocationUpdatesAutomatically(manager, false)
        services.startUpdatingLocation(manager)
        services.startMonitoringSignificantLocationChanges()
    }
}

// A 20 m/s drive east for ten minutes; the user opens the app, leaves it, and force-quits it
// at 60 s. On iOS 18, significant change relaunches a force-quit app (R-B5).
let route = Route(
    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
    segments: [.init(.drive, .minutes(10), speedMetersPerSecond: 20)])
var world = World(
    WorldConfiguration(policy: .iOS18, authorization: .always, route: route)
) { MyTracker() }
world.schedule(.open, at: .start)
world.schedule(.leave, at: .start + .seconds(5))
world.schedule(.forceQuit, at: .start + .seconds(60))
world.run(until: .start + .minutes(10))

var fixes = 0
var launches = 0
var dropped = 0
for entry in world.log {
    switch entry.kind {
    case .location(let update) where update.fix != nil: fixes += 1
    case .launch: launches += 1
    case .dropped: dropped += 1
    default: break
    }
}
print("launches=\(launches) fixes=\(fixes) dropped=\(dropped)")
