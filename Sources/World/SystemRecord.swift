// What the system keeps for the app across its processes (layer 3): the last fix and the
// legacy regions, as a process reads them at once.

/// What the system keeps for the app across its processes and a process reads at once: the
/// location daemon's last fix (`CLLocationManager.location`, R-G2) and the legacy regions it
/// monitors for the app (`monitoredRegions`, R-G5). The app-process actor, which outlives every
/// process, keeps it from what passes through it, so no message is added to a run: every fix
/// the daemon sends the app (a location, or a significant change; delivered, held or
/// withheld), every region the app's processes register or stop, and every region the daemon
/// refuses (`monitoringDidFailFor`). The daemon holds the truth; this mirror agrees with it
/// once a request has reached it.
final class SystemRecord {
    /// The daemon's most recent fix for the app.
    private(set) var lastFix: Fix?
    /// The legacy regions registered and not stopped or refused, in the order registered.
    private(set) var regions: [CircularRegion] = []
    /// Background upload tasks made so far by any process (R-H5): the last `taskIdentifier`.
    private(set) var backgroundTaskCount = 0

    /// Background uploads the app's processes handed the system whose end has not yet reached
    /// the app (`URLSession.getAllTasks`), in the order handed over.
    private(set) var backgroundTransfers: [BackgroundUploadRequest] = []

    /// A process handed the system `request` (R-H5).
    func noteBackgroundUpload(_ request: BackgroundUploadRequest) {
        backgroundTransfers.append(request)
    }

    /// The next background task's identifier: the system numbers them across processes.
    func nextBackgroundTaskIdentifier() -> Int {
        backgroundTaskCount += 1
        return backgroundTaskCount
    }

    /// An item the daemon sent the app.
    func note(_ item: AppItem) {
        switch item {
        case .backgroundTransferCompleted(let event):
            backgroundTransfers.removeAll { $0.task == event.task }
        case .location(let update): if let fix = update.fix { lastFix = fix }
        case .event(.significantChange(let fix)): lastFix = fix
        case .monitoringFailure(let region, _, _): regions.removeAll { $0.identifier == region }
        default: break
        }
    }

    /// Requests a process sent.
    func note(_ requests: [AppRequest]) {
        // Changed in place: a copy changed and stored back made a new array at each change.
        var changed: [CircularRegion] = []
        swap(&changed, &regions)
        Self.apply(requests, to: &changed)
        swap(&changed, &regions)
    }

    /// `regions` once `requests` have registered and stopped theirs (a callback reads its own
    /// registrations at once, as `monitoredRegions` does on iOS).
    static func regions(_ regions: [CircularRegion], after requests: [AppRequest])
        -> [CircularRegion]
    {
        var regions = regions
        apply(requests, to: &regions)
        return regions
    }

    /// Registers and stops the regions of `requests` in `regions`, in order.
    private static func apply(_ requests: [AppRequest], to regions: inout [CircularRegion]) {
        for request in requests {
            switch request {
            case .startMonitoringRegion(_, let region):
                regions.removeAll { $0.identifier == region.identifier }
                regions.append(region)
            case .stopMonitoringRegion(_, let identifier):
                regions.removeAll { $0.identifier == identifier }
            default: break
            }
        }
    }
}
