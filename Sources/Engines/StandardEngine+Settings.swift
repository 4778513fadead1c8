// The standard engine's settings (layer 4): every number and switch it uses, with its default,
// the rule it serves and where the default comes from (source D = 003_cfa36ecb85c68369.txt).
import Simulation
import World

extension StandardEngine {
    /// The configured accuracy of a recorded fix (R-D4, source D: high → Best, balanced →
    /// HundredMeters, low → Kilometer).
    public enum AccuracyPreset: String, Sendable, CaseIterable {
        case high, balanced, low

        /// The `desiredAccuracy` this preset asks for while a fix is due (R-D4, D).
        public var desiredAccuracyMeters: Double {
            switch self {
            case .high: LocationAccuracy.best
            case .balanced: LocationAccuracy.hundredMeters
            case .low: LocationAccuracy.kilometer
            }
        }
    }

    /// Everything the standard engine can be told, with source D's defaults where D states
    /// one and the engine's own documented choices elsewhere.
    public struct Settings: Sendable, Equatable {
        /// The recording clock: one fix is recorded per interval, everything between is
        /// ignored (R-D4, D: "fixes are recorded on your clock"). D states no default; 60 s is
        /// the engine's choice, the shortest interval at which R-D4's low-power switch runs.
        public var interval = VirtualDuration.seconds(60)
        /// The accuracy asked for while a fix is due (R-D4, D). D's default preset is not
        /// stated; high is the engine's choice (a fleet tracker wants GNSS fixes).
        public var accuracy = AccuracyPreset.high
        /// From this interval on, the engine rests the GPS between fixes (R-D4, D: "60 s or
        /// more"); below it the configured accuracy stays on the whole time.
        public var lowPowerIntervalMin = VirtualDuration.seconds(60)
        /// The `desiredAccuracy` between fixes in low-power mode (R-D4, D: 3 km).
        public var betweenFixesAccuracyMeters = LocationAccuracy.threeKilometers
        /// How long before a fix is due the configured accuracy is switched on (R-D4, D: 15 s).
        public var warmUpLead = VirtualDuration.seconds(15)
        /// `activityType` passed to Core Location (R-D1, D: `ios.activityType` default
        /// 'automotive').
        public var activityType = ActivityType.automotiveNavigation
        /// `showsBackgroundLocationIndicator` passed to Core Location (D:
        /// `ios.showsBackgroundLocationIndicator` default false; R-A8).
        public var showsBackgroundLocationIndicator = false
        /// The stop radius: the parked region's radius is max(`parkedRegionRadiusMin`,
        /// `parkedRegionRadiusFactor` × this) (R-D5, D: `stopRadiusM`). D states no default;
        /// 50 m is the engine's choice (it gives D's 100 m floor).
        public var stopRadiusMeters = 50.0
        /// The parked region's smallest radius (R-D5, D: max(100, stopRadiusM × 2)).
        public var parkedRegionRadiusMin = 100.0
        /// The parked region's radius per metre of stop radius (R-D5, D: × 2).
        public var parkedRegionRadiusFactor = 2.0
        /// Below this speed a fix counts as standing still (engine's choice for "parks", which
        /// D does not define; the world's stillness threshold, R-C2, is the same 0.5 m/s).
        public var parkedSpeedMetersPerSecondMax = 0.5
        /// How long every fix must be still before the device counts as parked (R-D5; D does
        /// not say: 3 minutes is the engine's choice, longer than a traffic light).
        public var parkedAfter = VirtualDuration.minutes(3)
        /// Fixes less accurate than this are filtered out (R-D11, D: `minAccuracyM` default
        /// 100 m).
        public var minimumAccuracyMeters = 100.0
        /// A fix is late, and the overdue rule records the best fix seen since it was due,
        /// once no fix has been accepted for this percentage of the interval (R-D11: D says
        /// "when one is late" without a number; 150 %, half an interval past due, is the
        /// engine's choice). Measured from when the fix became due in this process, so a
        /// relaunch after a long gap does not make its first fix late at once.
        public var overdueIntervalPercent: Int64 = 150
        /// Whether a swipe-away ends tracking, and whether a reboot keeps it (R-B11, R-B12).
        /// D's defaults: `stopOnTerminate` false, and after a reboot "an app that was tracking
        /// comes back the same way" (so `startOnBoot` true, unlike B's default).
        public var launchRules = LaunchRules(stopOnTerminate: false, startOnBoot: true)
        /// The host app calls `start()` whenever the user opens the app and tracking is off.
        public var startsWhenOpened = true
        /// Whether the host app tracks from its first launch or waits for the user's switch
        /// (`AppProfile.trackingStart`): with `.onUserToggle`, opening the app starts nothing
        /// until the user turns tracking on. Either way, once the user has used the switch,
        /// opening the app starts tracking only if the user left it on
        /// (`TrackingRecord.hostStartsWhenOpened`).
        public var trackingStart = TrackingStart.atFirstLaunch
        /// The upload queue (R-D13, D: a serial queue inside a background task):
        /// `UploaderConfiguration.batched`.
        public var uploader = UploaderConfiguration.batched

        public init() {}

        /// The parked region's radius (R-D5, D: max(100, stopRadiusM × 2)).
        public var parkedRegionRadiusMeters: Double {
            max(parkedRegionRadiusMin, parkedRegionRadiusFactor * stopRadiusMeters)
        }

        /// True when the GPS rests between fixes (R-D4: interval of 60 s or more).
        public var usesLowPowerBetweenFixes: Bool { interval >= lowPowerIntervalMin }

        /// How long after a fix became due it is late (R-D11).
        public var overdueDelay: VirtualDuration {
            VirtualDuration(
                nanoseconds: interval.nanoseconds * (overdueIntervalPercent - 100) / 100)
        }
    }
}
