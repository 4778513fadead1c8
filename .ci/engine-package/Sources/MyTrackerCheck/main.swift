// A small engine written only against Lifeline's public API, driven through a drive with a
// force-quit: it tracks with a `LocationManager` allowed in the background, its own delegate,
// keeps significant change on as a safety net, makes its manager again at every launch, and
// stores every fix through the Engines library's `FixRecorder` (the store and the uploader).
import Lifeline

/// What the delegates of every process were given (it outlives each process's engine).
final class Tally { var fixes = 0 }

final class MyTracker: AppEngine, LocationManagerDelegate {
    private let tally: Tally
    private var manager: LocationManager?  // held, as an iOS app holds its CLLocationManager
    private weak var services: LocationServices?
    private let recorder = FixRecorder()
    init(tally: Tally) { self.tally = tally }

    func didLaunch(_ launch: LaunchContext, services: LocationServices) {
        let manager = LocationManager(services: services)
        manager.delegate = self
        manager.allowsBackgroundLocationUpdates = true
        manager.pausesLocationUpdatesAutomatically = false
        manager.startUpdatingLocation()
        manager.startMonitoringSignificantLocationChanges()
        self.manager = manager
        self.services = services
        recorder.resume(services: services)
    }

    func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        tally.fixes += locations.count  // a resumed app gets its held fixes in one batch
        guard let services else { return }
        for fix in locations where fix.source == .gnss { recorder.accept(fix, services: services) }
    }

    func storeDidCommit(_ commit: CommitID, services: LocationServices) {
        recorder.storeDidCommit(commit, services: services)
    }
    func didCompleteUpload(_ task: UploadTaskID, result: UploadResult, services: LocationServices) {
        recorder.didCompleteUpload(task, result: result, services: services)
    }
}

// A 20 m/s drive east for ten minutes; the user opens the app, leaves it, and force-quits it
// at 60 s. On iOS 18, significant change relaunches a force-quit app (R-B5).
let route = Route(
    start: Coordinate(latitude: 51.5007, longitude: -0.1246), headingDegrees: 90,
    segments: [.init(.drive, .minutes(10), speedMetersPerSecond: 20)])
let tally = Tally()
var world = World(
    WorldConfiguration(policy: .iOS18, authorization: .always, route: route)
) { MyTracker(tally: tally) }
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
// The delegate saw every fix the log shows handed (plus significant change's, through the
// manager that started it).
if tally.fixes < fixes {
    print("FAIL the delegates got \(tally.fixes) fixes, the log shows \(fixes)")
} else {
    let stored = world.storedRows.filter { $0.key == FixRecorder.fixRowKey }.count
    print("launches=\(launches) fixes=\(fixes) stored=\(stored) dropped=\(dropped)")
}
