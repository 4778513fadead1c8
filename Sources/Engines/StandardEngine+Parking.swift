// The standard engine's motion and regions (layer 4): parking is detected from the fixes'
// speed, a parked region watches for the drive-off (R-D5), and a swipe-away leaves significant
// change and a region behind to relaunch the app (R-D7).
import Simulation
import World

/// Whether the device is parked, and the fixes the regions are drawn around (R-D5, R-D7).
struct MotionState {
    /// Since when every fix has been slower than `parkedSpeedMetersPerSecondMax`.
    var slowSince: Instant?
    /// The device is parked and the parked region is monitored.
    var parked = false
    /// The region monitored now, if any.
    var region: CircularRegion?
    /// The latest fix of any accuracy.
    var lastFix: Fix?
    /// The latest fix within `minimumAccuracyMeters`: the only kind a region is drawn around.
    var lastPreciseFix: Fix?
    /// The fastest speed of any fix since `lastPreciseFix` (itself included): how far the
    /// device may be from it now, when only imprecise fixes came after it.
    var fastestSincePreciseFix = 0.0
}

extension StandardEngine {
    /// The identifier of the engine's one legacy region (parked, or left at a swipe-away).
    public static let regionIdentifier = "lifeline.standard.stop"

    /// Updates the motion state with `fix`: still for `parkedAfter` with a precise fix taken
    /// while still → parked, with a region around that fix (R-D5); faster → moving.
    func observeMotion(_ fix: Fix, services: LocationServices) {
        motion.lastFix = fix
        if fix.horizontalAccuracyMeters <= settings.minimumAccuracyMeters {
            motion.lastPreciseFix = fix
            motion.fastestSincePreciseFix = fix.speedMetersPerSecond
        } else {
            motion.fastestSincePreciseFix = max(
                motion.fastestSincePreciseFix, fix.speedMetersPerSecond)
        }
        guard fix.speedMetersPerSecond < settings.parkedSpeedMetersPerSecondMax else {
            motion.slowSince = nil
            if motion.parked { becomeMoving(services: services) }
            return
        }
        let since = motion.slowSince ?? fix.instant
        motion.slowSince = since
        guard recording, !motion.parked, fix.instant - since >= settings.parkedAfter,
            let anchor = motion.lastPreciseFix, anchor.instant >= since
        else { return }
        motion.parked = true
        monitorRegion(
            around: anchor.coordinate, radiusMeters: settings.parkedRegionRadiusMeters,
            services: services)
    }

    /// Moving again, or the parked region was left: the region goes (R-D5).
    func becomeMoving(services: LocationServices) {
        motion.parked = false
        motion.slowSince = nil
        removeParkedRegion(services: services)
    }

    /// R-D7 at a swipe-away with `stopOnTerminate` false: significant change stays on, the
    /// parked region stays, and a moving device gets a region around its last precise fix.
    /// That region's radius grows by the distance the device may have covered since the fix
    /// (the fastest speed seen since it × the fix's age, plus its accuracy): a region
    /// registered around a point the device has already left reports no exit, and would
    /// relaunch nothing (the engine's own choice; D says only "a region around the last
    /// position"). The fastest speed, not the last: a device that drove through a stretch of
    /// imprecise fixes and then stopped is far from the fix, though its last speed is zero.
    func keepRegistrationsForRelaunch() {
        guard let manager, let services else { return }
        manager.startMonitoringSignificantLocationChanges()
        if motion.parked, let region = motion.region {
            manager.startMonitoring(for: region)
            return
        }
        guard let anchor = motion.lastPreciseFix ?? motion.lastFix else { return }
        // Every fix since the precise one counts in it, the last one too.
        let speed = motion.fastestSincePreciseFix
        let covered =
            anchor.horizontalAccuracyMeters + speed * (services.now - anchor.instant).seconds
        monitorRegion(
            around: anchor.coordinate,
            radiusMeters: max(settings.parkedRegionRadiusMeters, covered), services: services)
    }

    /// Stops everything that would relaunch the app: significant change and the region.
    func removeRegistrations() {
        guard let manager, let services else { return }
        manager.stopMonitoringSignificantLocationChanges()
        removeParkedRegion(services: services)
    }

    private func monitorRegion(
        around center: Coordinate, radiusMeters: Double, services: LocationServices
    ) {
        guard let manager else { return }
        let region = CircularRegion(
            identifier: Self.regionIdentifier, center: center, radiusMeters: radiusMeters)
        motion.region = region
        manager.startMonitoring(for: region)
    }

    /// Removes the engine's region, known to this process or left by an earlier one.
    func removeParkedRegion(services: LocationServices) {
        guard let manager else { return }
        motion.region = nil
        services.stopMonitoring(manager.id, regionIdentifier: Self.regionIdentifier)
    }
}
