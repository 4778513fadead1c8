// The standard engine's updates (layer 4): how its one manager is set up while tracking is on
// (R-D1), and what its delegate does with each callback.
import Simulation
import World

extension StandardEngine {
    /// Tracking runs (R-D1, D "While tracking is on"): standard updates with background allowed
    /// (only with the background mode, R-A9), no automatic pause, no distance filter, the
    /// activity type, and significant change as a safety net; the recording clock starts with
    /// a fix due now (R-D4).
    func begin(services: LocationServices) {
        guard let manager else { return }
        startUpdates(manager, desiredAccuracy: settings.accuracy.desiredAccuracyMeters)
        manager.startMonitoringSignificantLocationChanges()
        if !motion.parked { removeParkedRegion(services: services) }  // a stale one (R-D5)
        recording = true
        cancelWarmUp(services: services)
        clock = RecordingClock(due: services.now)
    }

    /// Updates and the recording clock stop; registrations that outlive the process stay.
    func halt(services: LocationServices) {
        if updating, let manager {
            manager.stopUpdatingLocation()
            updating = false
        }
        recording = false
        cancelWarmUp(services: services)
    }

    /// A background launch before the first unlock (R-D9): only the engine's own
    /// registrations relaunch the app (`stop` removes them), so tracking was on; the engine
    /// keeps the process running with updates at the between-fixes accuracy, records nothing,
    /// and decides at the unlock (`protectedDataDidBecomeAvailable`), which it then gets at
    /// once instead of at the next wake.
    func holdUntilFirstUnlock() {
        guard let manager else { return }
        startUpdates(manager, desiredAccuracy: settings.betweenFixesAccuracyMeters)
    }

    /// Sets the manager up as R-D1 says and starts its updates (once per process).
    private func startUpdates(_ manager: LocationManager, desiredAccuracy: Double) {
        setDesiredAccuracy(desiredAccuracy)
        guard !updating else { return }
        // Only with the mode in the Info.plist: without it the setter aborts (R-A9, R-D1).
        if services?.backgroundModes.contains("location") == true
            || !seams.checksBackgroundModeBeforeAllowing
        {
            manager.allowsBackgroundLocationUpdates = true
        }
        manager.pausesLocationUpdatesAutomatically = false
        manager.distanceFilter = LocationManager.distanceFilterNone
        manager.activityType = settings.activityType
        if settings.showsBackgroundLocationIndicator {
            manager.showsBackgroundLocationIndicator = true
        }
        manager.startUpdatingLocation()
        updating = true
    }

    /// Sets `desiredAccuracy` when it changes (each set is a request to the daemon).
    func setDesiredAccuracy(_ meters: Double) {
        guard let manager, manager.desiredAccuracy != meters else { return }
        manager.desiredAccuracy = meters
    }
}

extension StandardEngine: LocationManagerDelegate {
    /// Every fix tells the motion state (R-D5); while recording, the clock decides whether it
    /// is recorded (R-D4, R-D11).
    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Fix]) {
        guard let services else { return }
        for fix in locations {
            observeMotion(fix, services: services)
            if recording {
                consider(fix, services: services)
            } else {
                // A fix already on its way when tracking halted (a denial, a stop).
                tell(.fixRejected(fix, reason: "not recording"))
            }
        }
    }

    /// Leaving the parked region switches to moving at once (R-D5).
    public func locationManager(_ manager: LocationManager, didExitRegion regionIdentifier: String)
    {
        guard regionIdentifier == Self.regionIdentifier, let services else {
            return
        }
        becomeMoving(services: services)
    }

    /// Permission arrived or went (R-D10).
    public func locationManagerDidChangeAuthorization(_ manager: LocationManager) {
        guard let services else { return }
        authorizationChanged(services: services)
    }
}
